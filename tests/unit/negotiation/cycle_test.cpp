// The negotiation cycle (central-manager-configuration, "The Negotiation
// Cycle"; user-priorities-and-negotiation, "Pie Spin and Pie Slice",
// "Priorities in Negotiation and Preemption"): the spec's worked examples.
#include <algorithm>

#include "model/classad/eval.h"
#include "model/negotiation/negotiator_ads.h"
#include "model/negotiation/significant_attributes.h"
#include "support.h"

using namespace cara;
using namespace cara::test;
using negotiation::MatchReason;

namespace {

const std::string kA = "a@example.org", kB = "b@example.org", kC = "c@example.org";

}  // namespace

TEST_CASE("EUPs 5, 10 and 20 share 7 slots as 4, 2 and 1", "[negotiation][spec]") {
  Pool p("");
  idle_slots(p, 7);
  for (auto [user, prio] : {std::pair{kA, 5.0}, std::pair{kB, 10.0}, std::pair{kC, 20.0}}) {
    REQUIRE(p.accountant.set_factor(user, 1));
    REQUIRE(p.accountant.set_priority(user, prio));
    p.submit(user, 1, 100);
  }
  const auto r = p.run();
  const auto got = per_submitter(r);
  CHECK(got.at(kA) == 4);
  CHECK(got.at(kB) == 2);
  CHECK(got.at(kC) == 1);
  REQUIRE(r.submitters.size() == 3);
  CHECK(r.submitters[0].pie_slice == Approx(4));
  CHECK(r.submitters[0].eup == Approx(5));
  // With 10 slots the slices are 5.71, 2.86 and 1.43: the largest
  // remainders take the 2 slots the whole slices leave.
  Pool q("");
  idle_slots(q, 10);
  for (auto [user, prio] : {std::pair{kA, 5.0}, std::pair{kB, 10.0}, std::pair{kC, 20.0}}) {
    REQUIRE(q.accountant.set_factor(user, 1));
    REQUIRE(q.accountant.set_priority(user, prio));
    q.submit(user, 1, 100);
  }
  const auto got10 = per_submitter(q.run());
  CHECK(got10.at(kA) == 6);
  CHECK(got10.at(kB) == 3);
  CHECK(got10.at(kC) == 1);
}

TEST_CASE("a submitter that needs less leaves its share to the others", "[negotiation][spec]") {
  Pool p("");
  idle_slots(p, 10);
  p.submit(kA, 1, 2);
  p.submit(kB, 2, 100);
  const auto got = per_submitter(p.run());
  CHECK(got.at(kA) == 2);
  CHECK(got.at(kB) == 8);
}

TEST_CASE("Table 3.1: the potential match list sorts to slot5, slot3, slot2, slot1, slot4",
          "[negotiation][spec]") {
  Pool p(
      "NEGOTIATOR_PRE_JOB_RANK = PreRank\n"
      "NEGOTIATOR_POST_JOB_RANK = PostRank\n");
  const int pre[] = {100, 100, 100, 0, 200}, job_rank[] = {1, 2, 2, 1, 1}, post[] = {10, 20, 30, 40, 50};
  for (int i = 0; i < 5; ++i)
    p.slots.push_back(slot("slot" + std::to_string(i + 1) + "@host",
                           "PreRank = " + std::to_string(pre[i]) + "; JobRankValue = " +
                               std::to_string(job_rank[i]) + "; PostRank = " + std::to_string(post[i])));
  // "one request for three jobs"
  p.submit(kA, 7, 3, "Rank = TARGET.JobRankValue");
  const auto r = p.run();
  REQUIRE(r.matches.size() == 3);
  CHECK(r.matches[0].slot_name == "slot5@host");
  CHECK(r.matches[1].slot_name == "slot3@host");
  CHECK(r.matches[2].slot_name == "slot2@host");
  CHECK(r.matches[0].job_id == schedd::JobId{7, 0});
  CHECK(r.matches[2].job_id == schedd::JobId{7, 2});
  // With five jobs the order goes on: slot1, then slot4.
  Pool all(
      "NEGOTIATOR_PRE_JOB_RANK = PreRank\n"
      "NEGOTIATOR_POST_JOB_RANK = PostRank\n");
  all.slots = p.slots;
  all.submit(kA, 7, 5, "Rank = TARGET.JobRankValue");
  const auto r5 = all.run();
  REQUIRE(r5.matches.size() == 5);
  CHECK(r5.matches[3].slot_name == "slot1@host");
  CHECK(r5.matches[4].slot_name == "slot4@host");
}

TEST_CASE("both Requirements must hold, and a request no slot takes is skipped", "[negotiation]") {
  Pool p("");
  p.slots.push_back(slot("slot1@big", "", 8));
  p.slots.push_back(slot("slot1@small", "Requirements = TARGET.Owner =!= \"mallory\""));
  p.submit(kA, 1, 3, "RequestCpus = 8; Requirements = TARGET.Cpus >= RequestCpus");
  p.submit(kA, 2, 2, "Owner = \"mallory\"");
  const auto r = p.run();
  REQUIRE(r.matches.size() == 1);
  CHECK(r.matches[0].slot_name == "slot1@big");
  CHECK(r.matches[0].weight == 8);
  CHECK(r.matches[0].job_id == schedd::JobId{1, 0});
  // Cluster 1's second job finds no slot: the rest of it is skipped.
  REQUIRE(r.rejections.size() == 2);
  CHECK(r.rejections[0].job_id == schedd::JobId{1, 1});
  CHECK(r.rejections[0].reason == "no match found");
  // Cluster 2 is still tried: the big slot is taken and the small one
  // refuses mallory.
  CHECK(r.rejections[1].job_id == schedd::JobId{2, 0});
  CHECK(r.stats.num_idle_jobs == 5);
  CHECK(r.stats.matches == 1);
  CHECK(r.stats.rejections == 2);
}

TEST_CASE(
    "preemption: by machine Rank, by priority with PREEMPTION_REQUIREMENTS, never of claimed-idle slots",
    "[negotiation][spec]") {
  SECTION("PREEMPTION_REQUIREMENTS false (the default) protects running jobs from priority") {
    Pool p("");
    p.slots.push_back(busy_slot("slot1@host", kB));
    REQUIRE(p.accountant.set_priority(kB, 100));
    p.submit(kA, 1, 1);
    const auto r = p.run();
    CHECK(r.matches.empty());
    REQUIRE(r.rejections.size() == 1);
    CHECK(r.rejections[0].reason == "PREEMPTION_REQUIREMENTS == False");
  }
  SECTION("a better EUP preempts when PREEMPTION_REQUIREMENTS says so") {
    Pool p("PREEMPTION_REQUIREMENTS = SubmitterUserPrio * 1.2 < RemoteUserPrio\n");
    p.slots.push_back(busy_slot("slot1@host", kB));
    p.slots.push_back(busy_slot("slot2@host", kC));
    REQUIRE(p.accountant.set_priority(kB, 100));   // EUP 100000
    REQUIRE(p.accountant.set_priority(kC, 0.55));  // EUP 550: not 1.2 times worse than a's 500
    p.submit(kA, 1, 2);
    const auto r = p.run();
    REQUIRE(r.matches.size() == 1);
    CHECK(r.matches[0].slot_name == "slot1@host");
    CHECK(r.matches[0].reason == MatchReason::Priority);
    CHECK(r.matches[0].preempts == kB);
  }
  SECTION("an idle slot goes before preempting, and the worst user is preempted first") {
    Pool p("PREEMPTION_REQUIREMENTS = True\n");
    p.slots.push_back(busy_slot("slot1@host", kB));
    p.slots.push_back(busy_slot("slot2@host", kC));
    p.slots.push_back(slot("slot3@host"));
    REQUIRE(p.accountant.set_priority(kB, 10));
    REQUIRE(p.accountant.set_priority(kC, 100));
    p.submit(kA, 1, 3);
    const auto r = p.run();
    REQUIRE(r.matches.size() == 3);
    CHECK(r.matches[0].slot_name == "slot3@host");
    CHECK(r.matches[0].reason == MatchReason::NoPreemption);
    CHECK(r.matches[1].slot_name == "slot2@host");  // PREEMPTION_RANK: RemoteUserPrio * 1000000 first
    CHECK(r.matches[2].slot_name == "slot1@host");
  }
  SECTION("a slot whose RANK prefers the new job is taken by Rank, whatever the priorities") {
    Pool p("");
    p.slots.push_back(busy_slot("slot1@host", kB, "Rank = TARGET.Department == \"physics\""));
    p.submit(kA, 1, 1, "Department = \"physics\"");
    p.submit(kC, 2, 1, "Department = \"chemistry\"");
    const auto r = p.run();
    REQUIRE(r.matches.size() == 1);
    CHECK(r.matches[0].submitter == kA);
    CHECK(r.matches[0].reason == MatchReason::Rank);
  }
  SECTION("a slot liking the new job less is not taken by priority") {
    Pool p("PREEMPTION_REQUIREMENTS = True\n");
    p.slots.push_back(busy_slot("slot1@host", kB, "Rank = TARGET.Department == \"physics\"", 1));
    REQUIRE(p.accountant.set_priority(kB, 100));
    p.submit(kA, 1, 1, "Department = \"chemistry\"");
    CHECK(p.run().matches.empty());
  }
  SECTION("claimed-idle slots are skipped; NEGOTIATOR_CONSIDER_PREEMPTION = false leaves busy ones alone") {
    Pool p("PREEMPTION_REQUIREMENTS = True\nNEGOTIATOR_CONSIDER_PREEMPTION = False\n");
    p.slots.push_back(busy_slot("slot1@host", kB));
    p.slots.push_back(
        slot("slot2@host", "State = \"Claimed\"; Activity = \"Idle\"; RemoteUser = \"" + kB + "\""));
    REQUIRE(p.accountant.set_priority(kB, 100));
    p.submit(kA, 1, 2);
    const auto r = p.run();
    CHECK(r.matches.empty());
    CHECK(r.stats.total_slots == 2);
    CHECK(r.stats.trimmed_slots == 2);
    CHECK(r.stats.candidate_slots == 0);
  }
  SECTION("tied candidates go by slot order, also when the first class of a family may not be taken") {
    // Three busy slots of one user rank alike. The x86 slots are one
    // family (what the job reads: Arch), presorted; its first class is
    // protected by PREEMPTION_REQUIREMENTS, so the aarch64 slot, listed
    // before the other x86 slot, goes first.
    Pool p("PREEMPTION_REQUIREMENTS = Protected =!= True\n");
    p.slots.push_back(busy_slot("slot1@x1", kB, "Arch = \"X86_64\"; Protected = True"));
    p.slots.push_back(busy_slot("slot1@arm", kB, "Arch = \"aarch64\""));
    p.slots.push_back(busy_slot("slot1@x2", kB, "Arch = \"X86_64\""));
    REQUIRE(p.accountant.set_priority(kB, 100));
    p.submit(kA, 1, 2, "Requirements = TARGET.Arch =!= \"sparc\"");
    const auto r = p.run();
    REQUIRE(r.matches.size() == 2);
    CHECK(r.matches[0].slot_name == "slot1@arm");
    CHECK(r.matches[1].slot_name == "slot1@x2");
    CHECK(r.stats.presorted_walks == 2);
  }
  SECTION("a job within its retirement time is not preempted unless early preemption is on") {
    const std::string retiring = "MaxJobRetirementTime = 3600; JobStart = " + std::to_string(kNow - 600);
    Pool p("PREEMPTION_REQUIREMENTS = True\n");
    p.slots.push_back(busy_slot("slot1@host", kB, retiring));
    REQUIRE(p.accountant.set_priority(kB, 100));
    p.submit(kA, 1, 1);
    CHECK(p.run().matches.empty());
    Pool early("PREEMPTION_REQUIREMENTS = True\nNEGOTIATOR_CONSIDER_EARLY_PREEMPTION = True\n");
    early.slots = p.slots;
    REQUIRE(early.accountant.set_priority(kB, 100));
    early.submit(kA, 1, 1);
    CHECK(early.run().matches.size() == 1);
  }
}

TEST_CASE("ephemeral attributes: Submitter*, Remote* and Slot<N>_RemoteUserPrio", "[negotiation][spec]") {
  Pool p(
      "PREEMPTION_REQUIREMENTS = RemoteUserResourcesInUse == 2 && SubmitterUserResourcesInUse == 0 && "
      "RemoteGroup == \"<none>\" && SubmitterGroup == \"<none>\" && SubmitterAutoregroup == False && "
      "Slot2_RemoteUserPrio > SubmitterUserPrio && Slot1_RemoteUserPrio =?= RemoteUserPrio\n");
  classad::ClassAd s1 = busy_slot("slot1@host", kB, "SlotID = 1"),
                   s2 = busy_slot("slot2@host", kB, "SlotID = 2");
  p.slots = {s1, s2};
  REQUIRE(p.accountant.set_priority(kB, 100));
  p.submit(kA, 1, 1);
  const auto r = p.run();
  REQUIRE(r.matches.size() == 1);
  CHECK(r.matches[0].reason == MatchReason::Priority);
}

TEST_CASE("ceilings cap a submitter, floors go first", "[negotiation][spec]") {
  Pool p("");
  idle_slots(p, 10);
  REQUIRE(p.accountant.set_ceiling(kA, 2, std::nullopt, kNow));
  p.submit(kA, 1, 100);
  CHECK(per_submitter(p.run()).at(kA) == 2);

  // b's priority is far worse than a's, but its floor of 4 comes first.
  Pool f("");
  idle_slots(f, 5);
  REQUIRE(f.accountant.set_priority(kB, 1000));
  REQUIRE(f.accountant.set_floor(kB, 4, std::nullopt, kNow));
  f.submit(kA, 1, 100);
  f.submit(kB, 2, 100);
  const auto got = per_submitter(f.run());
  CHECK(got.at(kB) == 4);
  CHECK(got.at(kA) == 1);
}

TEST_CASE("usage already held counts against a submitter's slice", "[negotiation][spec]") {
  Pool p("");
  idle_slots(p, 4);
  for (int i = 1; i <= 4; ++i) p.slots.push_back(busy_slot("busy" + std::to_string(i) + "@host", kA));
  p.submit(kA, 1, 100);
  p.submit(kB, 2, 100);
  // Equal EUPs: 4 slots each of 8; a holds its 4 already.
  const auto got = per_submitter(p.run());
  CHECK(got.count(kA) == 0);
  CHECK(got.at(kB) == 4);
}

TEST_CASE("NEGOTIATOR_SLOT_CONSTRAINT: several negotiators on disjoint slots with their own accountants",
          "[negotiation][spec]") {
  std::vector<classad::ClassAd> slots;
  for (int i = 1; i <= 6; ++i)
    slots.push_back(slot("slot" + std::to_string(i) + "@host",
                         std::string("Site = \"") + (i <= 2 ? "east" : "west") + "\""));
  Pool east("NEGOTIATOR_SLOT_CONSTRAINT = Site == \"east\"\n");
  Pool west("NEGOTIATOR_SLOT_CONSTRAINT = Site == \"west\"\n");
  for (Pool* p : {&east, &west}) {
    p->slots = slots;
    p->submit(kA, 1, 10);
  }
  REQUIRE(west.accountant.set_priority(kA, 50));  // the accountants are separate
  const auto re = east.run(), rw = west.run();
  CHECK(re.matches.size() == 2);
  CHECK(rw.matches.size() == 4);
  for (const auto& m : re.matches) CHECK(m.slot <= 1);
  for (const auto& m : rw.matches) CHECK(m.slot >= 2);
  CHECK(re.stats.trimmed_slots == 4);
  CHECK(re.submitters[0].rup == Approx(0.5));
  CHECK(rw.submitters[0].rup == Approx(50));
}

TEST_CASE("NEGOTIATOR_JOB_CONSTRAINT: what it reads of the job is significant", "[negotiation][shards]") {
  Pool p("NEGOTIATOR_JOB_CONSTRAINT = WantGPU =?= true && TARGET.Site =!= \"west\"\n");
  std::vector<classad::ClassAd> slots{slot("slot1@host", "START = TARGET.Owner != \"chris\"")};
  const auto names = negotiation::significant_attributes(p.policy, slots);
  // Its MY is the job: every name it reads, scoped or not, is the job's.
  for (const char* n : {"WantGPU", "Site", "Owner"}) CHECK(std::count(names.begin(), names.end(), n) == 1);
  // A constraint that does not parse is refused, naming the knob.
  auto refused = negotiation::NegotiatorPolicy::from_config(
      test::negotiator_config("NEGOTIATOR_JOB_CONSTRAINT = WantGPU ==\n"));
  REQUIRE_FALSE(refused);
  CHECK(refused.error().find("NEGOTIATOR_JOB_CONSTRAINT") != std::string::npos);
}

TEST_CASE("cycle statistics carry HTCondor's LastNegotiationCycle names", "[negotiation]") {
  Pool p("");
  idle_slots(p, 3);
  p.submit(kA, 1, 5);
  const auto r = p.run();
  CHECK(r.stats.matches == 3);
  CHECK(r.stats.num_idle_jobs == 5);
  CHECK(r.stats.total_slots == 3);
  CHECK(r.stats.candidate_slots == 3);
  CHECK(r.stats.active_submitter_count == 1);
  CHECK(r.stats.pies == 1);
  CHECK(r.stats.pie_spins >= 1);
  bool found = false;
  for (const auto& [name, value] : r.stats.attributes())
    if (name == "LastNegotiationCycleMatches0") found = value == 3;
  CHECK(found);
}

TEST_CASE("a submitter held back whole by its ceiling or its group's quota says which",
          "[negotiation][analyze]") {
  // a's ceiling of 2 is used up before the cycle: none of its requests is
  // tried, and the cycle says why (condor_q -better-analyze shows it).
  Pool p("");
  idle_slots(p, 4);
  p.slots.push_back(busy_slot("busy1@host", kA));
  p.slots.push_back(busy_slot("busy2@host", kA));
  REQUIRE(p.accountant.set_ceiling(kA, 2, std::nullopt, kNow));
  p.submit(kA, 1, 5);
  p.submit(kB, 2, 1);
  auto r = p.run();
  CHECK(per_submitter(r).count(kA) == 0);
  std::map<std::string, std::string> held;
  for (const auto& s : r.submitters) held[s.name] = s.held_back;
  CHECK(held.at(kA) == "submitter limit exceeded");
  CHECK(held.at(kB).empty());  // it got what it asked for
  const auto ads = negotiation::submitter_cycle_ads(r, kNow);
  for (const classad::ClassAd& ad : ads) {
    if (classad::evaluate_attr(ad, "Name").as_string() != kA) continue;
    const classad::Value reasons = classad::evaluate_attr(ad, "Rejections");
    REQUIRE(reasons.is_list());
    REQUIRE(reasons.as_list().size() == 1);
    CHECK(reasons.as_list()[0].as_string() == "submitter limit exceeded");
  }

  // group_a's quota of 1 is held already: its submitter is not negotiated.
  Pool g("GROUP_NAMES = group_a\nGROUP_QUOTA_group_a = 1\n");
  idle_slots(g, 4);
  g.slots.push_back(
      busy_slot("busy1@host", "group_a.x@example.org", "AccountingGroup = \"group_a.x@example.org\""));
  g.submit("group_a.x@example.org", 1, 3);
  r = g.run();
  REQUIRE(r.submitters.size() == 1);
  CHECK(r.submitters[0].matched == 0);
  CHECK(r.submitters[0].held_back == "group quota exceeded");
}

TEST_CASE("NEGOTIATOR_THREADS sets the cycle's threads, 1 to 256", "[negotiation][issue30]") {
  auto policy = negotiation::NegotiatorPolicy::from_config(test::negotiator_config(""));
  REQUIRE(policy);
  CHECK(policy->threads == 1);
  policy = negotiation::NegotiatorPolicy::from_config(test::negotiator_config("NEGOTIATOR_THREADS = 2\n"));
  REQUIRE(policy);
  CHECK(policy->threads == 2);
  for (const char* bad :
       {"NEGOTIATOR_THREADS = 0\n", "NEGOTIATOR_THREADS = 1000\n", "NEGOTIATOR_THREADS = two\n"}) {
    auto refused = negotiation::NegotiatorPolicy::from_config(test::negotiator_config(bad));
    INFO(bad);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().find("NEGOTIATOR_THREADS") != std::string::npos);
  }
  // The cycle takes the policy's number: two threads, same matches.
  Pool one(""), two("NEGOTIATOR_THREADS = 2\n");
  for (Pool* p : {&one, &two}) {
    idle_slots(*p, 1200);
    p->submit(kA, 1, 700);
  }
  REQUIRE(two.policy.threads == 2);
  const auto a = one.run(), b = two.run();
  CHECK(a.stats.matches == 700);
  CHECK(b.stats.matches == 700);
  for (std::size_t i = 0; i < a.matches.size(); ++i) CHECK(a.matches[i].slot == b.matches[i].slot);
}
