// The ads the negotiator publishes, under HTCondor's attribute names: its
// own Negotiator ad (condor_status -negotiator) with the last cycle's
// statistics, one Accounting ad per accountant record (condor_userprio
// reads them), and the Accounting ad of a group's turn in a cycle (its
// quota and what the cycle gave it). The negotiator and group actors only
// send what these build.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/accounting/accountant.h"
#include "model/classad/classad.h"
#include "model/negotiation/cycle_types.h"

namespace cara::config {
class Config;
}

namespace cara::negotiation {

// The negotiator's name: NEGOTIATOR_NAME when set (several negotiators
// sharding one pool, perhaps on one host, each named: `cara userprio
// -name` picks one), else FULL_HOSTNAME, as HTCondor names it.
std::string negotiator_name(const config::Config& config);

// MyType "Negotiator", Name, NegotiationCycles (cycles completed) and the
// LastNegotiationCycle*0 statistics of `last`; MyAddress (where tools reach
// its node) when `address` is given.
classad::ClassAd negotiator_ad(const std::string& name, std::int64_t cycles, const CycleStats& last,
                               const std::string& address = {});

// Under high availability the active negotiator's ad also says so: HadActive
// = True, HadTerm (its election's term) and HadActiveSince (when it became
// active). A schedd follows the ad of the newest term.
struct ActiveTerm {
  std::int64_t term = 0;
  std::int64_t since = 0;
};
void set_active_term(classad::ClassAd& ad, const ActiveTerm& t);
// The term of a Negotiator ad: HadTerm, or 0 without high availability.
std::int64_t active_term_of(const classad::ClassAd& ad);

// MyType "Accounting", Name, IsAccountingGroup, Priority, PriorityFactor,
// EffectivePriority, ResourcesUsed, WeightedResourcesUsed,
// AccumulatedUsage, WeightedAccumulatedUsage, BeginUsageTime,
// LastUsageTime, and Floor and Ceiling when set; NegotiatorName when
// `negotiator` is given (a pool sharded among negotiators holds one ad per
// submitter and negotiator: each shard has its own accountant).
classad::ClassAd accounting_ad(const accounting::CustomerRecord& record, const std::string& negotiator = {});
// What the last cycle did for each submitter with requests (condor_q
// -better-analyze): Name, CycleTime, Matched, and Rejections, the
// distinct reasons its requests went unmatched ("no match found", ...).
std::vector<classad::ClassAd> submitter_cycle_ads(const CycleResult& result, std::int64_t cycle_time);
// A claim the accountant charges (condor_userprio -getreslist).
classad::ClassAd claim_ad(const accounting::ClaimRecord& claim);

// MyType "Accounting", Name, IsAccountingGroup, ConfigQuota,
// EffectiveQuota, SubtreeQuota, SurplusPolicy ("byquota" or "no"),
// Requested, GroupResourcesAllocated, GroupResourcesInUse,
// Oversubscribed, MatchesLastCycle, GroupSortKey, NegotiationTurn and
// LastCycle (`cycle`).
classad::ClassAd group_ad(const GroupOutcome& outcome, std::int64_t cycle);

}  // namespace cara::negotiation
