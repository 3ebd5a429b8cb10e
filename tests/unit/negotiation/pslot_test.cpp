// ALLOW_PSLOT_PREEMPTION (policy-configuration-ep-ap, "pslot preemption"):
// a partitionable slot and its dynamic slots are looked at as a group, the
// dynamic slots' resources added one at a time, lowest CurrentRank first,
// until the job fits; dynamic slots are never preempted directly.
#include "tests/unit/negotiation/support.h"

using namespace cara;
using namespace cara::test;
using negotiation::MatchReason;

namespace {

const std::string kA = "a@example.org", kB = "b@example.org", kC = "c@example.org";

// slot1@host, partitionable, with `cpus` cores left.
classad::ClassAd pslot(int cpus) {
  return slot(
      "slot1@host",
      "SlotID = 1; PartitionableSlot = true; Memory = 1024; Requirements = TARGET.RequestCpus <= MY.Cpus",
      cpus);
}

// slot1_<n>@host, carved from slot1@host, running a job of `user`.
classad::ClassAd dslot(int n, const std::string& user, double current_rank = 0,
                       const std::string& extra = "") {
  return slot("slot1_" + std::to_string(n) + "@host",
              "SlotID = 1; DynamicSlot = true; Memory = 512; State = \"Claimed\"; Activity = \"Busy\"; "
              "RemoteUser = \"" +
                  user + "\"; RemoteOwner = \"" + user + "\"; CurrentRank = " + std::to_string(current_rank) +
                  "; " + extra);
}

const char* kOn = "ALLOW_PSLOT_PREEMPTION = True\nPREEMPTION_REQUIREMENTS = True\n";

}  // namespace

TEST_CASE("pslot preemption: dynamic slots' resources join the partitionable slot's until the job fits",
          "[negotiation][spec]") {
  // The machine RANK is 5 for any job: the running jobs at CurrentRank 1
  // and 3 may go by Rank, the one at 5 only by priority.
  Pool p(kOn);
  p.slots.push_back(pslot(1));
  p.slots.push_back(dslot(1, kB, 5, "Rank = 5"));
  p.slots.push_back(dslot(2, kB, 1, "Rank = 5"));  // lowest CurrentRank: considered first
  p.slots.push_back(dslot(3, kB, 3, "Rank = 5"));
  REQUIRE(p.accountant.set_priority(kB, 100));
  p.submit(kA, 1, 1, "RequestCpus = 3; Requirements = TARGET.Cpus >= RequestCpus");
  const auto r = p.run();
  REQUIRE(r.matches.size() == 1);
  const auto& m = r.matches[0];
  CHECK(m.slot_name == "slot1@host");
  CHECK(m.reason == MatchReason::Rank);
  CHECK(m.preempts == kB);
  // 1 free core + slot1_2 (CurrentRank 1) + slot1_3 (CurrentRank 3) = 3.
  CHECK(m.victim_names == std::vector<std::string>{"slot1_2@host", "slot1_3@host"});
  CHECK(m.weight == 3);

  SECTION("without ALLOW_PSLOT_PREEMPTION the job does not fit anywhere") {
    Pool off("PREEMPTION_REQUIREMENTS = True\n");
    off.slots = p.slots;
    REQUIRE(off.accountant.set_priority(kB, 100));
    off.submit(kA, 1, 1, "RequestCpus = 3; Requirements = TARGET.Cpus >= RequestCpus");
    CHECK(off.run().matches.empty());
  }
  SECTION("four cores: the one at CurrentRank 5 goes too, by priority") {
    Pool more(kOn);
    more.slots = p.slots;
    REQUIRE(more.accountant.set_priority(kB, 100));
    more.submit(kA, 1, 1, "RequestCpus = 4; Requirements = TARGET.Cpus >= RequestCpus");
    const auto all = more.run();
    REQUIRE(all.matches.size() == 1);
    CHECK(all.matches[0].reason == MatchReason::Priority);
    CHECK(all.matches[0].victim_names ==
          std::vector<std::string>{"slot1_2@host", "slot1_3@host", "slot1_1@host"});
  }
}

TEST_CASE("pslot preemption: dynamic slots are not preempted directly", "[negotiation][spec]") {
  // A one-core job: without pslot preemption it evicts a dynamic slot;
  // with it, the match is to the partitionable slot, evicting one.
  Pool off("PREEMPTION_REQUIREMENTS = True\n");
  off.slots = {pslot(0), dslot(1, kB)};
  REQUIRE(off.accountant.set_priority(kB, 100));
  off.submit(kA, 1, 1);
  const auto direct = off.run();
  REQUIRE(direct.matches.size() == 1);
  CHECK(direct.matches[0].slot_name == "slot1_1@host");
  CHECK(direct.matches[0].victim_names.empty());

  Pool on(kOn);
  on.slots = off.slots;
  REQUIRE(on.accountant.set_priority(kB, 100));
  on.submit(kA, 1, 1);
  const auto grouped = on.run();
  REQUIRE(grouped.matches.size() == 1);
  CHECK(grouped.matches[0].slot_name == "slot1@host");
  CHECK(grouped.matches[0].reason == MatchReason::Priority);
  CHECK(grouped.matches[0].victim_names == std::vector<std::string>{"slot1_1@host"});
  CHECK(grouped.stats.trimmed_slots == 1);  // the dynamic slot is not offered on its own
}

TEST_CASE("pslot preemption: the usual rules pick the victims, retirement protects a dynamic slot",
          "[negotiation][spec]") {
  const std::string retiring = "MaxJobRetirementTime = 3600; JobStart = " + std::to_string(kNow - 600);
  SECTION("a better user's job and one in its retirement time are passed over") {
    Pool p(std::string(kOn) + "NEGOTIATOR_CONSIDER_EARLY_PREEMPTION = True\n");
    p.slots = {pslot(0), dslot(1, kC), dslot(2, kB, 0, retiring), dslot(3, kB, 0)};
    REQUIRE(p.accountant.set_priority(kB, 100));
    REQUIRE(p.accountant.set_priority(kC, 0.5));  // better than a's 1: not preemptable
    REQUIRE(p.accountant.set_priority(kA, 1));
    p.submit(kA, 1, 1);
    const auto r = p.run();
    REQUIRE(r.matches.size() == 1);
    CHECK(r.matches[0].victim_names == std::vector<std::string>{"slot1_3@host"});
  }
  SECTION("no dynamic slot may go: no match") {
    Pool p(kOn);
    p.slots = {pslot(0), dslot(1, kB, 0, retiring)};
    REQUIRE(p.accountant.set_priority(kB, 100));
    p.submit(kA, 1, 1);
    CHECK(p.run().matches.empty());
  }
  SECTION("a dynamic slot whose Rank prefers the job goes by Rank, without PREEMPTION_REQUIREMENTS") {
    Pool p("ALLOW_PSLOT_PREEMPTION = True\n");
    p.slots = {pslot(0), dslot(1, kB, 0, "Rank = TARGET.Department =?= \"physics\"")};
    p.submit(kA, 1, 1, "Department = \"physics\"");
    const auto r = p.run();
    REQUIRE(r.matches.size() == 1);
    CHECK(r.matches[0].reason == MatchReason::Rank);
    CHECK(r.matches[0].victim_names == std::vector<std::string>{"slot1_1@host"});
  }
}
