// One cycle from the central manager's side (model/claim/cycle_claims.h):
// priorities decay, the accountant follows the slot ads, and each match
// becomes a charged claim addressed to its submitter's schedd.
#include "model/claim/cycle_claims.h"

#include <set>

#include "unit/negotiation/support.h"

using namespace cara;
using namespace cara::test;

TEST_CASE("a cycle's matches become charged claims, addressed to each submitter's schedd",
          "[claim][negotiation]") {
  Pool p("");
  idle_slots(p, 3);
  // A slot already running someone's job, not charged yet: the cycle
  // begins its charge from the slot ad.
  p.slots.push_back(slot("slot9@host",
                         "State = \"Claimed\"; Activity = \"Busy\"; RemoteUser = \"old@example.org\"; "
                         "Requirements = false"));
  p.submit("alice@example.org", 1, 2);
  p.submit("bob@example.org", 2, 1);
  claim::CycleInput input;
  input.slots = &p.slots;
  input.submitters = p.submitters;
  input.submitters.push_back({"carol@example.org", {}});  // asked, nothing idle: not negotiated
  input.schedd_of = {{"alice@example.org", "ap1"}, {"bob@example.org", "ap2"}, {"carol@example.org", "ap2"}};
  int minted = 0;
  auto ids = [&] { return "claim" + std::to_string(++minted); };

  claim::CycleClaims out = claim::run_cycle(p.policy, p.accountant, p.groups, input, ids, kNow);
  CHECK(out.warnings.empty());
  CHECK(out.result.submitters.size() == 2);
  REQUIRE(out.result.matches.size() == 3);
  CHECK(minted == 3);
  REQUIRE(out.offers.size() == 2);
  const std::vector<claim::ClaimOffer>& ap1 = out.offers.at("ap1");
  REQUIRE(ap1.size() == 2);
  CHECK(ap1[0].submitter == "alice@example.org");
  CHECK(ap1[0].job_ids == std::vector<schedd::JobId>{{1, 0}});
  CHECK(ap1[1].job_ids == std::vector<schedd::JobId>{{1, 1}});
  CHECK_FALSE(ap1[0].preempting);
  const std::vector<claim::ClaimOffer>& ap2 = out.offers.at("ap2");
  REQUIRE(ap2.size() == 1);
  CHECK(ap2[0].job_ids == std::vector<schedd::JobId>{{2, 0}});
  CHECK(p.slots[ap2[0].slot].lookup("Name"));
  // Each offer names its slot by index and name, and carries its own id.
  std::set<std::string> claim_ids;
  for (const auto* offers : {&ap1, &ap2})
    for (const claim::ClaimOffer& o : *offers) {
      CHECK(o.slot < 3);
      CHECK(o.slot_name == "slot" + std::to_string(o.slot + 1) + "@host");
      claim_ids.insert(o.claim_id);
    }
  CHECK(claim_ids == std::set<std::string>{"claim1", "claim2", "claim3"});
  // Charged at once: the three matches and the claimed slot.
  CHECK(p.accountant.claims().size() == 4);
  CHECK(p.accountant.claims().at("slot9@host").submitter == "old@example.org");
  const accounting::CustomerRecord* alice = p.accountant.find("alice@example.org");
  REQUIRE(alice);
  CHECK(alice->resources_used == 2);
}

TEST_CASE("a match preempting a running job says so to its schedd", "[claim][negotiation]") {
  Pool p("PREEMPTION_REQUIREMENTS = true\n");
  p.slots.push_back(busy_slot("slot1@host", "hog@example.org"));
  REQUIRE(p.accountant.set_priority("hog@example.org", 1000));
  p.submit("alice@example.org", 1, 1);
  claim::CycleInput input;
  input.slots = &p.slots;
  input.submitters = p.submitters;
  input.schedd_of = {{"alice@example.org", "ap1"}};
  claim::CycleClaims out = claim::run_cycle(
      p.policy, p.accountant, p.groups, input, [] { return "c"; }, kNow);
  REQUIRE(out.offers["ap1"].size() == 1);
  CHECK(out.offers["ap1"][0].preempting);
  // The evicted user's charge ends; the new one begins.
  CHECK(p.accountant.claims().at("slot1@host").submitter == "alice@example.org");
}

TEST_CASE("the cycle's durations come from the clock it is given", "[claim][negotiation]") {
  Pool p("");
  idle_slots(p, 2);
  p.submit("alice@example.org", 1, 1);
  claim::CycleInput input;
  input.slots = &p.slots;
  input.submitters = p.submitters;
  input.schedd_of = {{"alice@example.org", "ap1"}};
  auto ids = [] { return std::string("claim"); };
  // Without a clock the statistics say 0 (a cycle in virtual time).
  claim::CycleClaims none = claim::run_cycle(p.policy, p.accountant, p.groups, input, ids, kNow);
  CHECK(none.result.stats.duration == 0);
  // Each reading a quarter second after the last: the phases add up to the whole.
  double t = 100;
  input.clock = [&] { return t += 0.25; };
  claim::CycleClaims timed = claim::run_cycle(p.policy, p.accountant, p.groups, input, ids, kNow);
  const auto& s = timed.result.stats;
  CHECK(s.duration > 0);
  CHECK(s.duration_phase4 == 0.25);
  CHECK(s.duration >= s.duration_phase1 + s.duration_phase2 + s.duration_phase3 + s.duration_phase4);
}

TEST_CASE("negotiators sharding a pool: each accountant charges the claims on its own slots only",
          "[claim][negotiation][shards]") {
  // central-manager-configuration, "Running Multiple Negotiators in One
  // Pool": accounting is per negotiator, so alice's use of the west slots
  // does not count against her share of the east ones.
  std::vector<classad::ClassAd> slots;
  slots.push_back(busy_slot("e1@host", "alice@example.org", "Site = \"east\""));
  slots.push_back(busy_slot("w1@host", "alice@example.org", "Site = \"west\""));
  slots.push_back(busy_slot("w2@host", "alice@example.org", "Site = \"west\""));
  Pool east("NEGOTIATOR_SLOT_CONSTRAINT = Site == \"east\"\n");
  Pool west("NEGOTIATOR_SLOT_CONSTRAINT = Site == \"west\"\n");
  // A charge east made before the pool was sharded (w1 was its slot then)
  // ends: w1 is west's to charge now.
  accounting::ClaimRecord before;
  before.slot = "w1@host";
  before.submitter = "alice@example.org";
  before.weight = 1;
  REQUIRE(east.accountant.begin_claim(before, kNow));
  for (Pool* p : {&east, &west}) {
    claim::CycleInput input;
    input.slots = &slots;
    claim::CycleClaims out = claim::run_cycle(
        p->policy, p->accountant, p->groups, input, [] { return "c"; }, kNow);
    CHECK(out.warnings.empty());
  }
  CHECK(east.accountant.claims().size() == 1);
  CHECK(east.accountant.claims().count("e1@host") == 1);
  CHECK(east.accountant.find("alice@example.org")->resources_used == 1);
  CHECK(west.accountant.claims().size() == 2);
  CHECK(west.accountant.claims().count("w1@host") == 1);
  CHECK(west.accountant.find("alice@example.org")->resources_used == 2);
}
