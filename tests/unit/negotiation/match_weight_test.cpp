// The SlotWeight a match to a partitionable slot charges: the weight of the
// dynamic slot it would carve (user-priorities-and-negotiation, "slot
// weights"). Computed without copying the partitionable slot's ad when
// SlotWeight reads only the carved resources (issue 30, section 3), and
// once per request for slots that carve alike: the answers must be the
// copy's, whatever the expression.
#include "model/classad/eval.h"
#include "model/negotiation/slot_assessment.h"
#include "model/negotiation/slot_pool.h"
#include "tests/unit/negotiation/support.h"

using namespace cara;
using namespace cara::test;

namespace {

using Kind = negotiation::PoolSlot::CarvedWeight;

// The reference: the partitionable slot's ad with the carved resources set.
double copied_weight(const classad::ClassAd& pslot,
                     const std::vector<std::pair<std::string, double>>& carved) {
  classad::ClassAd d = pslot;
  for (const auto& [name, v] : carved) d.set(name, v);
  return negotiation::slot_weight(d, {});
}

struct Case {
  std::string slot_extra;
  Kind kind;
};

}  // namespace

TEST_CASE("a carved slot's weight without copying the partitionable slot's ad", "[negotiation][issue30]") {
  Pool p("");
  const classad::ClassAd job_ad = job("RequestCpus = 3; RequestMemory = 3000; RequestDisk = 5000");
  const std::vector<Case> cases = {
      {"", Kind::Resource},                                              // SlotWeight = Cpus (support.h)
      {"SlotWeight = Memory", Kind::Resource},                           // one resource, not Cpus
      {"SlotWeight = Cpus * 2 + Memory / 1000", Kind::Overlay},          // carved resources only
      {"SlotWeight = MY.Cpus + Disk / 5000", Kind::Overlay},             // scoped names too
      {"SlotWeight = Cpus * KFlops / 1000; KFlops = 2000", Kind::Copy},  // reads the slot beyond them
      {"SlotWeight = ifThenElse(Cpus > 2, 10, 1)", Kind::Overlay},       // functions
  };
  for (const Case& c : cases) {
    INFO(c.slot_extra);
    p.slots = {slot("slot1@host", "PartitionableSlot = true; " + c.slot_extra, 8)};
    classad::EvalEnv env;
    negotiation::SlotPool pool(p.slots, p.policy, p.accountant, env);
    const negotiation::PoolSlot& s = pool.slots()[0];
    CHECK(s.carved_weight == c.kind);
    CHECK(negotiation::match_weight(s, job_ad, p.policy, env) ==
          Approx(copied_weight(p.slots[0], {{"Cpus", 3}, {"Memory", 3000}, {"Disk", 5000}})));
  }

  SECTION("a resource the job does not request stays the slot's") {
    p.slots = {slot("slot1@host", "PartitionableSlot = true; SlotWeight = Memory / 1024", 8)};
    classad::EvalEnv env;
    negotiation::SlotPool pool(p.slots, p.policy, p.accountant, env);
    const classad::ClassAd no_memory = ad("[MyType = \"Job\"; RequestCpus = 2; Requirements = true]");
    CHECK(pool.slots()[0].carved_weight == Kind::Overlay);
    CHECK(pool.slots()[0].weight_signature < 0);  // the weight depends on the slot
    CHECK(negotiation::match_weight(pool.slots()[0], no_memory, p.policy, env) == Approx(2.0));
  }

  SECTION("a consumption policy: the Consumption<R> amounts are carved") {
    p.slots = {slot("slot1@a",
                    "PartitionableSlot = true; SlotWeight = Cpus + Memory / 2048; "
                    "ConsumptionCpus = quantize(TARGET.RequestCpus, {2}); "
                    "ConsumptionMemory = quantize(TARGET.RequestMemory, {1024}); "
                    "ConsumptionDisk = TARGET.RequestDisk",
                    8),
               slot("slot1@b",
                    "PartitionableSlot = true; SlotWeight = Cpus + Memory / 2048; "
                    "ConsumptionCpus = quantize(TARGET.RequestCpus, {2}); "
                    "ConsumptionMemory = quantize(TARGET.RequestMemory, {1024}); "
                    "ConsumptionDisk = TARGET.RequestDisk",
                    16),
               slot("slot1@c",
                    "PartitionableSlot = true; ConsumptionCpus = MY.Cpus; "
                    "ConsumptionMemory = TARGET.RequestMemory; ConsumptionDisk = TARGET.RequestDisk",
                    4)};
    classad::EvalEnv env;
    negotiation::SlotPool pool(p.slots, p.policy, p.accountant, env);
    const auto& a = pool.slots()[0];
    const auto& b = pool.slots()[1];
    const auto& c = pool.slots()[2];
    // Cpus 4 (3 rounded up to 2s), Memory 3072: 4 + 1.5.
    CHECK(negotiation::match_weight(a, job_ad, p.policy, env) == Approx(5.5));
    CHECK(negotiation::match_weight(b, job_ad, p.policy, env) == Approx(5.5));
    CHECK(a.weight_signature >= 0);
    CHECK(a.weight_signature == b.weight_signature);  // they carve alike for every job
    CHECK(c.weight_signature < 0);                    // ConsumptionCpus reads the slot
    CHECK(negotiation::match_weight(c, job_ad, p.policy, env) == Approx(4.0));  // the whole slot's Cpus
  }
}
