// A whole pool in one actor system (DESIGN.md: "The embedded mode (`cara
// demo`, the library API, the simulator) spawns every daemon of a pool in
// one actor system"): each node's DAEMON_LIST daemons, made where `cara
// master` makes them (actors/daemons.h), wired to each other directly.
#pragma once

#include <caf/fwd.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "actors/daemons.h"
#include "actors/interfaces.h"
#include "actors/job_runner.h"
#include "actors/pool_clock.h"
#include "model/common/account.h"
#include "model/config/config.h"
#include "model/config/config_host.h"
#include "os/daemon_log.h"

namespace cara::actors {

struct PoolSpec {
  // The pool's nodes, each a configuration whose DAEMON_LIST says what it
  // runs (model/node/daemon_list.h), as `cara master` would read it.
  std::vector<std::shared_ptr<const config::Config>> nodes;
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
  // Whether the daemons keep their state on disk, where each node's
  // configuration says (JOB_QUEUE_LOG, ...), as a `cara master` node does.
  bool durable = false;
  // A durable schedd's least time between two synced commits (ScheddSetup);
  // a pool in virtual time that does not advance it between changes wants 0.
  std::chrono::microseconds commit_gap = kCommitGap;
  // Who hears what the daemons do (the library API's events); null: nobody.
  std::function<void(const node::PoolEvent&)> observer;
  // Each node's configuration as the daemons read it again when told to
  // (Reconfigure), parallel to `nodes`; empty: they cannot.
  std::vector<std::shared_ptr<NodeConfig>> node_configs;
};

// The daemons spawned: the first collector, negotiator and schedd, and
// every startd, in node order. A pool of several central managers (HAD in
// their DAEMON_LIST, HAD_LIST naming them by FULL_HOSTNAME) has every
// negotiator and had too, in node order.
struct EmbeddedPool {
  collector_actor collector;
  negotiator_actor negotiator;
  std::vector<negotiator_actor> negotiators;
  std::vector<had_actor> hads;
  schedd_actor schedd;
  std::vector<startd_actor> startds;
  std::vector<caf::actor> daemons;  // every one, in the order spawned
};

// What the pool's nodes get from `spec` (spawn_pool's daemons; a daemon
// spawned into a running pool, as a test restarting one does).
NodeServices node_services(const PoolSpec& spec);
// The same, for a node that reads `config` again when reconfigured.
NodeServices node_services(const PoolSpec& spec, std::shared_ptr<NodeConfig> config);

// Collectors first, then negotiators (a schedd of the pool is told its
// negotiator), then the schedds and startds. A node whose DAEMON_LIST or
// configuration is wrong fails the pool, the error naming the node.
Result<EmbeddedPool> spawn_pool(caf::actor_system& sys, const PoolSpec& spec);

// Stops every daemon of the pool.
void stop_pool(caf::actor_system& sys, const EmbeddedPool& pool);

}  // namespace cara::actors
