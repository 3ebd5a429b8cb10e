#include "net/authorization.h"

#include <catch2/catch.hpp>

#include "model/config/config.h"

using cara::net::Authorization;
using cara::net::Identity;
using cara::net::Permission;

namespace {

Authorization from(const std::string& text) {
  auto config =
      cara::config::config_from_text(text, {"MASTER", ""}, std::make_shared<cara::config::MemoryHost>());
  REQUIRE(config.ok());
  auto a = Authorization::from_config(*config);
  REQUIRE(a.ok());
  return *a;
}

bool allowed(const Authorization& a, Permission p, const std::string& user, const std::string& host) {
  return !a.refuse(p, Identity{user, host}).has_value();
}

}  // namespace

TEST_CASE("the thesis's host-based entries (figure 13)", "[net][authz]") {
  // use SECURITY : HOST_BASED, then ALLOW_READ and ALLOW_DAEMON reassigned.
  auto a = from(
      "CONDOR_HOST = grid-tmp5.physik.rwth-aachen.de\n"
      "use SECURITY : HOST_BASED\n"
      "ALLOW_READ = grid-*.physik.rwth-aachen.de\n"
      "ALLOW_DAEMON = condor_pool@physik.rwth-aachen.de\n");
  CHECK(allowed(a, Permission::Read, "alice@physik.rwth-aachen.de", "grid-wn042.physik.rwth-aachen.de"));
  CHECK_FALSE(allowed(a, Permission::Read, "alice@physik.rwth-aachen.de", "laptop.physik.rwth-aachen.de"));
  CHECK(allowed(a, Permission::Daemon, "condor_pool@physik.rwth-aachen.de", "anything.example"));
  CHECK_FALSE(
      allowed(a, Permission::Daemon, "alice@physik.rwth-aachen.de", "grid-wn042.physik.rwth-aachen.de"));
  // ALLOW_ADMINISTRATOR = $(CONDOR_HOST) ...: any user on the CM.
  CHECK(allowed(a, Permission::Administrator, "bob@x", "grid-tmp5.physik.rwth-aachen.de"));
  CHECK_FALSE(allowed(a, Permission::Administrator, "bob@x", "grid-wn042.physik.rwth-aachen.de"));
}

TEST_CASE("levels imply lower ones, DENY wins", "[net][authz]") {
  auto a = from(
      "ALLOW_READ = nobody.example\n"
      "ALLOW_WRITE = *.pool\n"
      "ALLOW_ADMINISTRATOR = admin@pool/*\n"
      "DENY_WRITE = bad.pool\n"
      "ALLOW_NEGOTIATOR = condor@pool/cm.pool\n");
  // WRITE implies READ; ADMINISTRATOR implies WRITE and READ.
  CHECK(allowed(a, Permission::Read, "u@pool", "ep1.pool"));
  CHECK(allowed(a, Permission::Write, "admin@pool", "laptop.elsewhere"));
  CHECK(allowed(a, Permission::Read, "condor@pool", "cm.pool"));  // NEGOTIATOR implies READ
  CHECK_FALSE(allowed(a, Permission::Write, "u@pool", "bad.pool"));
  CHECK_FALSE(allowed(a, Permission::Administrator, "u@pool", "ep1.pool"));
  CHECK_FALSE(allowed(a, Permission::Negotiator, "condor@pool", "ep1.pool"));
  auto why = a.refuse(Permission::Administrator, Identity{"alice@pool", "ep1.pool"});
  REQUIRE(why);
  CHECK_THAT(*why, Catch::Contains("ADMINISTRATOR") && Catch::Contains("alice@pool/ep1.pool"));
}

TEST_CASE("user patterns: with and without a domain, case-insensitive hosts", "[net][authz]") {
  auto a = from("ALLOW_ADMINISTRATOR = admin/*, root@*/CM.POOL\n");
  CHECK(allowed(a, Permission::Administrator, "admin@any.domain", "x"));
  CHECK(allowed(a, Permission::Administrator, "root@pool", "cm.pool"));
  CHECK_FALSE(allowed(a, Permission::Administrator, "root@pool", "ep.pool"));
  CHECK_FALSE(allowed(a, Permission::Administrator, "administrator@pool", "x"));
}

TEST_CASE("defaults: read and write for the pool, daemon for daemon certificates, no administrator",
          "[net][authz]") {
  auto a = from("");
  CHECK(allowed(a, Permission::Write, "alice@pool", "ap.pool"));
  CHECK(allowed(a, Permission::Daemon, "condor@pool", "ep.pool"));
  CHECK_FALSE(allowed(a, Permission::Daemon, "alice@pool", "ep.pool"));
  CHECK_FALSE(allowed(a, Permission::Administrator, "condor@pool", "cm.pool"));
  CHECK(allowed(Authorization::open(), Permission::Administrator, "anyone@x", "y"));
}

TEST_CASE("a malformed entry is an error naming the knob", "[net][authz]") {
  auto config = cara::config::config_from_text("ALLOW_WRITE = a/b/c\n", {"MASTER", ""},
                                               std::make_shared<cara::config::MemoryHost>());
  REQUIRE(config.ok());
  auto a = Authorization::from_config(*config);
  REQUIRE_FALSE(a.ok());
  CHECK_THAT(a.error(), Catch::Contains("ALLOW_WRITE") && Catch::Contains("a/b/c"));
}
