// The collector actor: a shell around collector::AdStore. Daemons send
// their ads in batches (AdUpdate, every UPDATE_INTERVAL and on change);
// ads expire on a timer; queries take a constraint and a projection and
// return each ad with the actor that speaks for it. Updates are forwarded
// to the CONDOR_VIEW_HOST collectors as they come. A durable collector
// keeps its absent ads on disk (COLLECTOR_PERSISTENT_AD_LOG) and, with
// KEEP_POOL_HISTORY, samples the pool into its history (POOL_HISTORY_DIR).
#pragma once

#include <caf/fwd.hpp>
#include <chrono>
#include <vector>

#include "actors/daemon_context.h"
#include "actors/interfaces.h"
#include "actors/pool_clock.h"
#include "model/collector/ad_store.h"
#include "model/collector/pool_history.h"
#include "model/common/result.h"

namespace cara::actors {

struct CollectorSetup {
  collector::CollectorPolicy policy;
  PoolClock clock;
  std::vector<collector_actor> view_hosts;                          // CONDOR_VIEW_HOST
  std::chrono::milliseconds expire_every{std::chrono::seconds(5)};  // how often expiry runs
  DaemonContext context;
  // Where absent ads are kept (COLLECTOR_PERSISTENT_AD_LOG); empty: in
  // memory only.
  std::string persistent_ad_log;
  collector::PoolHistoryPolicy history;  // KEEP_POOL_HISTORY and its knobs
};

// Opens the stores the setup names and reads the absent ads back: a store
// that cannot be opened or read is an error naming it.
Result<collector_actor> spawn_collector(caf::actor_system& sys, CollectorSetup setup);

}  // namespace cara::actors
