#include "apps/commands/schedd_link.h"

#include "apps/commands/tool_options.h"
#include "net/local_socket.h"

namespace cara::apps {

ScheddLink local_schedd(const config::Config& cfg, std::chrono::seconds timeout, net::ProgressNote note) {
  auto socket = cfg.string("SCHEDD_SOCKET");
  return [socket, timeout, note](const nlohmann::json& request) -> Result<nlohmann::json> {
    if (!socket) return Error{socket.error()};
    return net::local_call(*socket, request, timeout, note);
  };
}

std::optional<ScheddLink> schedd_link(const config::Config& cfg, const ScheddTarget& target,
                                      const RemoteSchedds* remote, const std::string& tool, std::ostream& err,
                                      int& rc) {
  if (!target.remote()) return local_schedd(cfg);
  if (!remote) {  // the `cara` binary hands -name/-pool to cara-pool: not reached
    err << tool << ": -name and -pool need cara-pool\n";
    rc = kExitUserError;
    return std::nullopt;
  }
  return (*remote)(cfg, target, tool, err, rc);
}

std::optional<nlohmann::json> ask_schedd(const ScheddLink& link, const nlohmann::json& request,
                                         const std::string& tool, std::ostream& err, int& rc) {
  auto reply = link(request);
  if (!reply) {
    err << tool << ": " << reply.error() << "\n";
    rc = kExitUnreachable;
    return std::nullopt;
  }
  if (!reply->value("ok", false)) {
    err << tool << ": " << reply->value("error", "the schedd refused, without a reason") << "\n";
    rc = kExitUserError;
    return std::nullopt;
  }
  rc = kExitOk;
  return std::move(*reply);
}

}  // namespace cara::apps
