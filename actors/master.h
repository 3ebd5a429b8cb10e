// The master actor: spawns the daemons of DAEMON_LIST, tells the node's
// gate where they are, and restarts a daemon that dies of an error after a
// backoff (model/node/restart_backoff.h, HTCondor's condor_master). A
// daemon that stops normally (its node shutting down) is not restarted.
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

using master_actor =
    caf::typed_actor<caf::reacts_to<Timer>, caf::replies_to<MasterStatusQuery>::with<MasterStatus>>;

struct MasterSetup {
  std::vector<DaemonSpawn> daemons;
  net::gate_actor gate;  // told each (re)spawned daemon; may be null
  PoolClock clock;
  DaemonContext context;
};

// Fails when a daemon cannot be spawned at start (a configuration error):
// nothing is left running then.
Result<master_actor> spawn_master(caf::actor_system& sys, MasterSetup setup);

}  // namespace cara::actors
