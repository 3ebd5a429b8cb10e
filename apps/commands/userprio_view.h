// cara userprio (condor_userprio) without the negotiator: its options,
// the changes they ask for, and HTCondor's tables of the accountant's
// answer: the default one (Effective Priority, Priority Factor, In Use,
// Usage in weighted hours, Time Since Last Usage), -most, -usage,
// -quotas exactly as the spec's example shows it
// (central-manager-configuration, "condor_userprio -quotas") and
// -getreslist; -l, -json and -af print the accounting ads themselves.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "apps/commands/ad_output.h"
#include "model/classad/classad.h"
#include "model/common/result.h"

namespace cara::apps {

// One change: the accountant's edit word (setfactor, setprio, setaccum,
// setfloor, setceil, resetusage, delete, setbegin, setlast), whom, the
// value and, for a floor or ceiling, how long it lasts (0: for good).
struct UserprioEdit {
  std::string command;
  std::string name;
  double value = 0;
  std::int64_t duration = 0;
};

struct UserprioOptions {
  enum class View { Default, Most, Usage, Quotas, ResourceList } view = View::Default;
  AdOutput output;
  bool allusers = false;              // also the records with no usage at all
  std::vector<UserprioEdit> edits;    // in the order given; nothing is shown when any
  std::string reslist;                // -getreslist NAME
  std::optional<std::string> config;  // --config FILE
  std::optional<std::string> pool;    // -pool CM
  std::optional<std::string> name;    // -name NEGOTIATOR: one of several sharding the pool
};

Result<UserprioOptions> parse_userprio_options(const std::vector<std::string>& args);

// What the accountant answered.
struct AccountantView {
  std::vector<classad::ClassAd> records;  // accounting ads (negotiator_ads.h accounting_ad)
  std::vector<classad::ClassAd> groups;   // group reports (group_ad)
  std::vector<classad::ClassAd> claims;   // the claims charged (claim_ad)
  std::int64_t last_update = 0;
};

std::string format_userprio(const UserprioOptions& o, const AccountantView& a, std::int64_t now,
                            std::int32_t offset);

// What the tool says of a change that was made.
std::string describe_edit(const UserprioEdit& e);

// Whether `name` may be changed: a record the accountant has, a group it
// reports, or a submitter name (user@domain) that gets a new record. An
// error says what is wrong; a note (second) that a record is created.
Result<std::optional<std::string>> check_edit_target(const UserprioEdit& e, const AccountantView& a);

extern const char* const kUserprioUsage;

}  // namespace cara::apps
