// Every error of a configuration at once (issue 19): the reader reports
// each bad line of a file, and collect_config_errors every bad knob a
// daemon's reading meets, each with its file and line.
#include "model/accounting/accountant_config.h"
#include "model/config/config_check.h"
#include "model/negotiation/negotiator_policy.h"
#include "tests/unit/config/support.h"

using namespace cara;
using namespace cara::config;
using namespace cara::config::test;

namespace {

Result<Config> load(std::shared_ptr<MemoryHost> h) {
  LoadOptions o;
  o.config_file = "/etc/cara/main.config";
  o.who = {"NEGOTIATOR", ""};
  return load_config(o, h);
}

Status negotiator_reading(const Config& c) {
  if (auto p = negotiation::NegotiatorPolicy::from_config(c); !p) return Error{p.error()};
  if (auto a = accounting::AccountantConfig::from_config(c); !a) return Error{a.error()};
  return Ok{};
}

}  // namespace

TEST_CASE("the reader reports every bad line of a file, not only the first", "[config][check]") {
  auto h = host();
  h->add_file("/etc/cara/main.config",
              "A = 1\nthis is not a line\nB = 2\nBad-Name = 3\ninclude : parts.config\nC = 4\n");
  h->add_file("/etc/cara/parts.config", "also not a line\n");
  auto c = load(h);
  REQUIRE_FALSE(c.ok());
  CHECK_THAT(c.error(), Catch::Contains("/etc/cara/main.config, line 2") &&
                            Catch::Contains("/etc/cara/main.config, line 4") &&
                            Catch::Contains("/etc/cara/parts.config, line 1"));
  // An error in the if/else structure ends the reading: what follows it
  // would be read in the wrong branch.
  h->add_file("/etc/cara/main.config", "bad line\nif version >= x\nA = 1\nendif\nanother bad line\n");
  auto structural = load(h);
  REQUIRE_FALSE(structural.ok());
  CHECK_THAT(structural.error(), Catch::Contains("line 1") && Catch::Contains("line 2"));
  CHECK(structural.error().find("line 5") == std::string::npos);
}

TEST_CASE("collect_config_errors finds every bad knob of a reading, with its file and line",
          "[config][check]") {
  auto h = host();
  h->add_file("/etc/cara/main.config",
              "PRIORITY_HALFLIFE = 8640o\nNEGOTIATOR_INTERVAL = soon\nDEFAULT_PRIO_FACTOR = 0.5\n"
              "NEGOTIATOR_PRE_JOB_RANK = (1 +\n");
  auto c = load(h);
  REQUIRE(c.ok());
  const auto errors = collect_config_errors(*c, negotiator_reading);
  REQUIRE(errors.size() == 4);
  CHECK_THAT(errors[0], Catch::StartsWith("NEGOTIATOR_PRE_JOB_RANK") && Catch::Contains("line 4"));
  CHECK_THAT(errors[1], Catch::StartsWith("NEGOTIATOR_INTERVAL = soon") && Catch::Contains("line 2"));
  CHECK_THAT(errors[2], Catch::StartsWith("PRIORITY_HALFLIFE = 8640o") && Catch::Contains("line 1"));
  // A rule the reading checks itself gets its place added.
  CHECK_THAT(errors[3], Catch::StartsWith("DEFAULT_PRIO_FACTOR must be at least 1") &&
                            Catch::Contains("(set at /etc/cara/main.config, line 3)"));
  // A good configuration has none.
  h->add_file("/etc/cara/main.config", "PRIORITY_HALFLIFE = 3600\n");
  auto good = load(h);
  REQUIRE(good.ok());
  CHECK(collect_config_errors(*good, negotiator_reading).empty());
}

TEST_CASE("with_default puts a knob back to its built-in value", "[config][check]") {
  auto h = host();
  h->add_file("/etc/cara/main.config", "PRIORITY_HALFLIFE = 10\nMY_OWN = 1\n");
  auto c = load(h);
  REQUIRE(c.ok());
  CHECK(c->with_default("PRIORITY_HALFLIFE").definition("PRIORITY_HALFLIFE")->value == "86400");
  CHECK_FALSE(c->with_default("MY_OWN").defined("MY_OWN"));
}
