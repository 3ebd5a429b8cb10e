// Random pools for the differential tests (issues 29 and 30): seeded
// generators of slots, jobs and negotiator configurations that mix what
// the cycle's shortcuts must get right, and the comparison of two cycles'
// outcomes.
#pragma once

#include <random>
#include <string>

#include "tests/unit/negotiation/support.h"

namespace cara::test {

struct Random {
  std::mt19937 rng;
  int pick(int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); }
  bool chance(int in) { return pick(in) == 0; }
};

inline const char* const kUsers[] = {"u1@example.org", "u2@example.org", "u3@example.org",
                                     "group_a.u4@example.org", "group_b.u5@example.org"};

inline std::string slot_extra(Random& r, int machine, int id, bool partitionable) {
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

inline std::string job_extra(Random& r) {
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
inline std::string random_config(Random& r) {
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
inline void fill_random_pool(Random& r, int round, Pool& fast, Pool& plain) {
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

}  // namespace cara::test
