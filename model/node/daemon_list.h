// DAEMON_LIST: the daemons a node runs, in order (MASTER is the node
// itself and is left out). Every assembly of a pool reads it here: `cara
// master` for its node, and the embedded pool for each node it stands in
// for.
#pragma once

#include <string>
#include <vector>

#include "model/common/result.h"
#include "model/config/config.h"

namespace cara::node {

// Upper-cased, each once, in DAEMON_LIST order: COLLECTOR, NEGOTIATOR,
// HAD, SCHEDD, STARTD, DEFRAG (REPLICATION is accepted and left out: the had
// replicates). An unknown name, none besides MASTER, or a HAD without the
// COLLECTOR and NEGOTIATOR it goes with is an error naming the knob.
Result<std::vector<std::string>> daemon_list(const config::Config& config);

}  // namespace cara::node
