// The slot's gate: a claim counts only with an id the negotiator announced
// (model/claim/claim_gate.h).
#include "model/claim/claim_gate.h"

#include <catch2/catch.hpp>

using namespace cara::claim;
using Kind = Admission::Kind;

TEST_CASE("a claim passes with an announced id, once", "[claim][gate]") {
  ClaimGate g;
  CHECK_FALSE(g.announce("m1", 100));
  CHECK(g.admit("m1", 101).kind == Kind::Pass);
  // Used up: the same id again waits for an announcement that will not come.
  const Admission again = g.admit("m1", 102);
  CHECK(again.kind == Kind::Wait);
  CHECK(g.expire(again.token));
  CHECK_FALSE(g.expire(again.token));  // refused once only
}

TEST_CASE("a claim that overtakes its announcement waits for it", "[claim][gate]") {
  ClaimGate g;
  const Admission early = g.admit("m1", 100);
  REQUIRE(early.kind == Kind::Wait);
  CHECK(g.announce("m1", 101) == early.token);  // it may pass now
  CHECK(g.waiting() == 0);
  CHECK_FALSE(g.expire(early.token));  // its timer finds nothing to refuse
  CHECK(g.announced() == 0);           // and the id was not kept for another claim
}

TEST_CASE("an announcement goes stale; strangers cannot make a slot keep much", "[claim][gate]") {
  GateLimits limits;
  limits.announced_for = 300;
  limits.max_announced = 3;
  limits.max_waiting = 2;
  ClaimGate g(limits);
  g.announce("old", 0);
  CHECK(g.admit("old", 301).kind == Kind::Wait);  // five minutes and a second later: stale
  CHECK(g.admit("guess-2", 301).kind == Kind::Wait);
  CHECK(g.admit("guess-3", 301).kind == Kind::Refuse);  // too many wait
  for (const char* id : {"a", "b", "c", "d"}) g.announce(id, 400);
  CHECK(g.announced() == 3);
  CHECK(g.admit("a", 401).kind != Kind::Pass);  // the oldest made room
  CHECK(g.admit("d", 401).kind == Kind::Pass);
}
