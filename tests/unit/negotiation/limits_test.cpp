// Concurrency limits (central-manager-configuration, "Concurrency
// Limits"), partitionable slots under a consumption policy, and the slot
// equivalence classes checked against the plain algorithm.
#include <random>

#include "model/negotiation/concurrency_limits.h"
#include "support.h"

using namespace cara;
using namespace cara::test;
using namespace cara::negotiation;

namespace {

const std::string kA = "a@example.org";

}  // namespace

TEST_CASE("XSW_LIMIT = 3: at most 3 jobs that declare XSW run", "[negotiation][concurrency][spec]") {
  Pool p("XSW_LIMIT = 3\n");
  idle_slots(p, 10);
  p.submit(kA, 1, 5, "ConcurrencyLimits = \"xsw\"");
  p.submit(kA, 2, 2);
  const auto r = p.run();
  int xsw = 0;
  for (const auto& m : r.matches)
    xsw += m.concurrency_limits.size() == 1 && m.concurrency_limits[0].name == "xsw";
  CHECK(xsw == 3);
  CHECK(r.matches.size() == 5);
  REQUIRE(r.rejections.size() == 1);
  CHECK(r.rejections[0].reason == "concurrency limit xsw reached");
  CHECK(r.rejections[0].job_id == schedd::JobId{1, 3});
  // Units in use on running slots count too.
  Pool busy("XSW_LIMIT = 3\n");
  idle_slots(busy, 4);
  busy.slots.push_back(slot("slot9@host",
                            "State = \"Claimed\"; Activity = \"Busy\"; RemoteUser = \"b@example.org\"; "
                            "ConcurrencyLimits = \"XSW:2\""));
  busy.submit(kA, 1, 5, "ConcurrencyLimits = \"XSW\"");
  CHECK(busy.run().matches.size() == 1);
}

TEST_CASE("limit names, units, sets and the default", "[negotiation][concurrency][spec]") {
  auto uses = parse_concurrency_limits("XSW, DATABASE, FILESERVER:3");
  REQUIRE(uses);
  REQUIRE(uses->size() == 3);
  CHECK((*uses)[0].name == "xsw");
  CHECK((*uses)[2].name == "fileserver");
  CHECK((*uses)[2].units == 3);
  CHECK_THAT(parse_concurrency_limits("9lives").error(), Catch::Contains("not starting with a digit"));
  CHECK_THAT(parse_concurrency_limits("a.b.c").error(), Catch::Contains("at most one '.'"));
  CHECK_THAT(parse_concurrency_limits("XSW:none").error(), Catch::Contains("positive number of units"));

  auto c = negotiator_config(
      "CONCURRENCY_LIMIT_DEFAULT = 5\n"
      "CONCURRENCY_LIMIT_DEFAULT_LARGE = 100\n"
      "CONCURRENCY_LIMIT_DEFAULT_SMALL = 25\n"
      "XSW_LIMIT = 3\n");
  auto limits = ConcurrencyLimits::from_config(c);
  REQUIRE(limits);
  CHECK(limits->capacity("LARGE.SWLICENSE") == 100.0);
  CHECK(limits->capacity("large.dbsession") == 100.0);
  CHECK(limits->capacity("SMALL.x") == 25.0);
  CHECK(limits->capacity("OTHER.LICENSE") == 5.0);  // no set OTHER: the default
  CHECK(limits->capacity("xsw") == 3.0);            // case-insensitive
  auto none = ConcurrencyLimits::from_config(negotiator_config(""));
  CHECK_FALSE(none->capacity("anything"));  // no CONCURRENCY_LIMIT_DEFAULT: no limit
  CHECK_THAT(ConcurrencyLimits::from_config(negotiator_config("XSW_LIMIT = lots\n")).error(),
             Catch::Contains("XSW_LIMIT"));
  // CONCURRENCY_LIMIT_DEFAULT = 1: one job per unnamed resource.
  Pool p("CONCURRENCY_LIMIT_DEFAULT = 1\n");
  idle_slots(p, 5);
  p.submit(kA, 1, 3, "ConcurrencyLimits = \"scratch\"");
  CHECK(p.run().matches.size() == 1);
}

TEST_CASE("concurrency_limits_expr: TARGET.NETWORK and SWX:2 per matched slot",
          "[negotiation][concurrency][spec]") {
  Pool p("NETWORK_A_LIMIT = 2\nNETWORK_B_LIMIT = 10\nSWX_LIMIT = 8\n");
  for (int i = 1; i <= 3; ++i)
    p.slots.push_back(slot("a" + std::to_string(i) + "@host", "NETWORK = \"NETWORK_A\""));
  for (int i = 1; i <= 5; ++i)
    p.slots.push_back(slot("b" + std::to_string(i) + "@host", "NETWORK = \"NETWORK_B\""));
  p.submit(kA, 1, 8, "ConcurrencyLimitsExpr = strcat(\"SWX:2 \", TARGET.NETWORK)");
  const auto r = p.run();
  // SWX:2 of 8 allows 4 jobs; NETWORK_A at most 2 of them.
  REQUIRE(r.matches.size() == 4);
  int on_a = 0;
  for (const auto& m : r.matches) {
    on_a += m.slot_name[0] == 'a';
    REQUIRE(m.concurrency_limits.size() == 2);
    CHECK(m.concurrency_limits[0].units == 2);
  }
  CHECK(on_a == 2);
}

TEST_CASE("a partitionable slot with a consumption policy takes several matches per cycle",
          "[negotiation][pslot]") {
  const std::string pslot =
      "PartitionableSlot = true; SlotWeight = Cpus; ConsumptionCpus = TARGET.RequestCpus; "
      "ConsumptionMemory = TARGET.RequestMemory; ConsumptionDisk = 0; "
      "Requirements = TARGET.RequestCpus <= MY.Cpus && TARGET.RequestMemory <= MY.Memory";
  Pool p("");
  p.slots.push_back(slot("slot1@host", pslot, 8));
  p.submit(kA, 1, 5, "RequestCpus = 2; RequestMemory = 512");
  const auto r = p.run();
  REQUIRE(r.matches.size() == 4);  // 8 cores, 2 each
  for (const auto& m : r.matches) {
    CHECK(m.slot_name == "slot1@host");
    CHECK(m.weight == 2);
  }
  // Without a consumption policy the negotiator matches it once.
  Pool once("");
  once.slots.push_back(slot("slot1@host", "PartitionableSlot = true", 8));
  once.submit(kA, 1, 5, "RequestCpus = 2");
  const auto r1 = once.run();
  REQUIRE(r1.matches.size() == 1);
  CHECK(r1.matches[0].weight == 2);  // the dynamic slot's SlotWeight
}

TEST_CASE("slot classes give the plain algorithm's matches on random pools", "[negotiation][classes]") {
  std::mt19937 rng(20261121);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  const char* users[] = {"u1@example.org", "u2@example.org", "u3@example.org", "group_a.u4@example.org",
                         "group_b.u5@example.org"};
  std::size_t matched = 0, preempting = 0, rejected = 0, walks = 0;
  std::int64_t saved = 0;
  for (int round = 0; round < 40; ++round) {
    const bool groups = round % 2 == 1;
    // Rounds 2 and 3 of every 4: constant slot Ranks, so the families are
    // presorted (class_ranks.h), and denser pools of few shapes, many busy
    // slots and few distinct priorities, so that a family holds several
    // classes whose ranks tie; rounds 6 and 7 of every 8 also a
    // POST_JOB_RANK that reads the job, which sends the jobs that define
    // Department down the assessed path.
    const bool presortable = round % 4 >= 2;
    const bool job_post_rank = round % 8 >= 6;
    std::string config =
        "PREEMPTION_REQUIREMENTS = RemoteUserPrio > SubmitterUserPrio * 1.1\n"
        "XSW_LIMIT = " +
        std::to_string(2 + pick(6)) + "\n";
    if (job_post_rank)
      config += "NEGOTIATOR_POST_JOB_RANK = Memory - ifThenElse(isUndefined(Department), 0, 1)\n";
    if (groups)
      config +=
          "GROUP_NAMES = group_a, group_b\nGROUP_QUOTA_DYNAMIC_group_a = 0.4\nGROUP_QUOTA_DYNAMIC_group_b = "
          "0.3\n"
          "GROUP_ACCEPT_SURPLUS = " +
          std::string(pick(2) ? "true" : "false") + "\n";
    Pool a(config), b(config);
    const int machines = presortable ? 6 + pick(10) : 3 + pick(10);
    const int shapes = presortable ? 2 : 4;
    for (int m = 0; m < machines; ++m) {
      const int cpus = 1 + pick(shapes), mem = 1024 * (1 + pick(shapes));
      const std::string arch = pick(3) ? "X86_64" : "aarch64";
      for (int s = 1; s <= 1 + pick(4); ++s) {
        std::string extra =
            "SlotID = " + std::to_string(s) + "; Arch = \"" + arch + "\"; Memory = " + std::to_string(mem) +
            "; Rank = " + (presortable ? std::to_string(pick(2)) : "TARGET.Department =?= \"physics\"");
        if (pick(presortable ? 2 : 3) == 0) {
          const char* user = users[pick(5)];
          extra += "; State = \"Claimed\"; Activity = \"" + std::string(pick(4) ? "Busy" : "Idle") +
                   "\"; RemoteUser = \"" + user + "\"; CurrentRank = " + std::to_string(pick(2));
          if (pick(2)) extra += "; RemoteOwner = \"" + std::string(user) + "\"";
          if (pick(2)) extra += "; ConcurrencyLimits = \"xsw\"";
        }
        a.slots.push_back(slot("slot" + std::to_string(s) + "@m" + std::to_string(m), extra, cpus));
      }
    }
    b.slots = a.slots;
    for (const char* user : users) {
      const double prio = presortable ? 0.5 + 10 * pick(3) : 0.5 + pick(100);
      REQUIRE(a.accountant.set_priority(user, prio));
      REQUIRE(b.accountant.set_priority(user, prio));
      for (int r = 0; r < 1 + pick(3); ++r) {
        std::string extra = "RequestCpus = " + std::to_string(1 + pick(3)) +
                            "; Requirements = TARGET.Arch == \"" + (pick(4) ? "X86_64" : "aarch64") +
                            "\" && TARGET.Memory >= " + std::to_string(1024 * (1 + pick(3))) +
                            " && TARGET.Cpus >= RequestCpus" + "; Rank = TARGET.Memory" +
                            (presortable ? "" : " + TARGET.SlotID");
        if (pick(3)) extra += std::string("; Department = \"") + (pick(2) ? "physics" : "chemistry") + "\"";
        if (pick(3) == 0) extra += "; ConcurrencyLimits = \"XSW\"";
        const int count = 1 + pick(8), cluster = 100 * round + r;
        a.submit(user, cluster, count, extra);
        b.submit(user, cluster, count, extra);
      }
    }
    const auto classes = a.run(true), plain = b.run(false);
    REQUIRE(classes.matches.size() == plain.matches.size());
    for (std::size_t i = 0; i < plain.matches.size(); ++i) {
      INFO("round " << round << " match " << i);
      CHECK(classes.matches[i].slot == plain.matches[i].slot);
      CHECK(classes.matches[i].job_id == plain.matches[i].job_id);
      CHECK(classes.matches[i].reason == plain.matches[i].reason);
    }
    REQUIRE(classes.rejections.size() == plain.rejections.size());
    for (std::size_t i = 0; i < plain.rejections.size(); ++i)
      CHECK(classes.rejections[i].reason == plain.rejections[i].reason);
    CHECK(classes.stats.slot_classes <= plain.stats.slot_classes);
    matched += plain.matches.size();
    rejected += plain.rejections.size();
    for (const auto& m : plain.matches) preempting += m.preempts.has_value();
    if (!presortable) saved += plain.stats.slot_evaluations - classes.stats.slot_evaluations;
    walks += static_cast<std::size_t>(classes.stats.presorted_walks);
    CHECK(plain.stats.presorted_walks == 0);
  }
  // The pools exercise what they should.
  CHECK(matched > 100);
  CHECK(preempting > 5);
  CHECK(rejected > 10);
  CHECK(saved > 0);
  CHECK(walks > 100);
}
