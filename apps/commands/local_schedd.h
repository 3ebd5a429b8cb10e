// A tool's call to the schedd of its node, over the schedd's local socket
// (SCHEDD_SOCKET): the request, and what each way it can fail means for
// the tool's exit code (tool_options.h kExit*).
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "model/config/config.h"

namespace cara::apps {

// The schedd's answer (its "ok" true), or nullopt once `err` says why,
// prefixed with `tool`, and `rc` holds the exit code: unreachable (2)
// when no schedd answers, a user error (1) when it refused.
std::optional<nlohmann::json> ask_local_schedd(const config::Config& cfg, const nlohmann::json& request,
                                               const std::string& tool, std::ostream& err, int& rc,
                                               std::chrono::seconds timeout = std::chrono::seconds(30));

}  // namespace cara::apps
