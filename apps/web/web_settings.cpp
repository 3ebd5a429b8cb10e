#include "apps/web/web_settings.h"

#include <arpa/inet.h>

namespace cara::web {

Result<WebSettings> WebSettings::from_config(const config::Config& config) {
  WebSettings s;
  auto port_text = config.string("WEB_PORT");
  if (!port_text) return Error{port_text.error()};
  if (port_text->empty()) return s;  // no endpoint
  auto port = config.integer("WEB_PORT");
  if (!port || *port < 0 || *port > 65535)
    return Error{"WEB_PORT = " + *port_text + ": expected a TCP port number from 0 (any free port) to 65535"};
  s.enabled = true;
  s.port = static_cast<std::uint16_t>(*port);
  auto listen = config.string("WEB_LISTEN");
  if (!listen) return Error{listen.error()};
  unsigned char buf[sizeof(struct in6_addr)];
  if (inet_pton(AF_INET, listen->c_str(), buf) != 1 && inet_pton(AF_INET6, listen->c_str(), buf) != 1)
    return Error{"WEB_LISTEN = " + *listen +
                 ": expected an IPv4 or IPv6 address to listen on (0.0.0.0 for all)"};
  s.listen = *listen;
  auto tls = config.boolean("WEB_USE_TLS");
  if (!tls) return Error{tls.error()};
  s.tls = *tls;
  if (s.tls) {
    auto cert = config.string("AUTH_SSL_SERVER_CERTFILE");
    auto key = config.string("AUTH_SSL_SERVER_KEYFILE");
    if (!cert || cert->empty() || !key || key->empty())
      return Error{"WEB_USE_TLS is true but AUTH_SSL_SERVER_CERTFILE or AUTH_SSL_SERVER_KEYFILE is not set"};
    s.certificate = *cert;
    s.key = *key;
  }
  auto refresh = config.real("WEB_REFRESH_INTERVAL");
  if (!refresh || *refresh < 0) return Error{"WEB_REFRESH_INTERVAL: expected a number of seconds, 0 or more"};
  s.refresh = std::chrono::milliseconds(static_cast<std::int64_t>(*refresh * 1000));
  return s;
}

}  // namespace cara::web
