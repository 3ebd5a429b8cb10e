// condor_reconfig on an execution point (Startd::reconfigure): policy
// expressions and published attributes change in place; claims stay; a new
// slot layout or a configuration error changes nothing.
#include <catch2/catch.hpp>

#include "model/classad/parser.h"
#include "model/classad/unparse.h"
#include "model/startd/startd.h"
#include "tests/unit/startd/slot_harness.h"
#include "tests/unit/startd/support.h"

using namespace cara;
using namespace cara::startd;
using namespace cara::startd::test;

namespace {

config::Config conf(const std::string& text) {
  return startd_config(text, machine_host(4, 8192, 1000000));
}

std::string shown(const Startd& sd, const char* slot, const char* attr) {
  const classad::Attribute* a = sd.slot(slot)->ad().find(attr);
  return a ? classad::unparse(*a->expr) : "<none>";
}

const classad::ClassAd& job() {
  static const classad::ClassAd j = *classad::parse_classad(
      R"([ Owner = "alice"; User = "alice@example.org"; Requirements = true; RequestCpus = 1 ])");
  return j;
}

}  // namespace

TEST_CASE("a reconfigured START and STARTD_ATTRS apply in place, claims stay", "[startd][reconfig]") {
  auto created = Startd::create(conf("NUM_SLOTS = 2\nSTART = True\n"), kTuesday10am);
  REQUIRE(created);
  Startd& sd = **created;
  sd.deliver("slot1", ClaimRequest{"c1#s", job(), false, {}}, kTuesday10am + 1);
  REQUIRE(shown(sd, "slot1", "State") == "\"Claimed\"");
  REQUIRE(sd.reconfigure(
      conf("NUM_SLOTS = 2\nSTART = Owner != \"mallory\"\nColor = \"blue\"\nSTARTD_ATTRS = Color\n"),
      kTuesday10am + 2));
  sd.tick(kTuesday10am + 2);
  CHECK(shown(sd, "slot2", "Start") == "Owner != \"mallory\"");
  CHECK(shown(sd, "slot2", "Requirements") == "Owner != \"mallory\"");
  CHECK(shown(sd, "slot2", "Color") == "\"blue\"");
  classad::ClassAd mallory = job();
  mallory.set("Owner", "mallory");
  CHECK_FALSE(sd.slot("slot2")->would_start(mallory));
  CHECK(sd.slot("slot2")->would_start(job()));
  // The claim is still there: its job still meets START.
  CHECK(shown(sd, "slot1", "State") == "\"Claimed\"");
  CHECK(sd.slot("slot1")->claim_id() == "c1#s");
  // The slots still share what they have alike.
  CHECK(sd.slot("slot2")->ad().chained());
  CHECK(sd.machine_ad().find("Color") != nullptr);
}

TEST_CASE("a new slot layout or a configuration error leaves the startd as it was", "[startd][reconfig]") {
  auto created = Startd::create(conf("NUM_SLOTS = 2\nSTART = True\n"), kTuesday10am);
  REQUIRE(created);
  Startd& sd = **created;
  auto layout = sd.reconfigure(conf("NUM_SLOTS = 4\nSTART = False\n"), kTuesday10am + 1);
  REQUIRE_FALSE(layout);
  CHECK_THAT(layout.error(), Catch::Contains("slot layout changed"));
  auto bad = sd.reconfigure(conf("NUM_SLOTS = 2\nSTART = (((\n"), kTuesday10am + 1);
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error(), Catch::Contains("START"));
  CHECK(sd.slot_names() == std::vector<std::string>{"slot1", "slot2"});
  CHECK(shown(sd, "slot1", "Start") == "true");
  CHECK(sd.slot("slot1")->would_start(job()));
}
