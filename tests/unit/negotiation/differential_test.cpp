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
#include "tests/unit/negotiation/support.h"

using namespace cara;
using namespace cara::test;

namespace {

struct Random {
  std::mt19937 rng;
  int pick(int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); }
  bool chance(int in) { return pick(in) == 0; }
};

const char* const kUsers[] = {"u1@example.org", "u2@example.org", "u3@example.org", "group_a.u4@example.org",
                              "group_b.u5@example.org"};

std::string slot_extra(Random& r, int machine, int id, bool partitionable) {
  std::string e = "SlotID = " + std::to_string(id) + "; KFlops = " + std::to_string(1000 * (1 + r.pick(4))) +
                  "; Memory = " + std::to_string(1024 * (1 + r.pick(4))) +
                  "; Disk = " + std::to_string(10000 * (1 + r.pick(3)));
  // HasDocker: true, false, missing or an expression.
  switch (r.pick(4)) {
    case 0: e += "; HasDocker = true"; break;
    case 1: e += "; HasDocker = false"; break;
    case 2: e += "; HasDocker = KFlops > 2000"; break;
    default: break;
  }
  // OpSysMajorVer: a literal, an expression, or missing.
  switch (r.pick(4)) {
    case 0: e += "; OpSysMajorVer = 8"; break;
    case 1: e += "; OpSysMajorVer = 9"; break;
    case 2: e += "; OpSysMajorVer = 7 + 2"; break;
    default: break;
  }
  e += "; Site = \"" + std::string(r.pick(2) ? "T1" : "T2") + "\"";
  // Rank: constant, the slot's own attributes, or the job's (ranked at
  // its value for no job: false, or 0).
  switch (r.pick(4)) {
    case 0: e += "; Rank = " + std::to_string(r.pick(2)); break;
    case 1: e += "; Rank = KFlops / 1000"; break;
    case 2: e += "; Rank = TARGET.Department =?= \"physics\""; break;
    default: e += "; Rank = ifThenElse(TARGET.Department =?= \"physics\", 2, 0)"; break;
  }
  if (r.chance(4)) e += "; START = TARGET.RequestMemory <= MY.Memory; Requirements = START";
  // Rarely, a slot that reads what the cycle adds: only its own
  // expressions read it (remote_attributes.h).
  if (r.chance(12))
    e += "; START = Slot1_RemoteUserPrio =?= undefined || Slot1_RemoteUserPrio > 20; Requirements = START";
  if (r.chance(12)) e += "; Requirements = RemoteUserPrio =?= undefined || RemoteUserPrio < 30";
  if (r.chance(5)) e += "; SlotWeight = Cpus * 2";
  if (partitionable) {
    e += "; PartitionableSlot = true";
    if (r.pick(2))
      e += "; ConsumptionCpus = quantize(TARGET.RequestCpus, {1}); ConsumptionMemory = TARGET.RequestMemory; "
           "ConsumptionDisk = TARGET.RequestDisk";
  } else if (r.chance(3)) {
    const char* user = kUsers[r.pick(5)];
    e += "; State = \"Claimed\"; Activity = \"Busy\"; RemoteUser = \"" + std::string(user) +
         "\"; RemoteOwner = \"" + user + "\"; CurrentRank = " + std::to_string(r.pick(3));
    if (r.chance(3)) e += "; ConcurrencyLimits = \"xsw\"";
  }
  (void)machine;
  return e;
}

std::string job_extra(Random& r) {
  const int cpus = 1 + r.pick(3);
  std::string req;
  auto conj = [&](const std::string& c) { req += (req.empty() ? "" : " && ") + c; };
  if (r.pick(3)) conj("TARGET.Cpus >= RequestCpus");
  if (r.pick(2)) conj("TARGET.Memory >= RequestMemory");
  if (r.chance(3)) conj("RequestDisk <= TARGET.Disk");  // mirrored
  if (r.chance(3)) conj("TARGET.HasDocker");
  if (r.chance(3)) conj("TARGET.OpSysMajorVer >= " + std::to_string(8 + r.pick(2)));
  if (r.chance(4)) conj("TARGET.KFlops > " + std::to_string(1000 * r.pick(4)));
  if (r.chance(4)) conj("TARGET.KFlops == 2000");
  if (r.chance(4)) conj("(TARGET.Site == \"T1\" || TARGET.Memory >= 4096)");  // not the prefilter's
  if (r.chance(5)) conj("TARGET.Memory >= NeedMemory");                       // NeedMemory reads the slot
  if (r.chance(8)) conj("(TARGET.RemoteUserPrio =?= undefined || TARGET.RemoteUserPrio < 25)");
  if (req.empty()) req = "true";
  std::string e = "RequestCpus = " + std::to_string(cpus) +
                  "; RequestMemory = " + std::to_string(512 * (1 + r.pick(6))) +
                  "; RequestDisk = " + std::to_string(5000 * (1 + r.pick(4))) +
                  "; NeedMemory = TARGET.Cpus * 256; Requirements = " + req;
  if (r.pick(2)) e += "; Rank = TARGET.KFlops";
  // Department: a literal, or (rarely) an expression that reads the slot.
  if (r.chance(8))
    e += "; Department = ifThenElse(TARGET.Site == \"T1\", \"physics\", \"chemistry\")";
  else if (r.pick(3))
    e += std::string("; Department = \"") + (r.pick(2) ? "physics" : "chemistry") + "\"";
  if (r.chance(4)) e += "; ConcurrencyLimits = \"XSW\"";
  return e;
}

// The configuration of a random pool.
std::string random_config(Random& r) {
  std::string config = "XSW_LIMIT = " + std::to_string(1 + r.pick(5)) + "\n";
  if (r.pick(2)) config += "PREEMPTION_REQUIREMENTS = RemoteUserPrio > SubmitterUserPrio * 1.1\n";
  if (r.chance(4)) config += "NEGOTIATOR_CONSIDER_PREEMPTION = False\n";
  if (r.chance(6))
    config += "NEGOTIATOR_PRE_JOB_RANK = ifThenElse(isUndefined(Slot1_RemoteUserPrio), 0, 1)\n";
  if (r.chance(4)) config += "NEGOTIATOR_USE_SLOT_WEIGHTS = False\n";
  if (r.chance(3)) config += "ALLOW_PSLOT_PREEMPTION = True\n";
  if (r.pick(2))
    config +=
        "GROUP_NAMES = group_a, group_b\nGROUP_QUOTA_DYNAMIC_group_a = 0.4\n"
        "GROUP_QUOTA_DYNAMIC_group_b = 0.3\nGROUP_ACCEPT_SURPLUS = " +
        std::string(r.pick(2) ? "true" : "false") + "\n";
  return config;
}

// The slots, priorities and jobs of a random pool, the same in `fast` and
// `plain` (both made with one random_config()).
void fill_random_pool(Random& r, int round, Pool& fast, Pool& plain) {
  const int machines = 1 + r.pick(6);
  for (int m = 0; m < machines; ++m) {
    const bool partitionable = r.chance(3);
    const int cpus = partitionable ? 2 + r.pick(6) : 1 + r.pick(2);
    for (int s = 1; s <= (partitionable ? 1 : 1 + r.pick(3)); ++s)
      fast.slots.push_back(slot("slot" + std::to_string(s) + "@m" + std::to_string(m),
                                slot_extra(r, m, s, partitionable), cpus));
    // Busy dynamic slots of a partitionable one (ALLOW_PSLOT_PREEMPTION
    // may add their resources to it).
    for (int d = 1; partitionable && d <= r.pick(3); ++d) {
      const char* user = kUsers[r.pick(5)];
      fast.slots.push_back(slot("slot1_" + std::to_string(d) + "@m" + std::to_string(m),
                                "SlotID = 1; DynamicSlot = true; State = \"Claimed\"; Activity = \"Busy\"; "
                                "RemoteUser = \"" +
                                    std::string(user) + "\"; CurrentRank = " + std::to_string(r.pick(2)) +
                                    "; Rank = " + std::to_string(r.pick(2)),
                                1 + r.pick(2)));
    }
  }
  plain.slots = fast.slots;
  for (const char* user : kUsers) {
    const double prio = 0.5 + r.pick(50);
    REQUIRE(fast.accountant.set_priority(user, prio));
    REQUIRE(plain.accountant.set_priority(user, prio));
    if (r.chance(6)) {
      const double ceiling = 1 + r.pick(4);
      REQUIRE(fast.accountant.set_ceiling(user, ceiling, std::nullopt, kNow));
      REQUIRE(plain.accountant.set_ceiling(user, ceiling, std::nullopt, kNow));
    }
    for (int q = 0; q < r.pick(3); ++q) {
      const std::string extra = job_extra(r);
      const int count = 1 + r.pick(5), cluster = 10 * round + q;
      fast.submit(user, cluster, count, extra);
      plain.submit(user, cluster, count, extra);
    }
  }
}

// Two cycles' outcomes are the same: matches (slot, job, reason, weight,
// what each preempts), in order; rejections and their reasons, in order;
// each submitter's held-back requests, matches and usage.
template <class Outcome>
void check_same(const Outcome& a, const Outcome& b) {
  REQUIRE(a.matches.size() == b.matches.size());
  for (std::size_t i = 0; i < a.matches.size(); ++i) {
    INFO("match " << i);
    CHECK(a.matches[i].slot == b.matches[i].slot);
    CHECK(a.matches[i].job_id == b.matches[i].job_id);
    CHECK(a.matches[i].reason == b.matches[i].reason);
    CHECK(a.matches[i].weight == b.matches[i].weight);
    CHECK(a.matches[i].preempts == b.matches[i].preempts);
    CHECK(a.matches[i].victims == b.matches[i].victims);
  }
  REQUIRE(a.rejections.size() == b.rejections.size());
  for (std::size_t i = 0; i < a.rejections.size(); ++i) {
    INFO("rejection " << i);
    CHECK(a.rejections[i].job_id == b.rejections[i].job_id);
    CHECK(a.rejections[i].reason == b.rejections[i].reason);
  }
  REQUIRE(a.submitters.size() == b.submitters.size());
  for (std::size_t i = 0; i < a.submitters.size(); ++i) {
    INFO("submitter " << i);
    CHECK(a.submitters[i].held_back == b.submitters[i].held_back);
    CHECK(a.submitters[i].matched == b.submitters[i].matched);
    CHECK(a.submitters[i].usage == b.submitters[i].usage);
  }
}

}  // namespace

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
