// The collector's own ad: HTCondor's collector advertises itself
// (condor_status -collector) with what it sees of the pool, refreshed every
// COLLECTOR_UPDATE_INTERVAL.
#pragma once

#include <cstdint>

#include "model/classad/classad.h"
#include "model/collector/ad_store.h"

namespace cara::collector {

// What the collector counted since it started.
struct CollectorCounters {
  std::int64_t updates_total = 0;  // ads taken
  std::int64_t updates_lost = 0;   // ads refused (no Name, or from a peer not allowed to advertise)
};

// The Collector ad of `store`'s collector at `now`: MyType, Name and
// Machine (the policy's name), HostsTotal and HostsClaimed, HostsUnclaimed,
// HostsOwner (slot ads by State; absent ones left out), RunningJobs and
// IdleJobs (summed over the Submitter ads), SubmitterAds, UpdatesTotal,
// UpdatesLost, and a ClassAdLifetime of three intervals so that it never
// expires between two refreshes.
classad::ClassAd collector_ad(const AdStore& store, const CollectorPolicy& policy,
                              const CollectorCounters& counters, std::int64_t now);

// The collector's own ad at `now`, kept in `store` under the policy's
// name (never empty: CollectorPolicy falls back to "collector"), so that
// condor_status -collector finds it there too.
classad::ClassAd store_own_ad(AdStore& store, const CollectorPolicy& policy,
                              const CollectorCounters& counters, std::int64_t now);

}  // namespace cara::collector
