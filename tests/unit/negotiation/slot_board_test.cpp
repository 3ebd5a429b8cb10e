// The slot board (model/negotiation/slot_board.h, issues 29 and 30): a
// cycle over the slots a board keeps — the active ones, one of each bundle
// of slots running jobs no request can take, a digest of the rest — gives
// what a cycle over every one of its ads gives: the same matches in the
// same order, the same rejections and reasons, the same totals; and the
// board's significant attributes and claims are those of its ads.
#include "model/negotiation/slot_board.h"

#include "model/claim/claim_charges.h"
#include "model/classad/eval.h"
#include "model/negotiation/significant_attributes.h"
#include "tests/unit/negotiation/random_pools.h"
#include "tests/unit/negotiation/support.h"

using namespace cara;
using namespace cara::test;

namespace {

using Key = negotiation::SlotBoard::Key;

negotiation::CycleResult run_board(Pool& p, negotiation::SlotBoard& board, std::int64_t now, int threads = 0,
                                   bool classes = true) {
  classad::EvalEnv env;
  env.now = now;
  negotiation::NegotiationCycle cycle(p.policy, p.accountant, p.groups, env);
  cycle.set_slot_classes(classes);
  if (threads > 0) cycle.set_threads(threads, 1);
  return cycle.run(board, p.submitters);
}

// The board's slots as a cycle over them without it sees them: b's slot
// indices as board keys.
void to_keys(negotiation::CycleResult& b, const std::vector<Key>& keys) {
  for (auto& m : b.matches) {
    m.slot = keys[m.slot];
    for (std::size_t& v : m.victims) v = keys[v];
  }
}

// A board cycle's result `a` against `b`, a cycle over every ad (its slot
// indices as board keys): the same matches, order, reasons, totals and
// group figures.
void check_same_cycle(const negotiation::CycleResult& a, const negotiation::CycleResult& b) {
  check_same(a, b);
  CHECK(a.stats.total_slots == b.stats.total_slots);
  CHECK(a.stats.trimmed_slots == b.stats.trimmed_slots);
  CHECK(a.stats.candidate_slots == b.stats.candidate_slots);
  CHECK(a.stats.slot_classes == b.stats.slot_classes);
  REQUIRE(a.groups.size() == b.groups.size());
  for (std::size_t g = 0; g < a.groups.size(); ++g) {
    CHECK(a.groups[g].usage == b.groups[g].usage);
    CHECK(a.groups[g].allocated == b.groups[g].allocated);
    CHECK(a.groups[g].matched == b.groups[g].matched);
  }
}

// A slot running `user`'s job that no request can take with
// PREEMPTION_REQUIREMENTS False: Rank 0, CurrentRank 0. Alike ones bundle.
classad::ClassAd untakeable(const std::string& name, const std::string& user, int cpus) {
  return slot(name,
              "SlotID = 1; DynamicSlot = true; State = \"Claimed\"; Activity = \"Busy\"; RemoteUser = \"" +
                  user + "\"; RemoteOwner = \"" + user +
                  "\"; CurrentRank = 0; Rank = 0; Memory = " + std::to_string(1024 * cpus),
              cpus);
}

}  // namespace

TEST_CASE("cycles over a slot board give a cycle's matches, order, reasons and totals over all its ads",
          "[negotiation][issue29][issue30][differential]") {
  // Episodes of eight cycles over a pool that changes between them: ads
  // replaced, slots gone and new, priorities moved, new requests, the clock
  // on. The board's side keeps one board; the other runs each cycle over
  // board.ads(). Odd episodes use three threads; every fourth step runs the
  // plain algorithm on both sides.
  Random r{std::mt19937(20261201)};
  std::int64_t matched = 0, rejected = 0, bundled = 0, bundles = 0, reconciled = 0, idle_left_out = 0,
               kept = 0;
  // Cycles that went without the busy bundles' slots first and read
  // them after all (run again with them): most of these, whose requests
  // are often rejected.
  std::int64_t busy_again = 0;
  // New ads that placed their slots where they were (slot_board.cpp,
  // replace_in_place).
  std::int64_t in_place = 0;
  for (int episode = 0; episode < 300; ++episode) {
    std::string config = random_config(r);
    if (r.chance(5))
      config += "NEGOTIATOR_SLOT_CONSTRAINT = time() < " + std::to_string(kNow + 1500) + " || SlotID != 2\n";
    if (r.chance(6)) config += "NEGOTIATOR_CONSIDER_EARLY_PREEMPTION = True\n";
    // Ranks that do not read RemoteOwner: slots of different users' jobs
    // are then alike to the class key but for whose they are.
    if (r.chance(3)) config += "NEGOTIATOR_PRE_JOB_RANK = 0\nNEGOTIATOR_POST_JOB_RANK = KFlops\n";
    Pool boarded(config), fresh(config);
    fill_random_pool(r, episode, boarded, fresh);
    // Many slots no request can take, some alike.
    for (int k = 0, n = r.pick(25); k < n; ++k)
      boarded.slots.push_back(
          untakeable("slot1_" + std::to_string(k + 1) + "@busy" + std::to_string(r.pick(3)),
                     kUsers[r.pick(5)], 1 + r.pick(2)));
    // A job within its MaxJobRetirementTime for a while, and a SlotWeight
    // that reads the clock.
    boarded.slots.push_back(slot("slot1@retiring",
                                 "SlotID = 1; State = \"Claimed\"; Activity = \"Busy\"; "
                                 "RemoteUser = \"u1@example.org\"; CurrentRank = 0; Rank = 1; "
                                 "MaxJobRetirementTime = 600; JobStart = " +
                                     std::to_string(kNow - 300)));
    // Jobs no request can take, within their MaxJobRetirementTime for a
    // while and alike but for when they started.
    for (int k = 0; k < 2; ++k) {
      classad::ClassAd a = untakeable("slot1_" + std::to_string(k + 1) + "@retiring", kUsers[r.pick(5)], 1);
      a.set("MaxJobRetirementTime", 600);
      a.set("JobStart", kNow - 700 * k + r.pick(200));
      boarded.slots.push_back(a);
    }
    // Farms of alike idle slots, often more than a cycle has jobs: it
    // takes the first of each.
    for (int f = 0, farms = r.pick(2) * (1 + r.pick(3)); f < farms; ++f) {
      const bool partitionable = r.chance(2);
      // Not one that reads Remote* attributes, which the cycle adds to
      // every slot: it would take them all (all_slots()).
      std::string extra;
      do extra = slot_extra(r, 100 + f, 1, partitionable);
      while (extra.find("Remote") != std::string::npos);
      for (int k = 0, n = 20 + r.pick(100); k < n; ++k)
        boarded.slots.push_back(
            slot("slot1@farm" + std::to_string(f) + "_" + std::to_string(k), extra, partitionable ? 4 : 1));
    }
    if (r.chance(3))
      boarded.slots.push_back(slot("slot1@clocked", "SlotID = 1; SlotWeight = ifThenElse(time() > " +
                                                        std::to_string(kNow + 900) + ", 2, 1)"));
    negotiation::SlotBoard board;
    Key next = 0;
    for (const classad::ClassAd& s : boarded.slots) board.set(next += 10, s);
    std::int64_t now = kNow;
    for (int step = 0; step < 8; ++step) {
      INFO("episode " << episode << ", step " << step);
      fresh.slots = board.ads();
      const std::vector<Key> keys = board.keys();
      const bool classes = step % 4 != 3;
      const int threads = episode % 2 == 1 ? 3 : 0;
      const bool predicted = board.busy_read();
      auto a = run_board(boarded, board, now, threads, classes);
      auto b = fresh.run(classes, classes, 0, nullptr, now);
      to_keys(b, keys);
      check_same_cycle(a, b);
      CHECK(negotiation::significant_attributes(boarded.policy, board) ==
            negotiation::significant_attributes(fresh.policy, fresh.slots));
      // The claims the accountant would begin and end: some charged, some
      // not, some gone.
      std::map<std::string, accounting::ClaimRecord> charged;
      auto record = [](const std::string& slot_name, const char* submitter) {
        accounting::ClaimRecord c;
        c.slot = slot_name;
        c.submitter = submitter;
        return c;
      };
      for (const auto& [name, slots] : board.claimed())
        if (r.pick(2)) charged[name] = record(name, "u1@example.org");
      charged["slot9@gone"] = record("slot9@gone", "u2@example.org");
      classad::EvalEnv env;
      env.now = now;
      const auto x = claim::reconcile(charged, board, boarded.policy.use_slot_weights, [&](std::uint64_t k) {
        return board.in_shard(k, boarded.policy, env);
      });
      const auto y =
          claim::reconcile(charged, fresh.slots, fresh.policy.use_slot_weights,
                           [&](const classad::ClassAd& s) { return fresh.policy.negotiates_for(s, env); });
      CHECK(x.ended == y.ended);
      REQUIRE(x.begun.size() == y.begun.size());
      for (std::size_t i = 0; i < x.begun.size(); ++i) {
        CHECK(x.begun[i].slot == y.begun[i].slot);
        CHECK(x.begun[i].submitter == y.begun[i].submitter);
        CHECK(x.begun[i].weight == y.begun[i].weight);
      }
      reconciled += static_cast<std::int64_t>(x.begun.size() + x.ended.size());
      const auto parts = board.parts();
      // What a cycle left out beyond the quiet slots and the busy bundles'
      // slots (all but one of each, or all): idle slots.
      const auto others =
          static_cast<std::int64_t>(parts.quiet + parts.bundled - (parts.busy_taken ? parts.bundles : 0));
      bool requests = false;
      for (const auto& s : boarded.submitters) requests |= !s.requests.empty();
      if (classes && requests && parts.bundles > 0 && !predicted && parts.busy_taken) ++busy_again;
      in_place += static_cast<std::int64_t>(parts.in_place);
      if (a.stats.summed_slots > others) idle_left_out += a.stats.summed_slots - others;
      bundled += static_cast<std::int64_t>(parts.bundled);
      bundles += static_cast<std::int64_t>(parts.bundles);
      matched += static_cast<std::int64_t>(a.matches.size());
      kept += a.stats.kept_matches;  // answers of the cycles before (match_memo.h)
      rejected += static_cast<std::int64_t>(a.rejections.size());
      // The pool changes: a few ads replaced, a few slots gone, a few new.
      for (Key k : keys) {
        if (r.chance(7)) {
          board.erase(k);
        } else if (r.chance(6)) {
          const bool busy = r.chance(2);
          board.set(k, busy ? untakeable("slot1_" + std::to_string(k) + "@busy" + std::to_string(r.pick(3)),
                                         kUsers[r.pick(5)], 1 + r.pick(2))
                            : slot("slot1@new" + std::to_string(k), slot_extra(r, 0, 1, r.chance(3)),
                                   1 + r.pick(2)));
        }
      }
      for (int k = 0, n = r.pick(3); k < n; ++k)
        board.set(keys.empty() ? next += 10 : keys[r.pick(static_cast<int>(keys.size()))] + 1 + r.pick(9),
                  untakeable("slot2_" + std::to_string(step) + "_" + std::to_string(k) + "@busy9",
                             kUsers[r.pick(5)], 1));
      const char* user = kUsers[r.pick(5)];
      const double prio = 0.5 + r.pick(50);
      REQUIRE(boarded.accountant.set_priority(user, prio));
      REQUIRE(fresh.accountant.set_priority(user, prio));
      if (r.chance(2)) {
        const std::string extra = job_extra(r);
        const int count = 1 + r.pick(3);
        boarded.submit(user, 10000 + 10 * episode + step, count, extra);
        fresh.submit(user, 10000 + 10 * episode + step, count, extra);
      }
      now += r.pick(600);
    }
  }
  // The pools matched, rejected and reconciled; the boards left slots out,
  // bundled alike ones together.
  CHECK(matched > 3000);
  CHECK(rejected > 500);
  CHECK(reconciled > 1000);
  CHECK(bundled > 3000);
  CHECK(bundles * 3 < bundled * 2);
  CHECK(idle_left_out > 2000);
  CHECK(kept > 1000);
  CHECK(busy_again > 100);
  CHECK(in_place > 3000);
}

TEST_CASE("a slot board leaves out the slots no request can take and keeps one of each bundle",
          "[negotiation][issue29]") {
  Pool p("");
  negotiation::SlotBoard board;
  board.set(1, slot("slot1@idle"));
  for (int k = 0; k < 6; ++k)
    board.set(10 + k, untakeable("slot1_" + std::to_string(k + 1) + "@busy",
                                 k < 4 ? "u1@example.org" : "u2@example.org", 1));
  board.set(20, slot("slot1@unavailable", "State = \"Drained\"; Activity = \"Retiring\""));
  p.submit("u3@example.org", 1, 3);
  const auto r = run_board(p, board, kNow);
  const auto parts = board.parts();
  CHECK(parts.active == 0);
  CHECK(parts.idle == 1);  // in the cycle: it has more jobs than idle slots
  CHECK(parts.bundled == 6);
  CHECK(parts.bundles == 2);  // u1's four, u2's two
  CHECK(parts.quiet == 1);
  CHECK(r.stats.total_slots == 8);
  CHECK(r.stats.trimmed_slots == 1);
  CHECK(r.stats.summed_slots == 5);  // the quiet one, and all of each bundle but one
  REQUIRE(r.matches.size() == 1);
  CHECK(r.matches[0].slot == 1);
  CHECK(r.matches[0].slot_name == "slot1@idle");
  // The two jobs left match only busy slots nobody can take: the reason
  // a cycle over every slot gives for that, not "no match found".
  Pool all("");
  all.slots = board.ads();
  all.submit("u3@example.org", 1, 3);
  const auto plain = all.run();
  REQUIRE(r.rejections.size() == 1);
  REQUIRE(plain.rejections.size() == 1);
  CHECK(r.rejections[0].reason == plain.rejections[0].reason);
  CHECK(r.rejections[0].reason != "no match found");
  CHECK(r.stats.described_slots == 8);
  // Nothing changed: nothing is described again.
  CHECK(run_board(p, board, kNow + 10).stats.described_slots == 0);
  // A slot's job ends: its ad, replaced, is described, and it is idle.
  board.set(10, slot("slot1_1@busy"));
  const auto after = run_board(p, board, kNow + 20);
  CHECK(after.stats.described_slots == 1);
  CHECK(board.parts().bundled == 5);
  CHECK(after.matches.size() == 2);  // nothing acted on the first cycle's match
}

TEST_CASE("a slot board takes every slot when an expression reads what the left-out slots add",
          "[negotiation][issue29]") {
  // Slot1_RemoteUserPrio is given to every slot of a machine whose slot 1
  // runs a job: the idle slot 2 of the busy machine reads it.
  Pool p("");
  REQUIRE(p.accountant.set_priority("u1@example.org", 50));
  negotiation::SlotBoard board;
  board.set(1, untakeable("slot1@m", "u1@example.org", 1));
  board.set(2, slot("slot2@m", "SlotID = 2; START = Slot1_RemoteUserPrio > 20; Requirements = START"));
  p.submit("u3@example.org", 1, 1);
  const auto r = run_board(p, board, kNow);
  REQUIRE(r.matches.size() == 1);
  CHECK(r.matches[0].slot == 2);
  Pool q("");
  q.slots = board.ads();
  q.submit("u3@example.org", 1, 1);
  REQUIRE(q.accountant.set_priority("u1@example.org", 50));
  CHECK(q.run().matches.size() == 1);
}

TEST_CASE("a slot board's bundles keep apart the slots whose jobs' submitters give other reasons",
          "[negotiation][issue29]") {
  // u1 (a good priority) asks; the only slots its job matches run jobs,
  // alike but for whose: u1's own ("... run this submitter's jobs") and
  // u2's (worse priority: PREEMPTION_REQUIREMENTS would decide). One
  // bundle for both would give the reason of whichever stands for it.
  // (The default NEGOTIATOR_PRE/POST_JOB_RANK read RemoteOwner, which
  // sets the two apart anyway: not here.)
  Pool p("NEGOTIATOR_PRE_JOB_RANK = 0\nNEGOTIATOR_POST_JOB_RANK = 0\n");
  REQUIRE(p.accountant.set_priority("u1@example.org", 1));
  REQUIRE(p.accountant.set_priority("u2@example.org", 100));
  negotiation::SlotBoard board;
  board.set(1, untakeable("slot1_1@busy", "u1@example.org", 1));
  board.set(2, untakeable("slot1_2@busy", "u2@example.org", 1));
  p.submit("u1@example.org", 1, 1);
  const auto r = run_board(p, board, kNow);
  CHECK(board.parts().bundles == 2);
  REQUIRE(r.rejections.size() == 1);
  CHECK(r.rejections[0].reason == "PREEMPTION_REQUIREMENTS == False");
}

TEST_CASE("a slot board does not bundle a job within its retirement with one past it",
          "[negotiation][issue29]") {
  // The same user's jobs on alike slots; one started 100 s ago with a
  // MaxJobRetirementTime of 600 s, the other 1,000 s ago. A request that
  // matches only these is told of the one past its retirement
  // (PREEMPTION_REQUIREMENTS would decide), not of the retiring one.
  Pool p("NEGOTIATOR_PRE_JOB_RANK = 0\nNEGOTIATOR_POST_JOB_RANK = 0\n");
  REQUIRE(p.accountant.set_priority("u1@example.org", 1));
  REQUIRE(p.accountant.set_priority("u2@example.org", 100));
  negotiation::SlotBoard board;
  for (int k = 0; k < 2; ++k) {
    classad::ClassAd a = untakeable("slot1_" + std::to_string(k + 1) + "@busy", "u2@example.org", 1);
    a.set("MaxJobRetirementTime", 600);
    a.set("JobStart", kNow - (k == 0 ? 100 : 1000));
    board.set(static_cast<Key>(k + 1), a);
  }
  p.submit("u1@example.org", 1, 1);
  const auto r = run_board(p, board, kNow);
  REQUIRE(r.rejections.size() == 1);
  CHECK(r.rejections[0].reason == "PREEMPTION_REQUIREMENTS == False");
  // Later both are past it: still alike to every cycle.
  CHECK(run_board(p, board, kNow + 1000).rejections.at(0).reason == "PREEMPTION_REQUIREMENTS == False");
}

TEST_CASE("a slot board gives a cycle the first of alike idle slots, as many as it has jobs and one more",
          "[negotiation][issue29]") {
  // 40 alike static slots and 10 alike partitionable ones of 4 cpus; u1
  // asks for 3 one-core jobs, u2 for 2 two-core jobs that only the
  // partitionable slots can run: 5 jobs, so 6 of each bundle enter the
  // cycle and the other 34 + 4 are summed.
  Pool p("");
  negotiation::SlotBoard board;
  for (int k = 0; k < 40; ++k) board.set(static_cast<Key>(2 * k + 1), slot("slot1@s" + std::to_string(k)));
  for (int k = 0; k < 10; ++k)
    board.set(static_cast<Key>(2 * k + 2),
              slot("slot1@p" + std::to_string(k), "PartitionableSlot = true; Memory = 16384", 4));
  auto submit = [](Pool& q) {
    q.submit("u1@example.org", 1, 3);
    q.submit("u2@example.org", 2, 2, "RequestCpus = 2; Requirements = TARGET.PartitionableSlot =?= true");
  };
  submit(p);
  const auto r = run_board(p, board, kNow);
  const auto parts = board.parts();
  CHECK(parts.active == 0);
  CHECK(parts.idle == 50);
  CHECK(parts.idle_bundles == 2);
  CHECK(r.stats.total_slots == 50);
  CHECK(r.stats.candidate_slots == 50);
  CHECK(r.stats.summed_slots == 38);
  // What a cycle over every ad matches, slot for slot.
  Pool all("");
  all.slots = board.ads();
  submit(all);
  auto plain = all.run();
  to_keys(plain, board.keys());
  check_same(r, plain);
  CHECK(r.matches.size() == 5);
  CHECK(plain.stats.candidate_slots == 50);
  // No request: one of each bundle of idle slots, so that the pool's
  // classes are the same, and none of busy ones (three jobs of u3's).
  for (int k = 0; k < 3; ++k)
    board.set(static_cast<Key>(100 + k),
              untakeable("slot1_" + std::to_string(k + 1) + "@busy", "u3@example.org", 1));
  Pool none("");
  const auto quiet = run_board(none, board, kNow);
  CHECK(quiet.stats.summed_slots == 51);
  Pool none_all("");
  none_all.slots = board.ads();
  const auto quiet_all = none_all.run();
  check_same(quiet, quiet_all);
  CHECK(quiet.stats.total_slots == quiet_all.stats.total_slots);
  CHECK(quiet.stats.trimmed_slots == quiet_all.stats.trimmed_slots);
  CHECK(quiet.stats.candidate_slots == quiet_all.stats.candidate_slots);
  CHECK(quiet.stats.slot_classes == quiet_all.stats.slot_classes);
  CHECK(quiet.stats.slot_classes == 2);
}

TEST_CASE("a cycle over a slot board goes without its busy bundles' slots until it reads them",
          "[negotiation][issue29][differential]") {
  // A busy pool that most cycles find room in: the busy bundles' slots
  // only tell a rejected request its reason, so a cycle after one that
  // did not read them goes without them, and runs again with them when it
  // does read them (a job no idle slot fits, the idle slots used up).
  // Each cycle is compared with one over every ad; the matched slots then
  // run their jobs, and now and then a job ends.
  Random r{std::mt19937(20261203)};
  std::int64_t without = 0, again = 0, matched = 0, rejected = 0;
  for (int episode = 0; episode < 200; ++episode) {
    const std::string config = r.chance(2) ? random_config(r) : "";
    Pool boarded(config), fresh(config);
    negotiation::SlotBoard board;
    Key next = 0;
    for (int k = 0, n = 5 + r.pick(40); k < n; ++k)
      board.set(next += 10, untakeable("slot1_" + std::to_string(k + 1) + "@busy" + std::to_string(r.pick(4)),
                                       kUsers[r.pick(5)], 1 + r.pick(2)));
    for (int k = 0, n = 4 + r.pick(12); k < n; ++k)
      board.set(next += 10, slot("slot1@idle" + std::to_string(k), "", 1 + r.pick(2)));
    std::int64_t now = kNow;
    for (int step = 0; step < 6; ++step) {
      INFO("episode " << episode << ", step " << step);
      for (Pool* q : {&boarded, &fresh}) q->submitters.clear();
      for (int k = 0, n = 1 + r.pick(3); k < n; ++k) {
        const char* user = kUsers[r.pick(5)];
        const std::string extra = r.chance(6)    ? "RequestCpus = 2"
                                  : r.chance(20) ? "Requirements = TARGET.Cpus > 2"
                                                 : "";
        const int count = 1 + r.pick(3);
        for (Pool* q : {&boarded, &fresh}) q->submit(user, 100 * episode + 10 * step + k, count, extra);
      }
      fresh.slots = board.ads();
      const std::vector<Key> keys = board.keys();
      const bool predicted = board.busy_read();
      auto a = run_board(boarded, board, now);
      auto b = fresh.run(true, true, 0, nullptr, now);
      to_keys(b, keys);
      check_same_cycle(a, b);
      const auto parts = board.parts();
      if (parts.bundles > 0 && !parts.busy_taken) ++without;
      if (parts.bundles > 0 && !predicted && parts.busy_taken) ++again;
      matched += static_cast<std::int64_t>(a.matches.size());
      rejected += static_cast<std::int64_t>(a.rejections.size());
      for (const auto& m : a.matches) {
        const classad::ClassAd* was = board.find(m.slot);
        REQUIRE(was != nullptr);
        double cpus = 1;
        (void)classad::evaluate_attr(*was, "Cpus").number(cpus);
        board.set(m.slot, untakeable(m.slot_name, m.submitter, static_cast<int>(cpus)));
      }
      for (Key k : board.keys())
        if (r.chance(15)) board.set(k, slot("slot1@ended" + std::to_string(k), "", 1 + r.pick(2)));
      const char* user = kUsers[r.pick(5)];
      const double prio = 0.5 + r.pick(50);
      REQUIRE(boarded.accountant.set_priority(user, prio));
      REQUIRE(fresh.accountant.set_priority(user, prio));
      now += 60;
    }
  }
  CHECK(without > 200);
  CHECK(again > 100);
  CHECK(matched > 1000);
  CHECK(rejected > 200);
}

TEST_CASE("a slot's new ad that places it where it was keeps its bundle, its sums and its claim",
          "[negotiation][issue29]") {
  // A startd's clock moves on with every call: each of its slots' ads is
  // new (MyCurrentTime), most of them alike to what they were. They stay
  // where they are on the board; one whose job is now another user's
  // moves to a bundle of its own; one whose job ended is idle.
  Pool p("");
  negotiation::SlotBoard board;
  auto busy = [](int k, const char* user, std::int64_t now) {
    classad::ClassAd a = untakeable("slot1_" + std::to_string(k) + "@busy", user, 1);
    a.set("MyCurrentTime", now);
    return a;
  };
  for (int k = 1; k <= 4; ++k) board.set(static_cast<Key>(10 + k), busy(k, "u1@example.org", kNow));
  board.set(1, slot("slot1@idle"));
  p.submit("u2@example.org", 1, 2);
  auto same_as_all = [&](const negotiation::CycleResult& r, std::int64_t now) {
    Pool all("");
    all.slots = board.ads();
    all.submit("u2@example.org", 1, 2);
    auto plain = all.run(true, true, 0, nullptr, now);
    to_keys(plain, board.keys());
    check_same_cycle(r, plain);
  };
  const auto first = run_board(p, board, kNow);
  same_as_all(first, kNow);
  REQUIRE(first.rejections.size() == 1);  // the second job: only busy slots left
  CHECK(board.parts().bundled == 4);
  CHECK(board.parts().bundles == 1);
  const ChangeLog::Stamp before = board.claim_log().stamp();
  for (int k = 1; k <= 4; ++k) board.set(static_cast<Key>(10 + k), busy(k, "u1@example.org", kNow + 60));
  // Still claimed under the same names, and told as changed ads.
  CHECK(board.claimed().size() == 4);
  CHECK(board.claim_log().since(before)->size() == 4);
  const auto second = run_board(p, board, kNow + 60);
  same_as_all(second, kNow + 60);
  CHECK(second.stats.described_slots == 4);
  CHECK(board.parts().in_place == 4);
  CHECK(board.parts().bundled == 4);
  CHECK(board.parts().bundles == 1);
  CHECK(board.find(11)->find("MyCurrentTime") != nullptr);
  CHECK(classad::evaluate_attr(*board.find(11), "MyCurrentTime").as_int() == kNow + 60);
  board.set(11, busy(1, "u3@example.org", kNow + 120));
  board.set(12, slot("slot1_2@busy"));
  const auto third = run_board(p, board, kNow + 120);
  same_as_all(third, kNow + 120);
  CHECK(board.parts().in_place == 0);  // one moved, one left its bundle
  CHECK(board.parts().bundled == 3);
  CHECK(board.parts().bundles == 2);  // u1's two, u3's one
  CHECK(board.claimed().size() == 3);
  CHECK(third.matches.size() == 2);  // the idle slot and the one whose job ended
}
