// The Remote* attributes of a cycle (user-priorities-and-negotiation,
// "Priorities in Negotiation and Preemption") go on the slot ads an
// expression of the cycle can read them in, and only there
// (remote_attributes.h): busy slots that no request can take cost no copy
// when only the negotiator's PREEMPTION_RANK reads them, and a slot
// expression that reads them still sees them.
#include "model/negotiation/remote_attributes.h"

#include "model/classad/eval.h"
#include "model/negotiation/ad_layer.h"
#include "tests/unit/negotiation/support.h"

using namespace cara;
using namespace cara::test;
using negotiation::CycleResult;

namespace {

const std::string kA = "a@example.org", kB = "b@example.org";

void same(const CycleResult& a, const CycleResult& b) {
  REQUIRE(a.matches.size() == b.matches.size());
  for (std::size_t i = 0; i < a.matches.size(); ++i) {
    CHECK(a.matches[i].slot_name == b.matches[i].slot_name);
    CHECK(a.matches[i].job_id == b.matches[i].job_id);
    CHECK(a.matches[i].reason == b.matches[i].reason);
  }
  REQUIRE(a.rejections.size() == b.rejections.size());
  for (std::size_t i = 0; i < a.rejections.size(); ++i)
    CHECK(a.rejections[i].reason == b.rejections[i].reason);
}

// One idle slot and four running b's jobs, whose Rank (0) prefers no job:
// with the default PREEMPTION_REQUIREMENTS (False) no request can take
// them.
Pool busy_pool(const std::string& config, const std::string& job_extra = "") {
  Pool p(config);
  p.slots.push_back(slot("slot1@idle"));
  for (int i = 1; i <= 4; ++i)
    p.slots.push_back(busy_slot("slot" + std::to_string(i) + "@busy", kB, "SlotID = " + std::to_string(i)));
  REQUIRE(p.accountant.set_priority(kB, 40));
  p.submit(kA, 1, 2, job_extra);
  return p;
}

}  // namespace

TEST_CASE("the names of the Remote* attributes", "[negotiation][issue29][issue30]") {
  using negotiation::is_machine_remote_prio;
  using negotiation::is_remote_attribute;
  for (const char* n :
       {"RemoteUserPrio", "remoteuserprio", "RemoteUserResourcesInUse", "RemoteGroup",
        "RemoteNegotiatingGroup", "RemoteAutoregroup", "RemoteGroupQuota", "RemoteGroupResourcesInUse"})
    CHECK(is_remote_attribute(n));
  for (const char* n : {"RemoteUser", "RemoteOwner", "Remote", "RemoteUserPrio2", "Slot1_RemoteUserPrio"})
    CHECK_FALSE(is_remote_attribute(n));
  for (const char* n : {"Slot1_RemoteUserPrio", "slot12_remoteuserprio"}) CHECK(is_machine_remote_prio(n));
  for (const char* n :
       {"Slot_RemoteUserPrio", "SlotA_RemoteUserPrio", "Slot1_RemoteUserPrio2", "RemoteUserPrio"})
    CHECK_FALSE(is_machine_remote_prio(n));
}

TEST_CASE("busy slots no request can take are not annotated unless a request reads it",
          "[negotiation][issue29][issue30]") {
  SECTION("the default PREEMPTION_RANK reads RemoteUserPrio, but is never evaluated on them") {
    Pool p = busy_pool("");
    const CycleResult fast = p.run(), plain = p.run(false);
    CHECK(fast.stats.annotated_slots == 0);
    CHECK(plain.stats.annotated_slots == 4);
    REQUIRE(fast.matches.size() == 1);
    CHECK(fast.matches[0].slot_name == "slot1@idle");
    same(fast, plain);
  }
  SECTION("a request whose Requirements read RemoteUserPrio sees it on every busy slot") {
    // b's priority (40) keeps a's second job off the busy slots either
    // way; the reason tells whether the match read the priority.
    Pool p =
        busy_pool("", "Requirements = TARGET.RemoteUserPrio =?= undefined || TARGET.RemoteUserPrio < 10");
    const CycleResult fast = p.run(), plain = p.run(false);
    CHECK(fast.stats.annotated_slots == 4);
    same(fast, plain);
    REQUIRE(fast.rejections.size() == 1);
    CHECK(fast.rejections[0].reason == "no match found");
  }
  SECTION("a request that can preempt by priority: PREEMPTION_REQUIREMENTS reads it") {
    Pool p = busy_pool("PREEMPTION_REQUIREMENTS = RemoteUserPrio > SubmitterUserPrio * 1.2\n");
    const CycleResult fast = p.run(), plain = p.run(false);
    CHECK(fast.stats.annotated_slots == 4);
    same(fast, plain);
    CHECK(fast.matches.size() == 2);
  }
}

TEST_CASE("a slot expression that reads Slot<N>_RemoteUserPrio still sees it",
          "[negotiation][issue29][issue30]") {
  // The idle slot2 takes jobs only while the user on slot1 has a poor
  // effective priority (a larger number; the default factor is 1000):
  // only the slots' own expressions read it, so the cycle learns it when
  // it keys their classes, and annotates then.
  for (const double prio : {500.0, 1.0}) {
    Pool p("");
    p.slots.push_back(busy_slot("slot1@host", kB, "SlotID = 1"));
    p.slots.push_back(slot("slot2@host", "SlotID = 2; Requirements = Slot1_RemoteUserPrio > 100000"));
    REQUIRE(p.accountant.set_priority(kB, prio));
    p.submit(kA, 1, 1);
    const CycleResult fast = p.run(), plain = p.run(false);
    INFO("b's priority " << prio << ", effective " << p.accountant.effective_priority(kB));
    CHECK(fast.matches.size() == (prio > 100 ? 1u : 0u));
    CHECK(fast.stats.annotated_slots >= 2);
    same(fast, plain);
  }
}

TEST_CASE("the cycle's layer over a chained slot ad copies neither the ad nor its parent",
          "[negotiation][issue29]") {
  const classad::ClassAd machine = ad("[ OpSys = \"LINUX\"; TotalCpus = 24; Memory = 2048 ]");
  classad::ClassAd s;
  s.set("Name", "slot1@m");
  s.set("Cpus", 1);
  s.chain_to(machine);
  classad::ClassAd layer = negotiation::ad_layer(s);
  // A copy sharing the slot's own attributes and its parent (a layer
  // chained to the slot would hold a flattened copy of both).
  CHECK(layer.shares_with(s));
  layer.set("RemoteUserPrio", 5.5);
  CHECK(layer.chained());
  CHECK(classad::evaluate_attr(layer, "RemoteUserPrio").as_real() == 5.5);
  CHECK(classad::evaluate_attr(layer, "TotalCpus").as_int() == 24);
  CHECK(s.find("RemoteUserPrio") == nullptr);
  CHECK(layer.size() == s.size() + 1);

  // Over an ad without a parent: chained to it; the ad is unchanged.
  const classad::ClassAd flat = machine;
  classad::ClassAd over = negotiation::ad_layer(flat);
  over.set("Memory", 4096);
  CHECK(over.chained());
  CHECK(classad::evaluate_attr(over, "Memory").as_int() == 4096);
  CHECK(classad::evaluate_attr(over, "OpSys").as_string() == "LINUX");
  CHECK(classad::evaluate_attr(flat, "Memory").as_int() == 2048);
}
