// The fast cycle against the plain algorithm (issue 30, section 3): on
// thousands of random pools, seeded, the cycle with slot classes,
// presorted families, the request prefilter and the per-request weight
// memo gives the matches, in the same order, and the rejections, with the
// same reasons, that assessing every slot one by one without any of them
// gives. The pools mix what the shortcuts must get right: static and
// partitionable slots (with and without a consumption policy, with busy
// dynamic slots ALLOW_PSLOT_PREEMPTION may take), busy slots
// whose Rank is constant, reads only the slot or reads the job (and jobs
// that give it the value it has for no job, another, or one that depends
// on the slot), slot
// attributes that are literals, expressions or missing, and Requirements
// whose conjuncts the prefilter reads and others it cannot, and
// expressions of the slots, the requests and the negotiator that read the
// Remote* attributes the cycle adds (or not: then it adds none).
#include <random>

#include "model/negotiation/request_prefilter.h"
#include "model/negotiation/significant_attributes.h"
#include "model/negotiation/slot_memo.h"
#include "tests/unit/negotiation/random_pools.h"
#include "tests/unit/negotiation/support.h"

using namespace cara;
using namespace cara::test;

TEST_CASE("the fast cycle gives the plain algorithm's matches, order and reasons on 2,000 random pools",
          "[negotiation][issue30][differential]") {
  Random r{std::mt19937(20261127)};
  std::size_t matched = 0, rejected = 0, preempting = 0, pslot_preemptions = 0;
  std::int64_t prefiltered = 0, reasons_seen = 0;
  std::map<std::string, int> reason_kinds;
  for (int round = 0; round < 2000; ++round) {
    const std::string config = random_config(r);
    Pool fast(config), plain(config);
    fill_random_pool(r, round, fast, plain);
    const auto a = fast.run(true, true), b = plain.run(false, false);
    INFO("round " << round);
    check_same(a, b);
    for (const auto& rejection : b.rejections) ++reason_kinds[rejection.reason];
    matched += b.matches.size();
    rejected += b.rejections.size();
    for (const auto& m : b.matches) {
      preempting += m.preempts.has_value();
      pslot_preemptions += !m.victims.empty();
    }
    prefiltered += a.stats.prefiltered;
    CHECK(b.stats.prefiltered == 0);
  }
  reasons_seen = static_cast<std::int64_t>(reason_kinds.size());
  // The pools exercise what they should.
  CHECK(pslot_preemptions > 10);
  CHECK(matched > 2000);
  CHECK(rejected > 500);
  CHECK(preempting > 50);
  CHECK(prefiltered > 1000);
  CHECK(reasons_seen >= 5);
  for (const char* reason : {"no match found", "submitter limit exceeded", "PREEMPTION_REQUIREMENTS == False",
                             "insufficient priority"})
    CHECK(reason_kinds.count(reason) == 1);
}

TEST_CASE("the request prefilter reads the conjuncts it can and leaves the rest", "[negotiation][issue30]") {
  const classad::EvalEnv env;
  const classad::ClassAd job_ad =
      ad("[RequestCpus = 4; RequestMemory = 2048; Need = TARGET.Cpus; "
         "Requirements = TARGET.Cpus >= RequestCpus && 2048 <= TARGET.Memory && TARGET.HasDocker && "
         "(TARGET.Site == \"T1\" || TARGET.Memory > 100000) && TARGET.Disk >= Need]");
  const negotiation::RequestPrefilter f(job_ad, env);
  CHECK(f.tests().size() == 3);  // Cpus, Memory (mirrored), HasDocker; not the || nor the slot-reading Need
  CHECK(f.may_match(ad("[Cpus = 4; Memory = 2048; HasDocker = true]")));
  CHECK_FALSE(f.may_match(ad("[Cpus = 3; Memory = 4096; HasDocker = true]")));
  CHECK_FALSE(f.may_match(ad("[Cpus = 8; Memory = 1024; HasDocker = true]")));
  CHECK_FALSE(f.may_match(ad("[Cpus = 8; Memory = 4096; HasDocker = false]")));
  CHECK_FALSE(f.may_match(ad("[Cpus = 8; Memory = 4096]")));          // HasDocker undefined
  CHECK_FALSE(f.may_match(ad("[Memory = 4096; HasDocker = true]")));  // Cpus undefined
  CHECK(f.may_match(
      ad("[Cpus = TotalCpus; TotalCpus = 1; Memory = 4096; HasDocker = true]")));  // not a literal
  CHECK(f.may_match(
      ad("[Cpus = \"four\"; Memory = 4096; HasDocker = 1]")));  // not a number: evaluation decides
  CHECK_FALSE(f.may_match(ad("[Cpus = 8; Memory = 4096; HasDocker = 0]")));

  // Integers a double cannot hold exactly are left to the evaluation.
  const negotiation::RequestPrefilter big(ad("[Requirements = TARGET.Id < 9007199254740993]"), env);
  CHECK(big.tests().empty());
  const negotiation::RequestPrefilter small(ad("[Requirements = TARGET.Id < 5]"), env);
  CHECK(small.may_match(ad("[Id = 9007199254740993]")));  // not a number it can compare exactly
  CHECK_FALSE(small.may_match(ad("[Id = 7]")));
}

TEST_CASE("a cycle on several threads gives one thread's matches, order, reasons and counts",
          "[negotiation][issue30][differential]") {
  // Three threads, each given a slot or more however small the pool: the
  // slots are described, annotated and keyed into classes in chunks, each
  // merged in slot order.
  Random r{std::mt19937(20261129)};
  std::size_t matched = 0, preempting = 0;
  for (int round = 0; round < 500; ++round) {
    const std::string config = random_config(r);
    Pool one(config), three(config);
    fill_random_pool(r, round, one, three);
    const auto a = one.run(true, true, 1), b = three.run(true, true, 3);
    INFO("round " << round);
    check_same(a, b);
    for (const auto& m : a.matches) preempting += m.preempts.has_value();
    CHECK(a.stats.total_slots == b.stats.total_slots);
    CHECK(a.stats.trimmed_slots == b.stats.trimmed_slots);
    CHECK(a.stats.slot_classes == b.stats.slot_classes);
    CHECK(a.stats.candidate_slots == b.stats.candidate_slots);
    CHECK(a.stats.slot_evaluations == b.stats.slot_evaluations);
    matched += a.matches.size();
  }
  CHECK(matched > 500);
  CHECK(preempting > 10);  // the Remote* annotations were read
}

TEST_CASE("cycles that remember unchanged slot ads give fresh cycles' matches, order and reasons",
          "[negotiation][issue29][issue30][differential]") {
  // Episodes of seven cycles over one pool that changes between them as a
  // pool does: some slot ads replaced by new ones (the rest the very same
  // ads), priorities moved, new requests, the clock on. One side keeps a
  // memo (slot_memo.h) from cycle to cycle, the other describes every
  // slot anew. Some slots' jobs are within MaxJobRetirementTime for a
  // while, some SlotWeights and the slot constraint read the clock. Odd
  // episodes remember on three threads.
  Random r{std::mt19937(20261130)};
  std::int64_t described = 0, offered = 0, matched = 0, preempting = 0;
  for (int episode = 0; episode < 300; ++episode) {
    std::string config = random_config(r);
    if (r.chance(4))
      config += "NEGOTIATOR_SLOT_CONSTRAINT = time() < " + std::to_string(kNow + 1500) + " || SlotID != 2\n";
    Pool remembering(config), fresh(config);
    fill_random_pool(r, episode, remembering, fresh);
    for (int m = 0; m < 2; ++m) {
      const std::string name = "slot1@retiring" + std::to_string(m);
      const auto retiring =
          slot(name, "SlotID = 1; State = \"Claimed\"; Activity = \"Busy\"; RemoteUser = \"" +
                         std::string(kUsers[r.pick(5)]) +
                         "\"; CurrentRank = 0; Rank = 1; "
                         "MaxJobRetirementTime = 600; JobStart = " +
                         std::to_string(kNow - 300 * m));
      remembering.slots.push_back(retiring);
      fresh.slots.push_back(retiring);
    }
    if (r.chance(3)) {
      const auto clocked = slot("slot1@clocked", "SlotID = 1; SlotWeight = ifThenElse(time() > " +
                                                     std::to_string(kNow + 900) + ", 2, 1)");
      remembering.slots.push_back(clocked);
      fresh.slots.push_back(clocked);
    }
    negotiation::SlotMemo memo;
    std::int64_t now = kNow;
    for (int step = 0; step < 7; ++step) {
      INFO("episode " << episode << ", step " << step);
      CHECK(negotiation::significant_attributes(remembering.policy, remembering.slots, &memo) ==
            negotiation::significant_attributes(fresh.policy, fresh.slots));
      // Odd episodes remember on three threads (the memo is read and
      // written by the threads that describe and key the slots).
      const int threads = episode % 2 == 1 ? 3 : 0;
      const auto a = remembering.run(true, true, threads, &memo, now),
                 b = fresh.run(true, true, 0, nullptr, now);
      check_same(a, b);
      CHECK(a.stats.trimmed_slots == b.stats.trimmed_slots);
      CHECK(b.stats.described_slots == b.stats.total_slots);
      if (step > 0) {
        described += a.stats.described_slots;
        offered += a.stats.total_slots;
      }
      matched += static_cast<std::int64_t>(a.matches.size());
      for (const auto& m : a.matches) preempting += m.preempts.has_value();
      // The pool changes: a few slot ads are replaced, the rest stay.
      for (std::size_t i = 0; i < remembering.slots.size(); ++i) {
        if (!r.chance(6)) continue;
        const int cpus = 1 + r.pick(2);
        const auto fresh_ad = slot("slot1@new" + std::to_string(step) + "_" + std::to_string(i),
                                   slot_extra(r, 0, 1, r.chance(3)), cpus);
        remembering.slots[i] = fresh_ad;
        fresh.slots[i] = fresh_ad;
      }
      const char* user = kUsers[r.pick(5)];
      const double prio = 0.5 + r.pick(50);
      REQUIRE(remembering.accountant.set_priority(user, prio));
      REQUIRE(fresh.accountant.set_priority(user, prio));
      if (r.chance(2)) {
        const std::string extra = job_extra(r);
        const int count = 1 + r.pick(3);
        remembering.submit(user, 10000 + 10 * episode + step, count, extra);
        fresh.submit(user, 10000 + 10 * episode + step, count, extra);
      }
      now += r.pick(600);
    }
  }
  // Most slots were remembered (all are described anew where the slot
  // constraint reads the clock, a quarter of the episodes, and a sixth are
  // new ads each cycle); the pools matched and preempted.
  CHECK(described * 2 < offered);
  CHECK(matched > 3000);
  CHECK(preempting > 50);
}
