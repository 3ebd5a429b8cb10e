// condor_master's restart backoff (model/node/restart_backoff.h): the
// delays HTCondor's daemon::NextStart gives with the default knobs, the
// ceiling, and per-daemon knobs over the master-wide ones.
#include "model/node/restart_backoff.h"

#include <catch2/catch.hpp>

#include "model/config/config_host.h"

using namespace cara;

namespace {

node::RestartBackoff backoff(const std::string& text, const std::string& daemon) {
  auto c = config::config_from_text(text, {"MASTER", ""}, std::make_shared<config::MemoryHost>());
  REQUIRE(c.ok());
  auto b = node::RestartBackoff::from_config(*c, daemon);
  REQUIRE(b.ok());
  return *b;
}

}  // namespace

TEST_CASE("default backoff: 9 + 2^n seconds, n restarts in a row before, at most an hour", "[node][master]") {
  const auto b = backoff("", "SCHEDD");
  CHECK(b.delay(0) == 10);
  CHECK(b.delay(1) == 11);
  CHECK(b.delay(2) == 13);
  CHECK(b.delay(3) == 17);
  CHECK(b.delay(10) == 9 + 1024);
  CHECK(b.delay(12) == 3600);    // 9 + 4096 is over the ceiling
  CHECK(b.delay(2000) == 3600);  // overflowing powers stay at the ceiling
  CHECK(b.recover == 300);
}

TEST_CASE("a daemon's own MASTER_<NAME>_BACKOFF_* knobs win over the master-wide ones", "[node][master]") {
  const std::string text =
      "MASTER_BACKOFF_CONSTANT = 1\nMASTER_BACKOFF_FACTOR = 3\nMASTER_BACKOFF_CEILING = 50\n"
      "MASTER_RECOVER_FACTOR = 20\nMASTER_STARTD_BACKOFF_CONSTANT = 5\nMASTER_STARTD_BACKOFF_FACTOR = 1.5\n";
  const auto schedd = backoff(text, "SCHEDD");
  CHECK(schedd.delay(0) == 2);
  CHECK(schedd.delay(2) == 10);
  CHECK(schedd.delay(4) == 50);  // 1 + 81, capped
  CHECK(schedd.recover == 20);
  const auto startd = backoff(text, "STARTD");
  CHECK(startd.delay(0) == 6);
  CHECK(startd.delay(1) == 7);  // 5 + ceil(1.5)
  CHECK(startd.delay(3) == 9);  // 5 + ceil(3.375)
  CHECK(startd.ceiling == 50);
}

TEST_CASE("backoff knobs out of range keep the defaults, one that is no number is an error",
          "[node][master]") {
  const auto b = backoff("MASTER_BACKOFF_CONSTANT = 0\nMASTER_BACKOFF_FACTOR = -2\n", "SCHEDD");
  CHECK(b.constant == 9);
  CHECK(b.factor == 2.0);
  CHECK(b.ceiling == 3600);
  auto c = config::config_from_text("MASTER_BACKOFF_CEILING = x\n", {"MASTER", ""},
                                    std::make_shared<config::MemoryHost>());
  REQUIRE(c.ok());
  auto bad = node::RestartBackoff::from_config(*c, "SCHEDD");
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error(), Catch::StartsWith("MASTER_BACKOFF_CEILING = x"));
}
