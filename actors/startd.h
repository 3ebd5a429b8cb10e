// The startd actor: owns a machine's startd::Startd model, spawns a slot
// actor per slot (and per dynamic slot carved for a claim), steps the model
// for the events its slots hand it, sends each resulting action to its
// slot, and advertises the slot ads to the collectors: the changed ones at
// once, all of them every UPDATE_INTERVAL. A timer ticks the model so that
// time-dependent policy (MATCH_TIMEOUT, vacating, PREEMPT) acts on time.
#pragma once

#include <caf/fwd.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "actors/daemon_context.h"
#include "actors/interfaces.h"
#include "actors/job_runner.h"
#include "actors/pool_clock.h"
#include "model/config/config.h"
#include "model/startd/run_as.h"

namespace cara::actors {

struct StartdSetup {
  std::shared_ptr<const config::Config> config;
  PoolClock clock;
  std::vector<collector_actor> collectors;
  std::shared_ptr<JobRunner> runner;
  std::chrono::milliseconds tick_every{std::chrono::seconds(1)};
  DaemonContext context;
  std::string address;  // "<host:port>" of this node, published as MyAddress; empty: none
  // Whom jobs run as (model/startd/run_as.h): the machine's users and the
  // daemon's own account. Null accounts: the system's; no daemon account:
  // this process's.
  std::shared_ptr<const startd::AccountBook> accounts;
  std::optional<startd::Account> daemon_account;
};

// Fails (with the model's message) when the configuration does not make a
// machine.
Result<startd_actor> spawn_startd(caf::actor_system& sys, StartdSetup setup);

}  // namespace cara::actors
