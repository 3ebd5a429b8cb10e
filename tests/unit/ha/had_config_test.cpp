// The high-availability knobs (central-manager-configuration, "High
// Availability of the Central Manager", sample configuration).
#include "model/ha/had_config.h"

#include <catch2/catch.hpp>

#include "model/config/config.h"

using namespace cara;

namespace {

Result<std::optional<ha::HadConfig>> read(const std::string& text) {
  auto c = config::config_from_text(text, {"MASTER", ""}, std::make_shared<config::MemoryHost>());
  REQUIRE(c);
  return ha::HadConfig::from_config(*c);
}

}  // namespace

TEST_CASE("no HAD_LIST: no high availability", "[ha][config]") {
  auto h = read("");
  REQUIRE(h);
  CHECK_FALSE(*h);
}

TEST_CASE("the spec's sample: two central managers, the primary first", "[ha][config]") {
  auto h = read(R"(CENTRAL_MANAGER1 = cm1.domain.name
CENTRAL_MANAGER2 = cm2.domain.name
CONDOR_HOST = $(CENTRAL_MANAGER1),$(CENTRAL_MANAGER2)
HAD_PORT = 51450
HAD_LIST = $(CENTRAL_MANAGER1):$(HAD_PORT), $(CENTRAL_MANAGER2):$(HAD_PORT)
REPLICATION_LIST = $(CENTRAL_MANAGER1):41450, $(CENTRAL_MANAGER2):41450
HAD_CONTROLLEE = NEGOTIATOR
HAD_CONNECTION_TIMEOUT = 2
HAD_USE_PRIMARY = true
)");
  REQUIRE(h);
  REQUIRE(*h);
  const ha::HadConfig& c = **h;
  REQUIRE(c.members.size() == 2);
  CHECK(c.members[0].text() == "cm1.domain.name:51450");
  CHECK(c.members[1].text() == "cm2.domain.name:51450");
  CHECK(c.use_primary);
  CHECK(c.connection_timeout_ms == 2000);
  CHECK(c.heartbeat_ms() == 500);
  CHECK(c.startup_listen_ms() == 2 * 2000 + 2 * ha::kJoinTimeoutMs);  // reached again, then heard
  CHECK(c.use_replication);                                           // caracara's default
  CHECK(c.sync_replication);                                          // caracara's default
  CHECK(c.self_index({"cm2.domain.name"}, 51450) == 1u);
  CHECK(c.self_index({"CM1.domain.name"}, 0) == 0u);
  CHECK_FALSE(c.self_index({"cm2.domain.name"}, 9618));
  CHECK_FALSE(c.self_index({"cm3.domain.name"}, 51450));
}

TEST_CASE("HTCondor's defaults and caracara's knobs", "[ha][config]") {
  auto h = read("HAD_LIST = a, b:9700\nHAD_CONNECTION_TIMEOUT = 0.5\nHAD_REPLICATION_SYNC = false\n");
  REQUIRE(h);
  REQUIRE(*h);
  CHECK((*h)->members[0].text() == "a:9618");
  CHECK_FALSE((*h)->members[0].port_given);
  CHECK_FALSE((*h)->use_primary);
  CHECK((*h)->connection_timeout_ms == 500);
  CHECK_FALSE((*h)->sync_replication);
  CHECK((*h)->self_index({"a"}, 1234) == 0u);  // no port given: any
}

TEST_CASE("bad high-availability knobs name the knob and what was expected", "[ha][config]") {
  auto error_of = [](const std::string& text) {
    auto h = read(text);
    REQUIRE_FALSE(h);
    return h.error();
  };
  CHECK_THAT(error_of("HAD_LIST = a:99999\n"), Catch::Contains("HAD_LIST") && Catch::Contains("1-65535"));
  CHECK_THAT(error_of("HAD_LIST = a:x\n"), Catch::Contains("HAD_LIST"));
  CHECK_THAT(error_of("HAD_LIST = :9618\n"), Catch::Contains("no host[:port]"));
  CHECK_THAT(error_of("HAD_LIST = a:1, a:1\n"), Catch::Contains("listed twice"));
  CHECK_THAT(error_of("HAD_LIST = a\nHAD_CONTROLLEE = SCHEDD\n"), Catch::Contains("HAD_CONTROLLEE"));
  CHECK_THAT(error_of("HAD_LIST = a\nHAD_CONNECTION_TIMEOUT = 0\n"),
             Catch::Contains("HAD_CONNECTION_TIMEOUT") && Catch::Contains("positive"));
  CHECK_THAT(error_of("HAD_LIST = a, b\nREPLICATION_LIST = a:1\n"),
             Catch::Contains("REPLICATION_LIST") && Catch::Contains("same central managers"));
  CHECK_THAT(error_of("HAD_LIST = a\nHAD_USE_PRIMARY = maybe\n"), Catch::Contains("HAD_USE_PRIMARY"));
}
