// The web endpoint's knobs (issue 24), read and checked once: WEB_PORT
// (unset: no endpoint; 0: any free port), WEB_LISTEN (an IP address,
// 127.0.0.1 by default: nothing outside the machine reaches it unless
// configured), WEB_USE_TLS (HTTPS with the node's certificate and key,
// AUTH_SSL_SERVER_CERTFILE and _KEYFILE) and WEB_REFRESH_INTERVAL (seconds
// a summary of the pool is served before the collector is asked again).
// Read access follows ALLOW_READ / DENY_READ, matched by the client's
// address as an unauthenticated user (net/authorization.h; as for any READ
// request, what ALLOW_WRITE admits is admitted too).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "model/common/result.h"
#include "model/config/config.h"

namespace cara::web {

struct WebSettings {
  bool enabled = false;
  std::string listen = "127.0.0.1";
  std::uint16_t port = 0;
  bool tls = false;
  std::string certificate, key;  // with tls
  std::chrono::milliseconds refresh{2000};

  static Result<WebSettings> from_config(const config::Config& config);
};

// Who an HTTP client is to ALLOW_READ: no certificate proves a user.
inline constexpr const char* kWebUser = "unauthenticated@unmapped";

}  // namespace cara::web
