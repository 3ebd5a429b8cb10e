// A whole pool in one actor system (DESIGN.md: "The embedded mode (`cara
// demo`, the library API, the simulator) spawns every daemon of a pool in
// one actor system"): a collector, a negotiator, a schedd and startds,
// each from its own configuration, wired to each other directly.
#pragma once

#include <caf/fwd.hpp>
#include <memory>
#include <optional>
#include <vector>

#include "actors/interfaces.h"
#include "actors/job_runner.h"
#include "actors/pool_clock.h"
#include "model/common/account.h"
#include "model/config/config.h"
#include "model/config/config_host.h"
#include "os/daemon_log.h"

namespace cara::actors {

struct PoolSpec {
  std::shared_ptr<const config::Config> central_manager;  // collector and negotiator
  std::shared_ptr<const config::Config> access_point;     // the schedd
  std::vector<std::shared_ptr<const config::Config>> execution_points;
  std::shared_ptr<JobRunner> runner = std::make_shared<ProcessRunner>();
  std::shared_ptr<config::ConfigHost> files;
  PoolClock clock = PoolClock::wall();
  std::uint64_t seed = 0;
  // Whom jobs run as (StartdSetup, ScheddSetup): null and nullopt are the
  // system's users and this process's account.
  std::shared_ptr<const AccountBook> accounts;
  std::optional<Account> daemon_account;
  // Where every daemon of the pool logs; null: nowhere.
  std::shared_ptr<os::DaemonLog> log;
};

struct EmbeddedPool {
  collector_actor collector;
  negotiator_actor negotiator;
  schedd_actor schedd;
  std::vector<startd_actor> startds;
};

Result<EmbeddedPool> spawn_pool(caf::actor_system& sys, const PoolSpec& spec);

// Stops every daemon of the pool.
void stop_pool(caf::actor_system& sys, const EmbeddedPool& pool);

}  // namespace cara::actors
