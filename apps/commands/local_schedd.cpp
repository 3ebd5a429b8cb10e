#include "apps/commands/local_schedd.h"

#include "apps/commands/tool_options.h"
#include "net/local_socket.h"

namespace cara::apps {

std::optional<nlohmann::json> ask_local_schedd(const config::Config& cfg, const nlohmann::json& request,
                                               const std::string& tool, std::ostream& err, int& rc,
                                               std::chrono::seconds timeout) {
  auto socket = cfg.string("SCHEDD_SOCKET");
  if (!socket) {
    err << tool << ": " << socket.error() << "\n";
    rc = kExitUserError;
    return std::nullopt;
  }
  auto reply = net::local_call(*socket, request, timeout);
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
