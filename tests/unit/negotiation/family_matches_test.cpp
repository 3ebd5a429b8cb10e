// A request's match with each slot family kept across the pie spins of a
// cycle (model/negotiation/family_matches.h; issue 30 section 3, HTCondor's
// NEGOTIATOR_MATCHLIST_CACHING): asked once per cycle, not once per spin,
// and asked again when a Submitter* attribute the match reads has changed.
#include "model/negotiation/family_matches.h"

#include "tests/unit/negotiation/support.h"

using namespace cara;
using namespace cara::test;

namespace {

const std::string kAlice = "alice@example.org", kBob = "bob@example.org";

std::size_t matches_of(const negotiation::CycleResult& r, const std::string& submitter) {
  std::size_t n = 0;
  for (const auto& m : r.matches) n += m.submitter == submitter;
  return n;
}

}  // namespace

TEST_CASE("a family's answer holds while the stamp does", "[negotiation][issue30]") {
  negotiation::FamilyMatches m;
  m.renew({});
  CHECK(m.get(3) == negotiation::FamilyMatches::kUnknown);
  m.set(3, true);
  m.set(5, false);
  m.renew({});
  CHECK(m.get(3) == negotiation::FamilyMatches::kYes);
  CHECK(m.get(5) == negotiation::FamilyMatches::kNo);
  m.renew({classad::Value::integer(2)});
  CHECK(m.get(3) == negotiation::FamilyMatches::kUnknown);
  m.set(3, false);
  m.renew({classad::Value::integer(2)});
  CHECK(m.get(3) == negotiation::FamilyMatches::kNo);
}

TEST_CASE("a request tried again in a later spin does not match the families again",
          "[negotiation][issue30]") {
  // Twenty machines, each a family (the jobs read KFlops); alice's jobs
  // match fourteen of them, through a conjunct the prefilter cannot read.
  // Spin one gives alice and bob half of the pool each; bob takes one
  // slot, so alice's request comes back in spin two for what is left.
  Pool p("");
  for (int m = 0; m < 20; ++m)
    p.slots.push_back(
        slot("slot1@m" + std::to_string(m), "SlotID = 1; KFlops = " + std::to_string(1000 + m)));
  p.submit(kAlice, 1, 20, "Requirements = (TARGET.KFlops % 10 < 7 || TARGET.Site =?= \"none\")");
  p.submit(kBob, 2, 1, "Requirements = TARGET.KFlops > 0");
  const auto r = p.run();
  CHECK(matches_of(r, kAlice) == 14);
  CHECK(matches_of(r, kBob) == 1);
  CHECK(r.stats.pie_spins >= 2);
  // Each of the twenty families matched once for alice, once for bob's
  // one slot (the prefilter passes them all: bob's walk asks the first).
  CHECK(r.stats.slot_evaluations <= 22);
  const auto plain = p.run(false, false);
  CHECK(matches_of(plain, kAlice) == 14);
  CHECK(plain.stats.slot_evaluations > 30);
}

TEST_CASE("a match that reads what the negotiator adds to the job is asked again when it changed",
          "[negotiation][issue30]") {
  // Twenty slots that rank alike but are families of their own (the jobs
  // read Color), so a request's walk matches all of them at once. They
  // take a submitter's jobs only while it uses fewer than three (as of the
  // start of its request). Spin one: alice matches all twenty and takes
  // her slice of ten, bob takes five. Spin two: the five left would take
  // alice by spin one's answers, which no longer hold.
  // Read by the slots' START, or by the jobs' own Requirements.
  for (const bool by_slot : {true, false}) {
    INFO((by_slot ? "START" : "the job's Requirements"));
    const std::string rule = "SubmitterUserResourcesInUse < 3";
    Pool p("");
    for (int m = 0; m < 20; ++m)
      p.slots.push_back(slot("slot1@m" + std::to_string(m),
                             "SlotID = 1; KFlops = 1000; Color = " + std::to_string(m) +
                                 (by_slot ? "; START = TARGET." + rule + "; Requirements = START" : "")));
    const std::string req = "Requirements = TARGET.Color >= 0" + (by_slot ? "" : " && " + rule);
    p.submit(kAlice, 1, 15, req);
    p.submit(kBob, 2, 5, req);
    const auto r = p.run(), plain = p.run(false, false);
    CHECK(r.stats.pie_spins >= 2);
    CHECK(matches_of(r, kAlice) == 10);
    CHECK(matches_of(r, kBob) == 5);
    CHECK(matches_of(plain, kAlice) == matches_of(r, kAlice));
    REQUIRE(r.matches.size() == plain.matches.size());
    for (std::size_t i = 0; i < r.matches.size(); ++i)
      CHECK(r.matches[i].slot_name == plain.matches[i].slot_name);
  }
}
