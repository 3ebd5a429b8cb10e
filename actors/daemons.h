// The one place a daemon of a node is made, from its DAEMON_LIST name and
// the node's configuration: `cara master` spawns its node's daemons here
// (under its master, which respawns them), and the embedded pool (`cara
// demo`, the benches, the tests) spawns every node's here. What differs
// between the two is what the node provides (NodeServices), not how a
// daemon is put together.
#pragma once

#include <caf/fwd.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "actors/daemon_context.h"
#include "actors/ha_link.h"
#include "actors/interfaces.h"
#include "actors/introducer.h"
#include "actors/job_runner.h"
#include "actors/pool_clock.h"
#include "actors/schedd.h"
#include "model/common/account.h"
#include "model/config/config.h"
#include "model/config/config_host.h"

namespace cara::actors {

// What a node gives its daemons.
struct NodeServices {
  PoolClock clock = PoolClock::wall();
  // Each daemon's log and guard, by DAEMON_LIST name.
  std::function<DaemonContext(const std::string& daemon)> context = [](const std::string&) {
    return DaemonContext{};
  };
  std::shared_ptr<config::ConfigHost> files;  // the schedd's (`queue from`); null: the system's
  // Whom jobs run as and whose user logs are written: null and nullopt are
  // the system's users and this process's account.
  std::shared_ptr<const AccountBook> accounts;
  std::optional<Account> daemon_account;
  std::shared_ptr<JobRunner> runner;  // the startd's; null: a ProcessRunner
  caf::actor middleman;               // the schedd's direct connections to slots' nodes; null: none
  std::string address;                // the startd's MyAddress; empty: none
  std::uint64_t seed = 0;             // the negotiator's claim ids; 0: the system's entropy
  // The pool's negotiator when it is known at spawn (embedded); null: the
  // schedd finds it through the collector.
  negotiator_actor negotiator;
  // Whether the daemons keep their state on disk (a `cara master` node
  // does; an embedded pool chooses: PoolSpec::durable).
  bool durable = false;
  std::chrono::microseconds commit_gap = kCommitGap;  // a durable schedd's (ScheddSetup)
  // A central manager with a HAD: what ties its had and its negotiator
  // (one per node); null otherwise.
  std::shared_ptr<HaLink> ha;
  // Joins other nodes for a daemon that must reach them (a negotiator
  // apart from the central manager); null: none (an embedded pool, where
  // every daemon shares one process).
  introducer_actor introducer;
};

// Spawns daemon `name` (COLLECTOR, NEGOTIATOR, HAD, SCHEDD, STARTD or DEFRAG) of a node
// configured by `config`, advertising to `collectors`. The error names
// what in the configuration is wrong.
Result<caf::actor> spawn_daemon(caf::actor_system& sys, const std::string& name, const NodeServices& node,
                                std::shared_ptr<const config::Config> config,
                                std::vector<collector_actor> collectors);

}  // namespace cara::actors
