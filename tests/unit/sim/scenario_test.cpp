// Scenario files (model/sim/scenario.h): what they say, and what they
// refuse, each refusal naming the file and line.
#include "model/sim/scenario.h"

#include <catch2/catch.hpp>

namespace cara::sim {
namespace {

TEST_CASE("a scenario's sections become the pool, its users' actions and the run", "[sim][scenario]") {
  const char* text =
      "# a comment before the first section\n"
      "\n"
      "[pool]\n"
      "UID_DOMAIN = sim\n"
      "[central-manager]\n"
      "PRIORITY_HALFLIFE = 3600\n"
      "[machines 2 name=big]\n"
      "NUM_CPUS = 8\n"
      "[machines 1]\n"
      "NUM_CPUS = 1\n"
      "[submit alice at=1h]\n"
      "executable = /bin/true\n"
      "queue 3\n"
      "[arrivals bob every=10m until=2d]\n"
      "executable = /bin/true\n"
      "queue\n"
      "[remove alice at=2h]\n"
      "ProcId > 0\n"
      "[userprio at=30m]\n"
      "setfactor bob@sim 2\n"
      "resetusage alice@sim\n"
      "[reconfig machines at=2h name=big]\n"
      "START = false\n"
      "[reconfig central-manager at=3h]\n"
      "[trace jobs.swf groups=true at=1d]\n"
      "[run]\n"
      "end = 3d\n"
      "sample = 5m\n"
      "seed = 9\n"
      "window = 1d..2d\n";
  auto s = parse_scenario(text, "x.scenario");
  REQUIRE(s);
  REQUIRE(s->pool.common.size() == 1);
  CHECK(s->pool.common[0].first_line == 4);
  CHECK(s->pool.central_manager[0].text == "PRIORITY_HALFLIFE = 3600\n");
  REQUIRE(s->pool.machines.size() == 3);
  CHECK(s->pool.machines[0].name == "big1");
  CHECK(s->pool.machines[1].name == "big2");
  CHECK(s->pool.machines[2].name == "ep1");
  CHECK(s->pool.machines[2].config[0].first_line == 10);
  REQUIRE(s->submits.size() == 1);
  CHECK(s->submits[0].at == 3600);
  CHECK(s->submits[0].owner == "alice");
  CHECK(s->submits[0].description.first_line == 12);
  REQUIRE(s->arrivals.size() == 1);
  CHECK(s->arrivals[0].every == 600);
  CHECK(s->arrivals[0].until == 2 * 86400);
  REQUIRE(s->removes.size() == 1);
  CHECK(s->removes[0].constraint == "(Owner == \"alice\") && (ProcId > 0)");
  REQUIRE(s->userprios.size() == 2);
  CHECK(s->userprios[0].at == 1800);
  CHECK(s->userprios[0].edit.value == 2);
  CHECK(s->userprios[1].edit.kind == accounting::PriorityEditKind::ResetUsage);
  REQUIRE(s->reconfigs.size() == 2);
  CHECK(s->reconfigs[0].node == VirtualPool::Node::Machines);
  CHECK(s->reconfigs[0].prefix == "big");
  CHECK(s->reconfigs[0].at == 7200);
  CHECK(s->reconfigs[0].body.text == "START = false\n");
  CHECK(s->reconfigs[1].node == VirtualPool::Node::CentralManager);
  REQUIRE(s->traces.size() == 1);
  CHECK(s->traces[0].groups);
  CHECK(s->traces[0].at == 86400);
  CHECK(s->end == 3 * 86400);
  CHECK(s->sample == 300);
  CHECK(s->pool.seed == 9);
  CHECK(s->pool.start == kDefaultStart);
  CHECK(s->window_start == 86400);
  CHECK(s->window_end == 2 * 86400);
}

TEST_CASE("durations take seconds, minutes, hours, days and weeks", "[sim][scenario]") {
  CHECK(*parse_duration("90") == 90);
  CHECK(*parse_duration("15m") == 900);
  CHECK(*parse_duration("1.5d") == 129600);
  CHECK(*parse_duration("2w") == 1209600);
  CHECK_FALSE(parse_duration("soon"));
  CHECK_FALSE(parse_duration("-3h"));
  CHECK_FALSE(parse_duration(""));
}

TEST_CASE("a scenario that does not parse is refused with its file and line", "[sim][scenario]") {
  const std::string machines = "[machines 1]\nNUM_CPUS = 1\n";
  struct Case {
    std::string text, expected;
  };
  const Case cases[] = {
      {"NUM_CPUS = 1\n" + machines, "s.scenario, line 1: expected a section header"},
      {machines + "[submit alice]\nqueue\n", "s.scenario, line 3: [submit] needs at=TIME"},
      {machines + "[submit alice at=soon]\n", "line 3: at: 'soon' is not a time"},
      {machines + "[jobs]\n", "line 3: unknown section [jobs]"},
      {machines + "[submit alice at=1h colour=red]\n", "line 3: [submit] has no option 'colour'"},
      {"[machines many]\n", "line 1: [machines COUNT]: 'many' is not a count"},
      {machines + "[arrivals bob every=1m]\n", "line 3: [arrivals] needs until=TIME or count=N"},
      {machines + "[remove bob at=1h]\nOwner ==\n", "line 4: the constraint does not parse"},
      {machines + "[userprio at=1h]\nsetfactor bob\n", "line 4: expected 'setfactor NAME VALUE'"},
      {machines + "[userprio at=1h]\nsetcolour bob 2\n", "line 4:"},
      {machines + "[run]\nend = never\n", "line 4: end: 'never' is not a time"},
      {machines + "[run]\nwindow = 2d..1d\n", "line 4: window: its end must come after its start"},
      {machines + "[run]\nspeed = 2\n", "line 4: [run] has no 'speed'"},
      {machines + "[reconfig schedd at=1h]\n", "line 3: [reconfig schedd]: expected central-manager"},
      {machines + "[reconfig access-point at=1h name=x]\n", "line 3: name=PREFIX is for [reconfig machines]"},
      {machines + "[pool\n", "line 3: a section header needs its closing ']'"},
      {"[pool]\nA = 1\n", "s.scenario: the scenario has no [machines N] section"},
  };
  for (const Case& c : cases) {
    auto s = parse_scenario(c.text, "s.scenario");
    INFO(c.text);
    REQUIRE_FALSE(s);
    CHECK_THAT(s.error(), Catch::Contains(c.expected));
  }
}

}  // namespace
}  // namespace cara::sim
