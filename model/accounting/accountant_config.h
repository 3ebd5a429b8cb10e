// The accountant's knobs (central-manager-configuration, "User
// priorities"; user-priorities-and-negotiation, "Nice users", "Remote
// Users"), and the rule that names a submitter's accounting group.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/common/result.h"

namespace cara::config {
class Config;
}

namespace cara::accounting {

struct AccountantConfig {
  double halflife = 86400;                      // PRIORITY_HALFLIFE, seconds
  double default_factor = 1000;                 // DEFAULT_PRIO_FACTOR
  double nice_user_factor = 1e10;               // NICE_USER_PRIO_FACTOR
  double remote_factor = 1e7;                   // REMOTE_PRIO_FACTOR
  std::string local_domain;                     // ACCOUNTANT_LOCAL_DOMAIN, else UID_DOMAIN
  bool use_slot_weights = true;                 // NEGOTIATOR_USE_SLOT_WEIGHTS
  std::vector<std::string> groups;              // GROUP_NAMES, lower-cased
  std::map<std::string, double> group_factors;  // GROUP_PRIO_FACTOR_<g>, by lower-cased group

  static Result<AccountantConfig> from_config(const config::Config& config);

  // The group a submitter negotiates in: the part of its name before '@'
  // up to the last '.', or the longest prefix of that which GROUP_NAMES
  // lists; "<none>" when there is none. Lower-cased.
  std::string group_of(std::string_view submitter) const;
  // Whether GROUP_NAMES lists `name` (case-insensitive).
  bool is_group(std::string_view name) const;
  // The same for a name already lower-cased (group_of()'s and its parent
  // groups'), compared as it is: asked of the user of every busy slot,
  // each cycle.
  bool is_lower_group(std::string_view lower) const;

  // The factor a new record starts with: nice users ("nice-user." names)
  // NICE_USER_PRIO_FACTOR, submitters outside the local domain
  // REMOTE_PRIO_FACTOR, members of a group GROUP_PRIO_FACTOR_<group>,
  // others DEFAULT_PRIO_FACTOR.
  double initial_factor(std::string_view name, bool is_group) const;
};

// The root of the group tree.
inline constexpr const char* kNoGroup = "<none>";

}  // namespace cara::accounting
