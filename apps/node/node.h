// One `cara master` node: the daemons of DAEMON_LIST as actors in one actor
// system, published through CAF's TLS middleman behind the node's gate,
// joined to the central manager(s), restarted by the master actor when
// they die, and — on a node with a schedd — a local socket for `cara
// submit` and `cara q`. Runs until SIGTERM or SIGINT.
#pragma once

#include <functional>
#include <memory>
#include <ostream>

#include "model/config/config.h"

namespace cara::apps {

// Returns the exit code: 0 after a clean stop, non-zero (with the reason
// on `err`) when the node cannot start. `reread` reads the configuration
// again as it was read at start (`cara reconfig`).
int run_node(std::shared_ptr<const config::Config> config, std::function<Result<config::Config>()> reread,
             std::ostream& err);

}  // namespace cara::apps
