// The slot's gate: a claim counts only with an id the negotiator announced
// (model/claim/claim_gate.h); and claim ids themselves (claim_id.h).
#include "model/claim/claim_gate.h"

#include <catch2/catch.hpp>

#include "model/claim/claim_id.h"

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

TEST_CASE("claim ids are made, shown and checked in one place", "[claim][id]") {
  const std::string id = make_claim_id("1700000000.7", "00ff");
  CHECK(id == "1700000000.7#00ff");
  CHECK(public_claim_id(id) == "1700000000.7");
  CHECK(public_claim_id("no-secret").empty());
  CHECK(check_claim_id(id));
  for (const char* bad : {"", "#secret", "public#", "no-secret"}) {
    INFO(bad);
    const cara::Status s = check_claim_id(bad);
    REQUIRE_FALSE(s);
    CHECK_THAT(s.error(), Catch::Contains("malformed claim id") && Catch::Contains("<public part>#<secret>"));
  }
  CHECK_THAT(check_claim_id("p#" + std::string(600, 'x')).error(), Catch::Contains("at most 512"));
}

TEST_CASE("a match of an older election term is refused, a newer term is remembered", "[claim][gate][ha]") {
  ClaimGate g;
  CHECK(g.announce_match("t0", 0, 10));  // a pool without high availability: term 0 throughout
  CHECK(g.announce_match("t2", 2, 11));
  CHECK(g.newest_term() == 2);
  // The negotiator of term 1 lost its role: its match does not count.
  CHECK_FALSE(g.announce_match("t1", 1, 12));
  CHECK_FALSE(g.admit("t1", 13));
  CHECK(g.admit("t2", 13));
  CHECK(g.announce_match("again", 2, 14));  // the same term: the same negotiator
  CHECK(g.admit("again", 15));
}
