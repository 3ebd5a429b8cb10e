// Where a restarted schedd finds the slot of a stored claim
// (model/claim/claimed_slot.h).
#include "model/claim/claimed_slot.h"

#include <catch2/catch.hpp>

#include "model/classad/parser.h"

using namespace cara;
using namespace cara::claim;

namespace {

classad::ClassAd slot(const std::string& name, int started) {
  return *classad::parse_classad("[ Name = \"" + name +
                                 "\"; Machine = \"ep\"; DaemonStartTime = " + std::to_string(started) + " ]");
}

}  // namespace

TEST_CASE("the slot of a stored claim, from the collector's ads of its machine", "[claim][lease]") {
  CHECK(machine_of("slot1_1@ep.example.org") == "ep.example.org");
  CHECK(machine_of("ep") == "ep");

  SECTION("no ad of the machine: not known yet") {
    auto r = find_claimed_slot("slot1_1@ep", {});
    CHECK(r.result == SlotSearch::Unknown);
    CHECK(r.why == "the collector has no ad of ep");
  }
  SECTION("the slot's ad: ask it") {
    auto r = find_claimed_slot("slot1_1@ep", {slot("slot1@ep", 100), slot("slot1_1@ep", 100)});
    CHECK(r.result == SlotSearch::Found);
    CHECK(r.index == 1);
  }
  SECTION("the machine without the slot: the dynamic slot is gone") {
    auto r = find_claimed_slot("slot1_1@ep", {slot("slot1@ep", 100)});
    CHECK(r.result == SlotSearch::Gone);
    CHECK(r.why == "ep no longer has slot1_1@ep");
  }
  SECTION("an ad a crashed startd left behind: the claim went with it") {
    auto r = find_claimed_slot("slot1_1@ep", {slot("slot1_1@ep", 100), slot("slot1@ep", 200)});
    CHECK(r.result == SlotSearch::Gone);
    CHECK(r.why == "the startd of ep restarted since the claim was made");
  }
}
