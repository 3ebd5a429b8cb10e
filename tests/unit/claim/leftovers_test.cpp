// CLAIM_PARTITIONABLE_LEFTOVERS: when the rest of a partitionable slot is
// offered with a claim (model/claim/leftovers.h).
#include "model/claim/leftovers.h"

#include <catch2/catch.hpp>

#include "model/classad/parser.h"

using namespace cara;
using namespace cara::claim;

TEST_CASE("the rest of a partitionable slot is offered only when something is left to run on",
          "[claim][leftovers]") {
  auto ad = [](const char* text) { return *classad::parse_classad(text); };
  const classad::ClassAd room = ad("[ Cpus = 3; Memory = 2000 ]");
  struct Row {
    const char* what;
    LeftoverCase c;
    classad::ClassAd pslot;
    bool offered;
  };
  const std::vector<Row> rows = {
      {"asked, granted, carved, room left", {true, true, true}, room, true},
      {"the schedd did not ask", {false, true, true}, room, false},
      {"pending or refused", {true, false, true}, room, false},
      {"not carved (a static slot)", {true, true, false}, room, false},
      {"no whole CPU left", {true, true, true}, ad("[ Cpus = 0.5; Memory = 2000 ]"), false},
      {"no memory left", {true, true, true}, ad("[ Cpus = 2; Memory = 0 ]"), false},
      {"a consumption policy splits the slot in the negotiator",
       {true, true, true},
       ad("[ Cpus = 3; Memory = 2000; ConsumptionCpus = 1 ]"),
       false},
  };
  for (const Row& r : rows) {
    INFO(r.what);
    CHECK(offers_leftovers(r.c, r.pslot) == r.offered);
  }
}
