// The central manager's web endpoint (issue 24): when WEB_PORT is set, the
// collector's node serves /metrics, /api/v1 and the dashboard
// (apps/web/web_routes.h) over HTTP or HTTPS (net/http_server.h), reading
// the pool through short-lived actors (actors/web_source.h). Requests are
// admitted by ALLOW_READ (the node's guard, so a reconfiguration applies
// at once), summaries are shared for WEB_REFRESH_INTERVAL
// (apps/web/summary_cache.h), and nothing a client does reaches the
// collector more often than that.
#pragma once

#include <caf/fwd.hpp>
#include <memory>

#include "actors/web_source.h"
#include "apps/web/web_settings.h"
#include "model/common/result.h"

namespace cara::net {
class Guard;
}
namespace cara::os {
class DaemonLog;
}

namespace cara::apps {

class WebService {
 public:
  // Listens as `settings` say (an error names the address and why).
  static Result<std::unique_ptr<WebService>> start(caf::actor_system& sys, const config::Config& config,
                                                   const web::WebSettings& settings,
                                                   actors::WebSourceSetup source,
                                                   std::shared_ptr<net::Guard> guard,
                                                   std::shared_ptr<os::DaemonLog> log);
  ~WebService();
  std::uint16_t port() const;
  void stop();

  struct Impl;

 private:
  explicit WebService(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace cara::apps
