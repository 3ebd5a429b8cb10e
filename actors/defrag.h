// The defrag daemon (DEFRAG in DAEMON_LIST): a shell around
// defrag::Defrag. Every DEFRAG_INTERVAL it fetches the slot ads from its
// collector, lets the model choose, and sends each order (drain with
// DEFRAG_SCHEDULE, DEFRAG_DRAINING_START_EXPR, resume on completion and
// DrainReason "Defrag <name>"; or cancel) to the slot the model picked,
// which hands it to its startd; the startd's answer counts as a success or
// a failure. Every DEFRAG_UPDATE_INTERVAL, and after each poll, it
// advertises its ad (MyType "Defrag": `cara status -defrag`). Like
// HTCondor's, run one per pool: two would each drain at the full rate.
#pragma once

#include <caf/fwd.hpp>
#include <chrono>
#include <memory>
#include <vector>

#include "actors/daemon_context.h"
#include "actors/interfaces.h"
#include "actors/pool_clock.h"
#include "model/config/config.h"

namespace cara::actors {

struct DefragSetup {
  std::shared_ptr<const config::Config> config;
  PoolClock clock;
  std::vector<collector_actor> collectors;  // the first one is queried
  std::chrono::milliseconds request_timeout{std::chrono::seconds(10)};
  std::uint64_t seed = 0;  // the order of machines of equal DEFRAG_RANK
  DaemonContext context;
};

// The error names what in the configuration is wrong.
Result<defrag_actor> spawn_defrag(caf::actor_system& sys, DefragSetup setup);

}  // namespace cara::actors
