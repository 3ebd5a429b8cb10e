// The pool's history (central-manager-configuration, "Configuring The
// HTCondorView Server": "a persistent, historical database of pool state
// ... machine state, as well as the state of jobs submitted by users"):
// every POOL_HISTORY_SAMPLING_INTERVAL the collector samples its live ads
// into rows, one per machine, per submitter and per accounting group;
// persistence/pool_history_store.h keeps them within
// POOL_HISTORY_MAX_STORAGE, and a query picks them by time range.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/accounting/accountant_config.h"
#include "model/classad/classad.h"
#include "model/collector/ad_store.h"
#include "model/common/result.h"

namespace cara::collector {

struct PoolHistoryPolicy {
  bool keep = false;                        // KEEP_POOL_HISTORY
  std::string dir;                          // POOL_HISTORY_DIR
  std::int64_t max_storage = 10000000;      // POOL_HISTORY_MAX_STORAGE, bytes
  std::int64_t sampling_interval = 60;      // POOL_HISTORY_SAMPLING_INTERVAL, seconds
  accounting::AccountantConfig accounting;  // GROUP_NAMES: whose group a submitter is

  static Result<PoolHistoryPolicy> from_config(const config::Config& config);
};

// One sample at `now`, as rows (each with MyType and Time):
// - MachineHistory: Name (the Machine), Slots, the slots in each State
//   (Unclaimed, Claimed, Owner, Matched, Preempting, Drained, Backfill),
//   Busy (Activity "Busy"), Cpus and CpusInUse (of Claimed slots);
// - SubmitterHistory: Name, Group, RunningJobs, IdleJobs, HeldJobs (summed
//   over the schedds it submits from);
// - GroupHistory: Name, Submitters and the sums of their jobs;
// - NegotiatorHistory: Name, Cycles, and the last cycle's CycleTime,
//   CycleDuration, Matches and Rejections (the dashboard's cycle graph).
// Absent machines are left out: they are not part of the pool's state.
std::vector<classad::ClassAd> sample_pool(const AdStore& ads, const PoolHistoryPolicy& policy,
                                          std::int64_t now);

// The live ads a sample is made of (absent ones left out by the caller).
struct PoolAds {
  std::vector<classad::ClassAd> slots, submitters, negotiators;
};
// The same sample from ads a query gave (the web endpoint's live view):
// one rule for counting the pool, whether it is stored or shown.
std::vector<classad::ClassAd> sample_ads(const PoolAds& ads, const accounting::AccountantConfig& accounting,
                                         std::int64_t now);

}  // namespace cara::collector
