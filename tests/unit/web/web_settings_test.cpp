// The web endpoint's knobs (apps/web/web_settings.h): off until WEB_PORT
// is set, loopback by default, HTTPS with the node's certificate, and a
// message naming the knob for each bad value.
#include "apps/web/web_settings.h"

#include <catch2/catch.hpp>

#include "net/authorization.h"
#include "web_fixture.h"

using namespace cara;

namespace {

Result<web::WebSettings> settings(const std::string& text) {
  return web::WebSettings::from_config(test_web::config_of(text));
}

}  // namespace

TEST_CASE("the web endpoint is off until WEB_PORT is set, then on loopback", "[web][settings]") {
  auto off = settings("");
  REQUIRE(off);
  CHECK_FALSE(off->enabled);
  auto on = settings("WEB_PORT = 9680\n");
  REQUIRE(on);
  CHECK(on->enabled);
  CHECK(on->port == 9680);
  CHECK(on->listen == "127.0.0.1");
  CHECK_FALSE(on->tls);
  CHECK(on->refresh == std::chrono::milliseconds(2000));
  auto any = settings("WEB_PORT = 0\nWEB_LISTEN = ::1\nWEB_REFRESH_INTERVAL = 0.5\n");
  REQUIRE(any);
  CHECK(any->port == 0);
  CHECK(any->listen == "::1");
  CHECK(any->refresh == std::chrono::milliseconds(500));
}

TEST_CASE("WEB_USE_TLS serves HTTPS with the node's certificate and key", "[web][settings]") {
  auto s = settings(
      "WEB_PORT = 9680\nWEB_USE_TLS = True\nAUTH_SSL_SERVER_CERTFILE = /etc/cm.pem\nAUTH_SSL_SERVER_KEYFILE "
      "= "
      "/etc/cm.key\n");
  REQUIRE(s);
  CHECK(s->tls);
  CHECK(s->certificate == "/etc/cm.pem");
  CHECK(s->key == "/etc/cm.key");
}

TEST_CASE("a bad web knob is an error naming it", "[web][settings]") {
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"WEB_PORT = 70000\n", "WEB_PORT = 70000: expected a TCP port number from 0 (any free port) to 65535"},
      {"WEB_PORT = http\n", "WEB_PORT = http: expected a TCP port number from 0 (any free port) to 65535"},
      {"WEB_PORT = 1\nWEB_LISTEN = localhost\n",
       "WEB_LISTEN = localhost: expected an IPv4 or IPv6 address to listen on (0.0.0.0 for all)"},
      {"WEB_PORT = 1\nWEB_USE_TLS = True\n",
       "WEB_USE_TLS is true but AUTH_SSL_SERVER_CERTFILE or AUTH_SSL_SERVER_KEYFILE is not set"},
      {"WEB_PORT = 1\nWEB_REFRESH_INTERVAL = -1\n",
       "WEB_REFRESH_INTERVAL: expected a number of seconds, 0 or more"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    auto s = settings(c.text);
    REQUIRE_FALSE(s);
    CHECK(s.error() == c.message);
  }
}

TEST_CASE("ALLOW_READ admits an HTTP client by its address only", "[web][settings][authz]") {
  // The web endpoint asks the node's guard about Identity{kWebUser, address}.
  auto rules = [](const std::string& text) {
    auto a = net::Authorization::from_config(test_web::config_of(text));
    REQUIRE(a);
    return *a;
  };
  const net::Identity local{web::kWebUser, "127.0.0.1"}, remote{web::kWebUser, "192.0.2.7"};
  CHECK_FALSE(rules("").refuse(net::Permission::Read, local));  // ALLOW_READ defaults to *
  // WRITE implies READ (net/authorization.h): a site that narrows READ
  // narrows WRITE too, here to the pool's daemons.
  const auto subnet = rules("ALLOW_READ = */127.0.0.*\nALLOW_WRITE = condor@pool/*\n");
  CHECK_FALSE(subnet.refuse(net::Permission::Read, local));
  CHECK(subnet.refuse(net::Permission::Read, remote));
  // A user pattern cannot admit a client that proves no user.
  CHECK(
      rules("ALLOW_READ = alice@pool/*\nALLOW_WRITE = condor@pool/*\n").refuse(net::Permission::Read, local));
  CHECK(rules("DENY_READ = */127.0.0.1\n").refuse(net::Permission::Read, local));
}
