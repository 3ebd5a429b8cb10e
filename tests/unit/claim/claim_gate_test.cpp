// The slot's gate: a claim counts only with an id the negotiator announced
// (model/claim/claim_gate.h).
#include "model/claim/claim_gate.h"

#include <catch2/catch.hpp>

using namespace cara::claim;

TEST_CASE("a claim passes with an announced id, once", "[claim][gate]") {
  ClaimGate g;
  g.announce("m1", 100);
  CHECK(g.admit("m1", 101));
  CHECK_FALSE(g.admit("m1", 102));  // used up
  CHECK_FALSE(g.admit("guess", 102));
  CHECK(g.announced() == 0);
}

TEST_CASE("an announcement goes stale, strangers cannot make a slot keep much", "[claim][gate]") {
  GateLimits limits;
  limits.announced_for = 300;
  limits.max_announced = 3;
  ClaimGate g(limits);
  g.announce("old", 0);
  CHECK_FALSE(g.admit("old", 301));  // five minutes and a second later: stale
  CHECK(g.announced() == 0);         // and gone
  for (const char* id : {"a", "b", "c", "d"}) g.announce(id, 400);
  CHECK(g.announced() == 3);
  CHECK_FALSE(g.admit("a", 401));  // the oldest made room
  CHECK(g.admit("d", 401));
}
