// Slot classes (slot_classes.h, slot_key.h): slots alike to every
// expression of the cycle are one class, and slots that differ in a value
// the cycle reads are never one.
#include "model/negotiation/slot_classes.h"

#include "model/negotiation/class_names.h"
#include "model/negotiation/slot_memo.h"
#include "tests/unit/negotiation/support.h"

using namespace cara;
using namespace cara::test;

namespace {

// A cycle's slot pool and slot classes over `p`'s slots and requests, with
// a memo or without (phases 1 and 3 of negotiation_cycle.h).
struct Classed {
  classad::EvalEnv env;
  negotiation::SlotMemo memo;
  negotiation::SlotPool pool;
  negotiation::ClassNames read;
  negotiation::SlotClasses classes;
  Classed(Pool& p, bool memo_on)
      : env(at_now()),
        pool(negotiation::pool_input(p.slots), p.policy, p.accountant, env, {}, memo_on ? &memo : nullptr),
        read(negotiation::class_names(p.policy, p.submitters)),
        classes(pool, read.names, read.match_names, true, {}, memo_on ? &memo : nullptr) {}
  static classad::EvalEnv at_now() {
    classad::EvalEnv e;
    e.now = kNow;
    return e;
  }
};

}  // namespace

TEST_CASE("slots are one class only when every value the cycle reads is the same", "[negotiation][issue30]") {
  // The job reads Tag. Values that look alike but are not the same value:
  // an integer and a real, a number and a string, strings of other case
  // or length (short ones are held in the ad's index, longer ones in the
  // expression), an expression and the literal it gives, absent.
  const std::vector<std::string> tags = {"Tag = 1",
                                         "Tag = 1.0",
                                         "Tag = \"1\"",
                                         "Tag = \"ab\"",
                                         "Tag = \"abc\"",
                                         "Tag = \"ABC\"",
                                         "Tag = \"abcdefghi\"",
                                         "Tag = \"abcdefghj\"",
                                         "Tag = strcat(\"a\", \"b\")",
                                         "",
                                         "Tag = true",
                                         "Tag = 1",
                                         "Tag = \"abcdefghi\"",
                                         "Tag = strcat(\"a\", \"b\")"};
  Pool p("");
  for (std::size_t i = 0; i < tags.size(); ++i)
    p.slots.push_back(slot("slot1@m" + std::to_string(i), tags[i]));
  p.submit("alice@example.org", 1, 1, "Requirements = TARGET.Tag =!= \"none\"");
  const auto r = p.run();
  // Fourteen slots, three of them repeating another's value.
  CHECK(r.stats.slot_classes == 11);
  CHECK(r.matches.size() == 1);
  // The plain algorithm: every slot a class of its own, the same match.
  const auto plain = p.run(false, false);
  CHECK(plain.stats.slot_classes == 14);
  REQUIRE(plain.matches.size() == 1);
  CHECK(plain.matches[0].slot_name == r.matches[0].slot_name);
}

TEST_CASE("partitionable slots that would split otherwise are never one class", "[negotiation][issue30]") {
  // The job reads neither the Consumption<R> expressions nor GPUs, but
  // they decide what a partitionable slot gives it: slots that differ in
  // an expression, or in the amount of a resource one of them names, are
  // of other classes; slots alike in both are one.
  const std::string plain = "PartitionableSlot = true; ConsumptionCpus = TARGET.RequestCpus; ";
  const std::vector<std::string> slots = {
      plain + "GPUs = 1; ConsumptionGPUs = 0",
      plain + "GPUs = 1; ConsumptionGPUs = 0",
      plain + "GPUs = 2; ConsumptionGPUs = 0",
      plain + "GPUs = 1; ConsumptionGPUs = TARGET.RequestGPUs",
      "PartitionableSlot = true; ConsumptionCpus = 2 * TARGET.RequestCpus; "
      "GPUs = 1; ConsumptionGPUs = 0",
      plain + "GPUs = 2"};
  Pool p("");
  for (std::size_t i = 0; i < slots.size(); ++i)
    p.slots.push_back(slot("slot1@m" + std::to_string(i), slots[i], 8));
  p.submit("alice@example.org", 1, 1);
  for (const bool memo_on : {true, false}) {
    INFO("memo " << memo_on);
    Classed c(p, memo_on);
    negotiation::SlotClasses& classes = c.classes;
    CHECK(classes.class_of(1) == classes.class_of(0));
    for (std::size_t i = 2; i < slots.size(); ++i) {
      INFO("slot " << i);
      CHECK(classes.class_of(i) != classes.class_of(0));
    }
    // The last reads GPUs through no Consumption<R>: it differs from the
    // third only there.
    CHECK(classes.class_of(5) != classes.class_of(2));
    CHECK(classes.size() == 5);
  }
}

TEST_CASE("a partitionable slot that gave resources away is classed by what it has left",
          "[negotiation][issue30]") {
  // Four machines alike, partitionable with a consumption policy. With a
  // memo, a carved slot is keyed by the part it was keyed with at the
  // start and its resources now (SlotClasses::rekey): the slots carved
  // alike share a class, the others do not, and a resource that is no
  // plain value any more is keyed whole.
  Pool p("");
  for (int m = 0; m < 4; ++m)
    p.slots.push_back(
        slot("slot1@m" + std::to_string(m),
             "PartitionableSlot = true; ConsumptionCpus = TARGET.RequestCpus; "
             "ConsumptionMemory = TARGET.RequestMemory; Requirements = TARGET.RequestCpus <= MY.Cpus",
             8));
  p.submit("alice@example.org", 1, 1);
  for (const bool memo_on : {true, false}) {
    INFO("memo " << memo_on);
    Classed c(p, memo_on);
    negotiation::SlotPool& pool = c.pool;
    negotiation::SlotClasses& classes = c.classes;
    REQUIRE(classes.size() == 1);
    const int start = classes.class_of(0);
    auto carve = [&](std::size_t i, const std::string& cpus) {
      classad::ClassAd& ad = pool.own(i);
      ad.insert("Cpus", *classad::parse_expression(cpus));
      ad.set("Memory", 1024.0);
      pool.slots()[i].weight = 4;
      return classes.reclassify(i);
    };
    const int four = carve(0, "4.0");
    CHECK(four != start);
    CHECK(classes.family_of(four) != classes.family_of(start));
    CHECK(carve(1, "4.0") == four);  // carved alike: one class
    const int two = carve(2, "2.0");
    CHECK(two != four);
    CHECK(two != start);
    const int expr = carve(3, "2.0 + 2");  // keyed whole
    CHECK(expr != four);
    CHECK(expr != start);
    // Slot 1 carved again, back to what slot 0 has.
    CHECK(carve(1, "2.0") == two);
    CHECK(classes.head(four) == 0);
  }
}
