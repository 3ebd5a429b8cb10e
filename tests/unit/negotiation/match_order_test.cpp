// Match before limits (issue 30, part 1): HTCondor's matchmakingAlgorithm
// checks the match and the preemption rules first and SubmitterLimitPermits
// last, per candidate, skipping only that candidate; a limit is the
// rejection reason only when it refused a slot the job matched, and below
// PREEMPTION_REQUIREMENTS and insufficient priority on the ladder
// (central-manager-configuration, "The Negotiation Cycle").
#include "support.h"

using namespace cara;
using namespace cara::test;
using negotiation::MatchReason;

namespace {

const std::string kAlice = "alice@example.org", kBob = "bob@example.org";
const std::string kGroupAlice = "group_a.alice@example.org";

// The two idle slots: WINDOWS with 8 cpus, LINUX with 1.
void two_slots(Pool& p) {
  p.slots.push_back(slot("slot1@win", "OpSys = \"WINDOWS\"", 8));
  p.slots.push_back(slot("slot1@lin", "OpSys = \"LINUX\"", 1));
}

std::map<std::string, std::string> reasons(const negotiation::CycleResult& r) {
  std::map<std::string, std::string> out;
  for (const auto& rej : r.rejections)
    if (rej.job_id)
      out[std::to_string(rej.job_id->cluster) + "." + std::to_string(rej.job_id->proc)] = rej.reason;
  return out;
}

}  // namespace

TEST_CASE("a request no slot matches does not stop the submitter's later requests at its limit",
          "[negotiation][issue30]") {
  SECTION("ceiling 4") {
    Pool p("");
    two_slots(p);
    REQUIRE(p.accountant.set_ceiling(kAlice, 4, std::nullopt, kNow));
    p.submit(kAlice, 1, 1, "JobPrio = 10; Requirements = TARGET.OpSys == \"SOLARIS\"");
    p.submit(kAlice, 2, 1, "Requirements = TARGET.OpSys == \"LINUX\"");
    for (bool classes : {true, false}) {
      const auto r = p.run(classes);
      REQUIRE(r.matches.size() == 1);
      CHECK(r.matches[0].slot_name == "slot1@lin");
      CHECK(r.matches[0].job_id == schedd::JobId{2, 0});
      CHECK(reasons(r) == std::map<std::string, std::string>{{"1.0", "no match found"}});
    }
  }
  SECTION("group quota 4") {
    Pool p("GROUP_NAMES = group_a\nGROUP_QUOTA_group_a = 4\nGROUP_ACCEPT_SURPLUS = False\n");
    two_slots(p);
    p.submit(kGroupAlice, 1, 1, "JobPrio = 10; Requirements = TARGET.OpSys == \"SOLARIS\"");
    p.submit(kGroupAlice, 2, 1, "Requirements = TARGET.OpSys == \"LINUX\"");
    for (bool classes : {true, false}) {
      const auto r = p.run(classes);
      REQUIRE(r.matches.size() == 1);
      CHECK(r.matches[0].slot_name == "slot1@lin");
      CHECK(reasons(r) == std::map<std::string, std::string>{{"1.0", "no match found"}});
    }
  }
}

TEST_CASE("a request a limit refused is rejected for it, and the next request is still tried",
          "[negotiation][issue30]") {
  Pool p("");
  two_slots(p);
  REQUIRE(p.accountant.set_ceiling(kAlice, 4, std::nullopt, kNow));
  p.submit(kAlice, 1, 1, "JobPrio = 10; Requirements = TARGET.OpSys == \"WINDOWS\"");
  p.submit(kAlice, 2, 1, "Requirements = TARGET.OpSys == \"LINUX\"");
  for (bool classes : {true, false}) {
    const auto r = p.run(classes);
    REQUIRE(r.matches.size() == 1);
    CHECK(r.matches[0].slot_name == "slot1@lin");
    CHECK(reasons(r) == std::map<std::string, std::string>{{"1.0", "submitter limit exceeded"}});
  }

  Pool g("GROUP_NAMES = group_a\nGROUP_QUOTA_group_a = 4\nGROUP_ACCEPT_SURPLUS = False\n");
  two_slots(g);
  g.submit(kGroupAlice, 1, 1, "JobPrio = 10; Requirements = TARGET.OpSys == \"WINDOWS\"");
  g.submit(kGroupAlice, 2, 1, "Requirements = TARGET.OpSys == \"LINUX\"");
  const auto r = g.run();
  REQUIRE(r.matches.size() == 1);
  CHECK(r.matches[0].slot_name == "slot1@lin");
  CHECK(reasons(r) == std::map<std::string, std::string>{{"1.0", "group quota exceeded"}});
}

TEST_CASE("the rejection reason follows HTCondor's ladder", "[negotiation][issue30]") {
  // Each row: what the one request meets, and the reason it gets.
  SECTION("nothing matches: no match found, whatever the limit") {
    Pool p("");
    two_slots(p);
    REQUIRE(p.accountant.set_ceiling(kAlice, 4, std::nullopt, kNow));
    p.submit(kAlice, 1, 1, "Requirements = TARGET.OpSys == \"SOLARIS\"");
    CHECK(reasons(p.run()) == std::map<std::string, std::string>{{"1.0", "no match found"}});
  }
  SECTION("only a slot over the limit matches: submitter limit exceeded") {
    Pool p("");
    two_slots(p);
    REQUIRE(p.accountant.set_ceiling(kAlice, 4, std::nullopt, kNow));
    p.submit(kAlice, 1, 1, "Requirements = TARGET.OpSys == \"WINDOWS\"");
    CHECK(reasons(p.run()) == std::map<std::string, std::string>{{"1.0", "submitter limit exceeded"}});
  }
  SECTION("a busy slot PREEMPTION_REQUIREMENTS protects goes above the limit") {
    Pool p("");
    two_slots(p);
    p.slots.push_back(busy_slot("slot2@lin", kBob, "OpSys = \"LINUX\"; Cpus = 2"));
    REQUIRE(p.accountant.set_priority(kBob, 100));
    REQUIRE(p.accountant.set_ceiling(kAlice, 4, std::nullopt, kNow));
    p.submit(kAlice, 1, 2, "Requirements = TARGET.OpSys =!= \"SOLARIS\"");
    const auto r = p.run();
    REQUIRE(r.matches.size() == 1);
    CHECK(r.matches[0].slot_name == "slot1@lin");
    CHECK(reasons(r) == std::map<std::string, std::string>{{"1.1", "PREEMPTION_REQUIREMENTS == False"}});
  }
  SECTION("insufficient priority goes above the limit") {
    Pool p("PREEMPTION_REQUIREMENTS = True\n");
    two_slots(p);
    p.slots.push_back(busy_slot("slot2@lin", kBob, "OpSys = \"LINUX\"; Cpus = 2"));
    REQUIRE(p.accountant.set_priority(kAlice, 100));  // worse than bob's
    REQUIRE(p.accountant.set_ceiling(kAlice, 4, std::nullopt, kNow));
    p.submit(kAlice, 1, 2, "Requirements = TARGET.OpSys =!= \"SOLARIS\"");
    const auto r = p.run();
    REQUIRE(r.matches.size() == 1);
    CHECK(reasons(r) == std::map<std::string, std::string>{{"1.1", "insufficient priority"}});
  }
  SECTION("a concurrency limit goes above everything") {
    Pool p("XSW_LIMIT = 0\n");
    two_slots(p);
    REQUIRE(p.accountant.set_ceiling(kAlice, 4, std::nullopt, kNow));
    p.submit(kAlice, 1, 1, "ConcurrencyLimits = \"XSW\"; Requirements = TARGET.OpSys =!= \"SOLARIS\"");
    const auto r = p.run();
    CHECK(r.matches.empty());
    CHECK(reasons(r) == std::map<std::string, std::string>{{"1.0", "concurrency limit xsw reached"}});
  }
  SECTION("only slots of the submitter's own jobs match") {
    Pool p("");
    p.slots.push_back(busy_slot("slot1@lin", kAlice, "OpSys = \"LINUX\""));
    p.slots.push_back(slot("slot1@win", "OpSys = \"WINDOWS\"", 8));  // room in her slice
    p.submit(kAlice, 1, 1, "Requirements = TARGET.OpSys == \"LINUX\"");
    CHECK(reasons(p.run()) == std::map<std::string, std::string>{
                                  {"1.0", "no match found (slots that match run this submitter's jobs)"}});
  }
}

TEST_CASE("busy slots whose Rank reads nothing of the job are left out unevaluated, rank preemption works",
          "[negotiation][issue30]") {
  SECTION("Rank = KFlops / 1000 at CurrentRank: never taken, never evaluated, and the reason says why") {
    Pool p("");
    for (int i = 1; i <= 40; ++i) {
      const int kflops = 1000 * i;
      p.slots.push_back(busy_slot("slot1@m" + std::to_string(i), kBob,
                                  "KFlops = " + std::to_string(kflops) + "; Rank = KFlops / 1000",
                                  static_cast<double>(i)));
    }
    REQUIRE(p.accountant.set_priority(kBob, 100));
    p.submit(kAlice, 1, 1);
    for (bool classes : {true, false}) {
      const auto r = p.run(classes);
      CHECK(r.matches.empty());
      CHECK(r.stats.slot_evaluations == 0);
      CHECK(reasons(r) == std::map<std::string, std::string>{{"1.0", "PREEMPTION_REQUIREMENTS == False"}});
    }
  }
  SECTION("the same Rank above CurrentRank prefers any job: taken by Rank") {
    Pool p("");
    p.slots.push_back(busy_slot("slot1@m1", kBob, "KFlops = 5000; Rank = KFlops / 1000", 2));
    p.submit(kAlice, 1, 1);
    const auto r = p.run();
    REQUIRE(r.matches.size() == 1);
    CHECK(r.matches[0].reason == MatchReason::Rank);
    CHECK(r.matches[0].preempts == kBob);
  }
  SECTION("a Rank that reads the job still preempts the job it prefers") {
    Pool p("");
    p.slots.push_back(busy_slot("slot1@m1", kBob, "KFlops = 5000; Rank = KFlops / 1000", 5));
    p.slots.push_back(busy_slot("slot1@m2", kBob, "Rank = TARGET.Department == \"physics\""));
    REQUIRE(p.accountant.set_priority(kBob, 100));
    p.submit(kAlice, 1, 2, "Department = \"physics\"");
    const auto r = p.run();
    REQUIRE(r.matches.size() == 1);
    CHECK(r.matches[0].slot_name == "slot1@m2");
    CHECK(r.matches[0].reason == MatchReason::Rank);
    CHECK(reasons(r) == std::map<std::string, std::string>{{"1.1", "PREEMPTION_REQUIREMENTS == False"}});
  }
  SECTION("with PREEMPTION_REQUIREMENTS true such a slot is taken by priority") {
    Pool p("PREEMPTION_REQUIREMENTS = True\n");
    p.slots.push_back(busy_slot("slot1@m1", kBob, "KFlops = 5000; Rank = KFlops / 1000", 5));
    REQUIRE(p.accountant.set_priority(kBob, 100));
    p.submit(kAlice, 1, 1);
    const auto r = p.run();
    REQUIRE(r.matches.size() == 1);
    CHECK(r.matches[0].reason == MatchReason::Priority);
  }
}
