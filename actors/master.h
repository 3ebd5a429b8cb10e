// The master actor: spawns the daemons of DAEMON_LIST, tells the node's
// gate where they are, and restarts a daemon that dies of an error after a
// backoff (model/node/restart_backoff.h, HTCondor's condor_master). A
// daemon that stops normally (its node shutting down) is not restarted.
// It publishes the node's Master ad, and carries out condor_reconfig
// (ADMINISTRATOR): the configuration is read again and each daemon applies
// it in place.
#pragma once

#include <caf/actor.hpp>
#include <caf/fwd.hpp>
#include <caf/meta/type_name.hpp>
#include <caf/replies_to.hpp>
#include <caf/typed_actor.hpp>
#include <functional>
#include <string>
#include <vector>

#include "actors/daemon_context.h"
#include "actors/interfaces.h"
#include "actors/node_messages.h"
#include "actors/pool_clock.h"
#include "model/common/result.h"
#include "model/config/config.h"
#include "model/node/restart_backoff.h"
#include "net/gate.h"

namespace cara::actors {

struct DaemonSpawn {
  std::string name;  // as in DAEMON_LIST
  std::function<Result<caf::actor>(caf::actor_system&)> spawn;
  node::RestartBackoff backoff;  // MASTER_[<NAME>_]BACKOFF_* and RECOVER_FACTOR
};

// The master asks for what it runs (names and how often each restarted).
struct MasterStatusQuery {};
struct MasterStatus {
  std::vector<std::string> names;
  std::vector<std::int32_t> restarts;
  std::vector<caf::actor> daemons;
};

template <class I>
typename I::result_type inspect(I& f, MasterStatusQuery&) {
  return f(caf::meta::type_name("MasterStatusQuery"));
}
template <class I>
typename I::result_type inspect(I& f, MasterStatus& x) {
  return f(caf::meta::type_name("MasterStatus"), x.names, x.restarts, x.daemons);
}

// Collectors: the node's collectors changed (or were joined again): the
// master advertises itself to them at once and tells its daemons the list
// as MasterSetup::collectors has it now.
// NodeStop (from this node: SIGTERM, SIGQUIT) and OffRequest (condor_off,
// ADMINISTRATOR) stop the node: see MasterSetup::stopped. PingRequest
// (condor_ping) says what the asker may do here; anyone may ask.
// DaemonControl (condor_on/off/restart -daemon, ADMINISTRATOR) stops,
// starts or restarts one daemon or all of them, the node staying up.
using master_actor =
    caf::typed_actor<caf::reacts_to<Timer>, caf::replies_to<MasterStatusQuery>::with<MasterStatus>,
                     caf::replies_to<ReconfigRequest>::with<CommandReply>, caf::reacts_to<Collectors>,
                     caf::reacts_to<NodeStop>, caf::replies_to<OffRequest>::with<CommandReply>,
                     caf::replies_to<PingRequest>::with<PingReply>,
                     caf::replies_to<DaemonControl>::with<CommandReply>>;

// A configuration read again for condor_reconfig, checked and with what the
// node holds itself (its authorization) applied; `notes` says what needs a
// restart instead (DAEMON_LIST, the port).
struct Reloaded {
  std::shared_ptr<const config::Config> config;
  std::vector<std::string> notes;
};

struct MasterSetup {
  std::vector<DaemonSpawn> daemons;
  net::gate_actor gate;  // told each (re)spawned daemon, and the master; may be null
  PoolClock clock;
  DaemonContext context;
  // condor_reconfig: reads the configuration again; then the daemons are
  // told (Reconfigure) and those spawned later read it from `node_config`.
  // Null: the node cannot reconfigure (an embedded pool).
  std::function<Result<Reloaded>()> reload;
  std::shared_ptr<NodeConfig> node_config;
  // The Master ad (HTCondor's: Name, Machine, MyAddress, DaemonList) goes
  // to these collectors at start, after a reconfiguration and every
  // `update_interval` seconds (MASTER_UPDATE_INTERVAL). No collectors: none.
  std::function<std::vector<collector_actor>()> collectors;
  std::string name;     // FULL_HOSTNAME
  std::string address;  // <host:port>, where tools reach the node
  std::int64_t update_interval = 300;
  // Stopping the node (NodeStop): the startd first — its jobs retire and
  // vacate, or are killed when fast —, then the other daemons. A graceful
  // stop that takes SHUTDOWN_GRACEFUL_TIMEOUT turns fast; a fast one that
  // takes SHUTDOWN_FAST_TIMEOUT kills what is left. `stopped` is called
  // once when every daemon has ended (then the master ends too).
  std::int64_t shutdown_graceful = 1800, shutdown_fast = 300;
  std::function<void()> stopped;
  // condor_off: how the node is asked to stop (a networked node turns it
  // into its signal, so that every way of stopping takes one path). Null:
  // the master sends itself a NodeStop.
  std::function<void(bool fast)> request_stop;
};

// Fails when a daemon cannot be spawned at start (a configuration error):
// nothing is left running then.
Result<master_actor> spawn_master(caf::actor_system& sys, MasterSetup setup);

}  // namespace cara::actors
