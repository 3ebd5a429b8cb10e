// The accountant (user-priorities-and-negotiation, "Real User Priority",
// "Priority Calculation"): per submitter and per accounting group, the
// real user priority that decays with PRIORITY_HALFLIFE, the priority
// factor that makes it effective, usage, floors and ceilings; and the
// claims that are being charged.
//
//   RUP  π(t) = β·π(t−δt) + (1−β)·ρ,  β = 0.5^(δt / PRIORITY_HALFLIFE),
//        never below 0.5;  EUP = RUP × factor.
//
// ρ is the average number of resources used over δt: a claim begun or
// ended between two updates is charged for the part of δt it held
// (HTCondor's UnchargedTime), so no usage goes unaccounted and δt may
// vary freely. With NEGOTIATOR_USE_SLOT_WEIGHTS a claim counts its slot's
// SlotWeight, else 1. A group's record charges the claims of its
// submitters and of its subgroups.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/accounting/accountant_config.h"
#include "model/common/change_log.h"
#include "model/common/result.h"

namespace cara::accounting {

inline constexpr double kMinPriority = 0.5;

// A floor or ceiling, with the time it lapses (setceil ... duration).
struct Limit {
  double value = 0;
  std::optional<std::int64_t> expires;
};

struct CustomerRecord {
  std::string name;  // submitter (group.user@domain, user@domain) or group name
  bool is_group = false;
  double priority = kMinPriority;  // RUP
  double factor = 1;
  double resources_used = 0;           // claims
  double weighted_resources_used = 0;  // their SlotWeight
  double accumulated_usage = 0;        // resource-seconds
  double weighted_accumulated_usage = 0;
  std::int64_t begin_usage_time = 0;  // first charged
  std::int64_t last_usage_time = 0;   // last time it had claims
  std::optional<Limit> floor, ceiling;
  // Charges owed by claims that began or ended since the last update,
  // in resource-seconds (negative for a claim begun after the update).
  double uncharged = 0, weighted_uncharged = 0;

  double eup() const { return priority * factor; }
};

struct ClaimRecord {
  std::string slot;
  std::string submitter;
  double weight = 1;                            // the slot's SlotWeight
  std::int64_t start = 0;                       // when it began to be charged (begin_claim sets it)
  std::vector<std::string> concurrency_limits;  // lower-cased "name" or "name:units"
};

// What the accountant keeps across restarts (DESIGN.md "State and
// durability"): every record, every claim being charged, and when the
// priorities were last updated. Committed once per cycle and with every
// condor_userprio change (persistence/accountant_store.h).
struct AccountantState {
  std::int64_t last_update = 0;
  std::vector<CustomerRecord> records;
  std::vector<ClaimRecord> claims;
};

class Accountant {
 public:
  Accountant(AccountantConfig config, std::int64_t now);

  // The accountant as it was committed, under `config` (a restart may
  // bring another configuration: the records keep their values, as
  // reconfigure() keeps them). Two records of one name, two claims of one
  // slot or a claim of no record are errors.
  static Result<Accountant> restore(AccountantConfig config, AccountantState state);
  AccountantState state() const;

  const AccountantConfig& config() const { return config_; }
  // A reconfiguration (condor_reconfig): usage decays under the old
  // half-life up to `now`, then under the new one. Records keep their
  // priority factors (HTCondor keeps them in its accountant log); new
  // records start with the new defaults.
  void reconfigure(AccountantConfig config, std::int64_t now);

  // A match is charged to `submitter` (and its groups) from `now`.
  Status begin_claim(const ClaimRecord& claim, std::int64_t now);
  // The claim on `slot` ends at `now`.
  Status end_claim(const std::string& slot, std::int64_t now);
  const std::map<std::string, ClaimRecord>& claims() const { return claims_; }
  // The slots whose claim began or ended, as they did (a negotiator that
  // reconciles its claims from what changed: claim/claim_tracker.h).
  const ChangeLog& claim_log() const { return claim_log_; }

  // Applies the decay formula to every record for the time since the last
  // update (nothing happens when no time has passed).
  void update_priorities(std::int64_t now);
  std::int64_t last_update() const { return last_update_; }

  // The record of a submitter or group (null when it has none yet).
  const CustomerRecord* find(std::string_view name) const;
  const std::map<std::string, CustomerRecord>& records() const { return records_; }
  // RUP, factor and EUP; a name without a record has the starting values.
  double priority(std::string_view name) const;
  // The priority update_priorities(now) would give `name`, the accountant
  // unchanged (what a sample of the simulator reads between cycles).
  double priority_at(std::string_view name, std::int64_t now) const;
  double factor(std::string_view name) const;
  double effective_priority(std::string_view name) const { return priority(name) * factor(name); }
  // A floor or ceiling in force at `now`.
  std::optional<double> floor(std::string_view name, std::int64_t now) const;
  std::optional<double> ceiling(std::string_view name, std::int64_t now) const;

  // The accounting group a submitter belongs to (accountant_config.h).
  std::string group_of(std::string_view submitter) const { return config_.group_of(submitter); }

  // How many units of a concurrency limit the claims hold.
  double concurrency_in_use(std::string_view limit) const;

  // condor_userprio's commands.
  Status set_factor(const std::string& name, double factor);            // -setfactor, at least 1
  Status set_priority(const std::string& name, double priority);        // -setprio, at least 0.5
  Status set_accumulated_usage(const std::string& name, double usage);  // -setaccum
  Status set_floor(const std::string& name, double value, std::optional<std::int64_t> duration,
                   std::int64_t now);
  Status set_ceiling(const std::string& name, double value, std::optional<std::int64_t> duration,
                     std::int64_t now);
  Status reset_usage(const std::string& name, std::int64_t now);  // -resetusage
  // -setbegin, -setlast: when the record's usage began and last was seen
  // (seconds since the epoch).
  Status set_begin_usage(const std::string& name, std::int64_t when);
  Status set_last_usage(const std::string& name, std::int64_t when);
  Status remove(const std::string& name);  // -delete

 private:
  CustomerRecord& record(const std::string& name, bool group);
  // One record's priority and average use over `dt` seconds since the
  // last update.
  struct Decay {
    double used = 0, weighted = 0, priority = 0;
  };
  // `beta`: 0.5^(dt / halflife), the same for every record over one dt.
  Decay decay(const CustomerRecord& r, double dt) const;
  Decay decay(const CustomerRecord& r, double dt, double beta) const;
  bool is_group(std::string_view name) const;  // listed in GROUP_NAMES
  // The submitter's record and those of its group and the group's parents.
  std::vector<CustomerRecord*> charged(const std::string& submitter);

  AccountantConfig config_;
  std::int64_t last_update_;
  std::map<std::string, CustomerRecord> records_;  // by lower-cased name
  std::map<std::string, ClaimRecord> claims_;      // by slot
  ChangeLog claim_log_;
};

}  // namespace cara::accounting
