// What a slot board keeps of its slots from one cycle to the next (issue
// 29: a simulated cycle ranks and keys the same unchanged idle slots again
// and again) follows what it was worked out from: the negotiator's rank
// expressions and the clock; and what the slots it leaves out hold is
// still what the cycle's Remote* attributes tell.
#include "model/negotiation/slot_board.h"
#include "tests/unit/negotiation/support.h"

using namespace cara;
using namespace cara::test;

namespace {

negotiation::CycleResult run_board(Pool& p, negotiation::SlotBoard& board, std::int64_t now) {
  classad::EvalEnv env;
  env.now = now;
  negotiation::NegotiationCycle cycle(p.policy, p.accountant, p.groups, env);
  return cycle.run(board, p.submitters);
}

// The one match of a cycle over `board` and of one over all its ads,
// which must agree: the matched slot's name.
std::string matched(Pool& p, negotiation::SlotBoard& board, std::int64_t now) {
  const negotiation::CycleResult r = run_board(p, board, now);
  Pool all("");
  all.policy = p.policy;
  all.slots = board.ads();
  all.submitters = p.submitters;
  const negotiation::CycleResult plain = all.run(true, true, 0, nullptr, now);
  REQUIRE(r.matches.size() == 1);
  REQUIRE(plain.matches.size() == 1);
  CHECK(r.matches[0].slot_name == plain.matches[0].slot_name);
  return r.matches[0].slot_name;
}

negotiation::NegotiatorPolicy policy(const std::string& text) {
  auto p = negotiation::NegotiatorPolicy::from_config(negotiator_config(text));
  if (!p) FAIL(p.error());
  return std::move(*p);
}

// Three idle slots slot1@m1..m3 the class key tells apart by KFlops
// (1000, 2000, 3000), which stay unchanged from one cycle to the next.
void three_speeds(negotiation::SlotBoard& board) {
  for (int k = 1; k <= 3; ++k)
    board.set(static_cast<negotiation::SlotBoard::Key>(k),
              slot("slot1@m" + std::to_string(k), "KFlops = " + std::to_string(1000 * k)));
}

}  // namespace

TEST_CASE("a board's slots are ranked by the negotiator's expressions of the cycle, not those of the last",
          "[negotiation][issue29]") {
  // A job for one of three_speeds() each cycle.
  Pool p("NEGOTIATOR_PRE_JOB_RANK = KFlops\nNEGOTIATOR_POST_JOB_RANK = 0\n");
  negotiation::SlotBoard board;
  three_speeds(board);
  p.submit("u1@example.org", 1, 1);
  CHECK(matched(p, board, kNow) == "slot1@m3");
  // condor_reconfig: the fastest last.
  p.policy = policy("NEGOTIATOR_PRE_JOB_RANK = 0 - KFlops\nNEGOTIATOR_POST_JOB_RANK = 0\n");
  CHECK(matched(p, board, kNow + 60) == "slot1@m1");
  // And by the NEGOTIATOR_POST_JOB_RANK of the cycle.
  p.policy = policy("NEGOTIATOR_PRE_JOB_RANK = 0\nNEGOTIATOR_POST_JOB_RANK = KFlops\n");
  CHECK(matched(p, board, kNow + 120) == "slot1@m3");
}

TEST_CASE("a board's slots ranked by an expression of the clock are ranked anew each cycle",
          "[negotiation][issue29]") {
  const std::string turn = std::to_string(kNow + 100);
  Pool p("NEGOTIATOR_PRE_JOB_RANK = ifThenElse(time() > " + turn +
         ", KFlops, 0 - KFlops)\nNEGOTIATOR_POST_JOB_RANK = 0\n");
  negotiation::SlotBoard board;
  three_speeds(board);
  p.submit("u1@example.org", 1, 1);
  CHECK(matched(p, board, kNow) == "slot1@m1");
  CHECK(matched(p, board, kNow + 200) == "slot1@m3");
}

TEST_CASE("RemoteGroupResourcesInUse on a board counts the busy slots it left out",
          "[negotiation][issue29]") {
  // group_a's user runs five jobs: four on slots no request can take
  // (Rank 0 at CurrentRank 0: bundled, all but one summed in the digest)
  // and one on a slot whose Rank prefers any new job, which a job of u3
  // may take by rank preemption, unless group_a holds three or more.
  const std::string config =
      "GROUP_NAMES = group_a, group_b\nGROUP_QUOTA_group_a = 10\nGROUP_QUOTA_group_b = 10\n";
  Pool p(config);
  negotiation::SlotBoard board;
  const std::string user = "group_a.u4@example.org";
  for (int k = 0; k < 4; ++k)
    board.set(static_cast<negotiation::SlotBoard::Key>(10 + k),
              busy_slot("slot1_" + std::to_string(k + 1) + "@busy", user, "SlotID = 1; DynamicSlot = true"));
  board.set(20, busy_slot("slot1@takeable", user, "Rank = 1"));
  p.submit("u3@example.org", 1, 1,
           "Requirements = TARGET.RemoteGroupResourcesInUse =?= undefined || "
           "TARGET.RemoteGroupResourcesInUse < 3");
  const negotiation::CycleResult r = run_board(p, board, kNow);
  CHECK(r.stats.summed_slots >= 3);
  Pool all(config);
  all.slots = board.ads();
  all.submitters = p.submitters;
  const negotiation::CycleResult plain = all.run();
  CHECK(plain.matches.empty());
  CHECK(r.matches.empty());
  REQUIRE(r.rejections.size() == 1);
  REQUIRE(plain.rejections.size() == 1);
  CHECK(r.rejections[0].reason == plain.rejections[0].reason);
  // With a limit above what the group holds, the slot is taken.
  Pool q(config);
  q.submit("u3@example.org", 1, 1,
           "Requirements = TARGET.RemoteGroupResourcesInUse =?= undefined || "
           "TARGET.RemoteGroupResourcesInUse < 6");
  const negotiation::CycleResult taken = run_board(q, board, kNow + 10);
  REQUIRE(taken.matches.size() == 1);
  CHECK(taken.matches[0].slot_name == "slot1@takeable");
}
