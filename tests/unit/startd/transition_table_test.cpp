// The transition table: one row per transition of the spec's diagrams
// (letters A-P for states, numbers 1-37 for state/activity pairs), each a
// configuration and a drive through simulated time that must take it. A
// last check requires every label of the spec to be covered.
#include <functional>
#include <set>

#include "tests/unit/startd/slot_harness.h"

using namespace cara;
using namespace cara::startd;
using namespace cara::startd::test;

namespace {

const std::string kJob = "[ Owner = \"alice\"; JobUniverse = 5 ]";

struct Row {
  std::string label;  // as Slot labels it: "A/1", "H/13", "33"
  std::string config;
  std::function<void(SlotHarness&)> drive;
};

const std::string kDesktop = "use POLICY : Desktop\n";
const std::string kBackfill = "ENABLE_BACKFILL = True\nSTART_BACKFILL = True\n";

void busy(SlotHarness& h) {
  h.run(kJob);
}
void owner_types(SlotHarness& h) {
  h.sensors("KeyboardIdle = 1\n", 10);
}

const std::vector<Row>& table() {
  static const std::vector<Row> rows = {
      {"A/1", kDesktop, [](SlotHarness&) {}},
      {"B/2", kDesktop, owner_types},
      {"C/6", "", [](SlotHarness& h) { h.send(MatchNotified{"m"}); }},
      {"D/5", "", [](SlotHarness& h) { h.claim(kJob); }},
      {"E/7", kBackfill, [](SlotHarness&) {}},
      {"F/8", "MATCH_TIMEOUT = 10\n",
       [](SlotHarness& h) {
         h.send(MatchNotified{"m"});
         h.tick(10);
       }},
      {"G/9", "",
       [](SlotHarness& h) {
         h.send(MatchNotified{"claim1"});
         h.claim(kJob);
       }},
      {"H/10", "",
       [](SlotHarness& h) {
         h.claim(kJob);
         h.send(ReleaseClaim{"claim1"});
       }},
      {"H/13", "PREEMPT = KeyboardIdle < 60\nMAXJOBRETIREMENTTIME = 100\n",
       [](SlotHarness& h) {
         busy(h);
         owner_types(h);
       }},
      {"I/23", "RANK = Owner == \"bob\"\nWANT_VACATE = True\n",
       [](SlotHarness& h) {
         busy(h);
         h.claim("[ Owner = \"bob\" ]", "c2");
         h.send(JobExited{"claim1"});
       }},
      {"I/24", "",
       [](SlotHarness& h) {
         busy(h);
         h.claim("[ Owner = \"bob\" ]", "c2", true);
         h.send(JobExited{"claim1"});
       }},
      {"J/22", "",
       [](SlotHarness& h) {
         h.claim(kJob);
         h.send(Vacate{});
       }},
      {"J/25", "",
       [](SlotHarness& h) {
         busy(h);
         h.send(Vacate{true});
         h.send(JobExited{"claim1"});
       }},
      {"K/28", kBackfill + "EVICT_BACKFILL = KeyboardIdle < 60\n",
       [](SlotHarness& h) {
         h.send(BackfillStarted{});
         owner_types(h);
       }},
      {"K/30", kBackfill,
       [](SlotHarness& h) {
         h.send(BackfillStarted{});
         h.send(Vacate{});
         h.send(BackfillExited{});
       }},
      {"L/32", kBackfill,
       [](SlotHarness& h) {
         h.send(MatchNotified{"m"});
         h.send(BackfillExited{});
       }},
      {"M/31", kBackfill,
       [](SlotHarness& h) {
         h.claim(kJob);
         h.send(BackfillExited{});
       }},
      {"N/36", "IS_OWNER = True\n", [](SlotHarness& h) { h.send(Drain{}); }},
      {"O/34", "",
       [](SlotHarness& h) {
         h.send(Drain{});
         h.send(CancelDrain{});
       }},
      {"O/35", "",
       [](SlotHarness& h) {
         h.send(Drain{});
         h.send(AllSlotsDrained{});
         h.send(CancelDrain{});
       }},
      {"P/37", "", [](SlotHarness& h) { h.send(Drain{}); }},
      {"3", "RUNBENCHMARKS = True\n", [](SlotHarness&) {}},
      {"4", "RUNBENCHMARKS = LastBenchmark == 0\n", [](SlotHarness& h) { h.send(BenchmarksDone{}); }},
      {"11", "", busy},
      {"12", "CLAIM_WORKLIFE = -1\n",
       [](SlotHarness& h) {
         busy(h);
         h.send(JobExited{"claim1"});
       }},
      {"14", "WANT_SUSPEND = True\nSUSPEND = KeyboardIdle < 60\nCONTINUE = False\n",
       [](SlotHarness& h) {
         busy(h);
         owner_types(h);
       }},
      {"15", "WANT_SUSPEND = True\nSUSPEND = KeyboardIdle < 60\nCONTINUE = KeyboardIdle > 600\n",
       [](SlotHarness& h) {
         busy(h);
         owner_types(h);
         h.sensors("KeyboardIdle = 1000\n", 10);
       }},
      {"16",
       "WANT_SUSPEND = True\nSUSPEND = KeyboardIdle < 60\nCONTINUE = False\nPREEMPT = ConsoleIdle < 60\n"
       "MAXJOBRETIREMENTTIME = 1000\n",
       [](SlotHarness& h) {
         busy(h);
         owner_types(h);
         h.sensors("ConsoleIdle = 1\n", 10);
       }},
      {"17",
       "WANT_SUSPEND = True\nSUSPEND = KeyboardIdle < 60\nCONTINUE = False\nMAXJOBRETIREMENTTIME = Limit\n",
       [](SlotHarness& h) {
         h.sensors("Limit = 1000\n");
         busy(h);
         h.send(Shutdown{}, 10);
         owner_types(h);
         h.sensors("Limit = 0\n", 10);
       }},
      {"18", "PREEMPT = KeyboardIdle < 60\n",
       [](SlotHarness& h) {
         busy(h);
         owner_types(h);
       }},
      {"19", "RANK = Owner == \"bob\"\nMAXJOBRETIREMENTTIME = 1000\n",
       [](SlotHarness& h) {
         busy(h);
         h.claim("[ Owner = \"bob\" ]", "c2");
         h.send(PreemptingClaimWithdrawn{});
       }},
      {"20",
       "PREEMPT = KeyboardIdle < 60\nMAXJOBRETIREMENTTIME = 1000\nWANT_SUSPEND = ConsoleIdle < 60\n"
       "SUSPEND = ConsoleIdle < 60\nCONTINUE = False\n",
       [](SlotHarness& h) {
         busy(h);
         owner_types(h);
         h.sensors("ConsoleIdle = 1\n", 10);
       }},
      {"21", "PREEMPT = KeyboardIdle < 60\nWANT_VACATE = True\nKILL = True\n",
       [](SlotHarness& h) {
         busy(h);
         owner_types(h);
       }},
      {"26", kBackfill, [](SlotHarness& h) { h.send(BackfillStarted{}); }},
      {"27", kBackfill,
       [](SlotHarness& h) {
         h.send(BackfillStarted{});
         h.send(BackfillExited{});
       }},
      {"29", kBackfill,
       [](SlotHarness& h) {
         h.send(Vacate{});
         h.send(BackfillExited{});
       }},
      {"33", "",
       [](SlotHarness& h) {
         h.send(Drain{});
         h.send(AllSlotsDrained{});
       }},
  };
  return rows;
}

}  // namespace

TEST_CASE("the transition table: each row takes its transition", "[startd][slot][table]") {
  for (const Row& row : table()) {
    INFO("transition " << row.label << " with:\n" << row.config);
    SlotHarness h(row.config);
    row.drive(h);
    std::string taken;
    for (const auto& t : h.history()) taken += t + " ";
    INFO("taken: " << taken);
    CHECK(std::find(h.history().begin(), h.history().end(), row.label) != h.history().end());
  }
}

TEST_CASE("the transition table covers every letter and number of the spec", "[startd][slot][table]") {
  std::set<std::string> covered;
  for (const Row& row : table()) {
    std::string label = row.label;
    std::size_t slash = label.find('/');
    covered.insert(label.substr(0, slash));
    if (slash != std::string::npos) covered.insert(label.substr(slash + 1));
  }
  for (char letter = 'A'; letter <= 'P'; ++letter) {
    INFO("transition " << letter);
    CHECK(covered.count(std::string(1, letter)) == 1);
  }
  for (int number = 1; number <= 37; ++number) {
    INFO("transition " << number);
    CHECK(covered.count(std::to_string(number)) == 1);
  }
}
