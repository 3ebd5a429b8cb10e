// What a node checks before it listens, joins anyone or changes anything
// (issue 19: "start-up checks first", "reconfiguration is all or
// nothing"): every daemon's reading of its knobs — all their errors, each
// with its file and line —, the files the node needs (certificate, key, CA)
// with the system's reason, the directories it writes, whom jobs can run as
// and the process keeper on an execution point, and, at start, the address
// and port it is to listen on. Pure apart from looking at files, users and
// one test bind; no CAF.
#pragma once

#include <string>
#include <vector>

#include "model/common/account.h"
#include "model/config/config.h"

namespace cara::apps {

struct NodeCheckOptions {
  bool at_start = true;                   // also the files, directories and port
  const AccountBook* accounts = nullptr;  // this machine's users (required)
  Account daemon;                         // the account the node runs as
};

// Every problem found, each a complete message; empty when the node can run
// this configuration.
std::vector<std::string> check_node(const config::Config& config, const NodeCheckOptions& options);

// One message of them all, for a log or a tool: "N problems:" and a line each.
std::string describe_problems(const std::vector<std::string>& problems);

}  // namespace cara::apps
