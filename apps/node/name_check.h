// A node's name must be its own: two nodes that advertise one name
// (FULL_HOSTNAME; by default the host's, shared by nodes on one host) make
// `cara reconfig NAME`, `cara off NAME` and the collector's ads reach the
// wrong one. A node that joins its central managers asks their collectors
// first; a Master ad of its name at another address refuses its start.
#pragma once

#include <string>
#include <vector>

#include "actors/handles.h"
#include "model/common/result.h"

namespace caf {
class actor_system;
}

namespace cara::apps {

// Ok when no collector of `collectors` holds a Master ad named `name`
// at an address other than `address` (this node's own, restarted: the
// same address); else why the node may not start.
Status check_unique_name(caf::actor_system& sys, const std::vector<actors::collector_actor>& collectors,
                         const std::string& name, const std::string& address);

}  // namespace cara::apps
