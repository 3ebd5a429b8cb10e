// How a tool reaches a schedd: this node's over its local socket
// (SCHEDD_SOCKET: the kernel says who asks, no certificate needed), or any
// schedd of the pool over TLS (-name SCHEDD, -pool CM: the `cara` binary
// hands such a command to cara-pool, which makes that link). The
// requests and answers are the local socket's JSON either way, and what
// each failure means for the exit code is decided here (tool_options.h
// kExit*).
#pragma once

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "apps/commands/tool_options.h"
#include "model/common/result.h"
#include "model/config/config.h"
#include "net/local_socket.h"

namespace cara::apps {

// A request's answer, or why none came (the schedd could not be reached).
using ScheddLink = std::function<Result<nlohmann::json>(const nlohmann::json& request)>;

// Makes the link to a schedd of the pool; nullopt once `err` says why
// (`rc` the exit code). cara-pool provides it; the `cara` binary has none.
using RemoteSchedds =
    std::function<std::optional<ScheddLink>(const config::Config& cfg, const ScheddTarget& target,
                                            const std::string& tool, std::ostream& err, int& rc)>;

// This node's schedd, over SCHEDD_SOCKET; progress notes it sends before an
// answer go to `note`.
ScheddLink local_schedd(const config::Config& cfg, std::chrono::seconds timeout = std::chrono::seconds(30),
                        net::ProgressNote note = {});

// The link `target` asks for: the local schedd, or a remote one through
// `remote`; nullopt once `err` says why.
std::optional<ScheddLink> schedd_link(const config::Config& cfg, const ScheddTarget& target,
                                      const RemoteSchedds* remote, const std::string& tool, std::ostream& err,
                                      int& rc);

// The schedd's answer (its "ok" true), or nullopt once `err` says why,
// prefixed with `tool`, and `rc` holds the exit code: unreachable (2)
// when no schedd answers, a user error (1) when it refused.
std::optional<nlohmann::json> ask_schedd(const ScheddLink& link, const nlohmann::json& request,
                                         const std::string& tool, std::ostream& err, int& rc);

}  // namespace cara::apps
