// What a negotiator remembers of unchanged slot ads from one cycle to the
// next (model/negotiation/slot_memo.h, issues 29 and 30): only what the ad
// alone decides. What reads the clock, what depends on the cycle's time
// (MaxJobRetirementTime) and on the policy is decided anew.
#include "model/negotiation/slot_memo.h"

#include <algorithm>

#include "tests/unit/negotiation/support.h"

using namespace cara;
using namespace cara::test;

TEST_CASE("an unchanged slot ad is described once, a changed one again", "[negotiation][issue29]") {
  Pool p("");
  idle_slots(p, 4);
  p.submit("alice@example.org", 1, 1);
  negotiation::SlotMemo memo;
  const auto first = p.run(true, true, 0, &memo);
  CHECK(first.stats.described_slots == 4);
  CHECK(first.matches.size() == 1);
  const auto second = p.run(true, true, 0, &memo);
  CHECK(second.stats.described_slots == 0);
  CHECK(second.matches.size() == 1);
  CHECK(second.matches[0].slot_name == first.matches[0].slot_name);
  CHECK(memo.size() == 4);
  // slot1 claimed meanwhile: a new ad, described; the memo forgets the
  // old one.
  p.slots[0] = busy_slot("slot1@host", "bob@example.org");
  const auto third = p.run(true, true, 0, &memo);
  CHECK(third.stats.described_slots == 1);
  CHECK(memo.size() == 4);
  REQUIRE(third.matches.size() == 1);
  CHECK(third.matches[0].slot_name == "slot2@host");
  // A slot gone is forgotten.
  p.slots.pop_back();
  (void)p.run(true, true, 0, &memo);
  CHECK(memo.size() == 3);
}

TEST_CASE("a slot constraint that reads the clock is evaluated every cycle", "[negotiation][issue29]") {
  Pool p("NEGOTIATOR_SLOT_CONSTRAINT = time() < " + std::to_string(kNow + 100) + "\n");
  idle_slots(p, 1);
  p.submit("alice@example.org", 1, 1);
  negotiation::SlotMemo memo;
  CHECK(p.run(true, true, 0, &memo, kNow).matches.size() == 1);
  const auto later = p.run(true, true, 0, &memo, kNow + 200);
  CHECK(later.matches.empty());
  CHECK(later.stats.described_slots == 1);
  CHECK(later.stats.trimmed_slots == 1);
}

TEST_CASE("a remembered busy slot leaves its job's retirement when the time comes",
          "[negotiation][issue29]") {
  // PREEMPTION_REQUIREMENTS lets alice (priority 1) take bob's (1000)
  // slot, but not while bob's job is within its MaxJobRetirementTime
  // (NEGOTIATOR_CONSIDER_EARLY_PREEMPTION is False).
  Pool p("PREEMPTION_REQUIREMENTS = RemoteUserPrio > SubmitterUserPrio * 1.2\n");
  REQUIRE(p.accountant.set_priority("alice@example.org", 1));
  REQUIRE(p.accountant.set_priority("bob@example.org", 1000));
  p.slots.push_back(slot("slot1@host",
                         "State = \"Claimed\"; Activity = \"Busy\"; RemoteUser = \"bob@example.org\"; "
                         "CurrentRank = 0; MaxJobRetirementTime = 600; JobStart = " +
                             std::to_string(kNow - 100)));
  p.submit("alice@example.org", 1, 1);
  negotiation::SlotMemo memo;
  CHECK(p.run(true, true, 0, &memo, kNow).matches.empty());
  const auto later = p.run(true, true, 0, &memo, kNow + 600);
  CHECK(later.stats.described_slots == 0);  // the same ad, remembered
  REQUIRE(later.matches.size() == 1);
  CHECK(later.matches[0].preempts.has_value());
}

TEST_CASE("a new slot constraint forgets what the memo held", "[negotiation][issue29]") {
  Pool one("NEGOTIATOR_SLOT_CONSTRAINT = SlotID == 1\n"), two("NEGOTIATOR_SLOT_CONSTRAINT = SlotID == 2\n");
  for (int id = 1; id <= 2; ++id)
    one.slots.push_back(slot("slot" + std::to_string(id) + "@host", "SlotID = " + std::to_string(id)));
  two.slots = one.slots;  // the very same ads
  one.submit("alice@example.org", 1, 1);
  two.submit("alice@example.org", 1, 1);
  negotiation::SlotMemo memo;
  const auto a = one.run(true, true, 0, &memo);
  REQUIRE(a.matches.size() == 1);
  CHECK(a.matches[0].slot_name == "slot1@host");
  const auto b = two.run(true, true, 0, &memo);
  CHECK(b.stats.described_slots == 2);
  REQUIRE(b.matches.size() == 1);
  CHECK(b.matches[0].slot_name == "slot2@host");
}

TEST_CASE("one ad given twice in a cycle is described once per copy", "[negotiation][issue29]") {
  Pool p("");
  p.slots.push_back(slot("slot1@host"));
  p.slots.push_back(p.slots.front());  // the same ad, twice
  p.submit("alice@example.org", 1, 2);
  negotiation::SlotMemo memo;
  const auto first = p.run(true, true, 0, &memo), second = p.run(true, true, 0, &memo);
  CHECK(first.matches.size() == 2);
  CHECK(second.matches.size() == 2);
  CHECK(memo.size() == 1);
}

TEST_CASE("the class key names are kept while cycles ask for the same names", "[negotiation][issue29]") {
  negotiation::SlotMemo memo;
  const classad::NameSet names{"KFlops", "SlotID"}, match{"OpSys", "HasDocker"};
  // How often `name` is in `list` (symbols ignore case).
  auto count = [](const std::vector<classad::Symbol>& list, const char* name) {
    return std::count(list.begin(), list.end(), classad::intern(name));
  };
  const negotiation::ClassKeyNames fresh = negotiation::class_key_names(names, match);
  const negotiation::ClassKeyNames& kept = memo.key_names(names, match);
  CHECK(kept.names == fresh.names);
  CHECK(kept.match == fresh.match);
  // What every match reads is in both; the class's names hold the family's.
  CHECK(count(kept.match, "HasDocker") == 1);
  CHECK(count(kept.match, "SlotWeight") == 1);
  CHECK(count(kept.names, "KFlops") == 1);
  CHECK(count(kept.names, "OpSys") == 1);
  CHECK(count(kept.match, "KFlops") == 0);
  // Other names: answered anew, not the kept ones.
  const classad::NameSet other_match{"Arch"};
  const negotiation::ClassKeyNames& next = memo.key_names(names, other_match);
  CHECK(count(next.match, "Arch") == 1);
  CHECK(count(next.match, "HasDocker") == 0);
  CHECK(next.names == negotiation::class_key_names(names, other_match).names);
}
