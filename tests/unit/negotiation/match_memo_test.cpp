// Match answers kept from cycle to cycle (model/negotiation/match_memo.h,
// issue 30: NEGOTIATOR_MATCHLIST_CACHING across cycles): a negotiator's next
// cycle over unchanged slots and jobs asks no family's match again; a slot
// or job that changed is asked anew, and an answer that read the clock is
// never kept. Each cycle gives what a cycle over every ad without a memo
// gives.
#include "model/negotiation/match_memo.h"

#include "model/negotiation/slot_board.h"
#include "tests/unit/negotiation/random_pools.h"
#include "tests/unit/negotiation/support.h"

using namespace cara;
using namespace cara::test;

namespace {

using Key = negotiation::SlotBoard::Key;

negotiation::CycleResult on_board(Pool& p, negotiation::SlotBoard& board, std::int64_t now = kNow) {
  classad::EvalEnv env;
  env.now = now;
  negotiation::NegotiationCycle cycle(p.policy, p.accountant, p.groups, env);
  return cycle.run(board, p.submitters);
}

// A cycle over every ad of `board`, without a memo, for `submit`'s jobs;
// its slots named by board keys.
template <class Submit>
negotiation::CycleResult fresh(const negotiation::SlotBoard& board, Submit submit, std::int64_t now = kNow) {
  Pool all("");
  all.slots = board.ads();
  submit(all);
  auto r = all.run(true, true, 0, nullptr, now);
  const std::vector<Key> keys = board.keys();
  for (auto& m : r.matches) m.slot = keys[m.slot];
  return r;
}

}  // namespace

TEST_CASE("a next cycle over unchanged slots and jobs asks no family's match again",
          "[negotiation][issue30][memo]") {
  // Three kinds of slot; u1's jobs need 3 GB (only the big ones), u2's
  // need a Site the slots do not have, u3's match every slot.
  Pool p("");
  negotiation::SlotBoard board;
  for (int k = 0; k < 6; ++k) {
    const std::string memory = k < 2 ? "4096" : k < 4 ? "2048" : "1024";
    board.set(static_cast<Key>(k + 1), slot("slot1@m" + std::to_string(k), "Memory = " + memory));
  }
  auto submit = [](Pool& q) {
    q.submit("u1@example.org", 1, 3, "RequestMemory = 3072; Requirements = TARGET.Memory >= RequestMemory");
    q.submit("u2@example.org", 2, 2, "Requirements = TARGET.Site == \"T9\"");
    q.submit("u3@example.org", 3, 1, "RequestMemory = 512; Requirements = TARGET.Memory >= RequestMemory");
  };
  submit(p);
  const auto first = on_board(p, board);
  check_same(first, fresh(board, submit));
  CHECK(first.stats.kept_matches == 0);
  CHECK(first.stats.slot_evaluations > 0);
  // Nothing acted on the matches: the same slots, the same jobs.
  const auto second = on_board(p, board);
  check_same(second, first);
  CHECK(second.stats.kept_matches > 0);
  CHECK(second.stats.slot_evaluations < first.stats.slot_evaluations);
  CHECK(second.stats.slot_evaluations + second.stats.kept_matches >= first.stats.slot_evaluations);

  SECTION("a slot that changed is asked anew") {
    // The big slots shrink: u1's jobs match nothing now.
    board.set(1, slot("slot1@m0", "Memory = 1024"));
    board.set(2, slot("slot1@m1", "Memory = 1024"));
    const auto third = on_board(p, board);
    check_same(third, fresh(board, submit));
    for (const auto& m : third.matches) CHECK(m.submitter != "u1@example.org");
  }

  SECTION("a job that changed is asked anew") {
    // u2's job now asks for what every slot has (its ad, changed, has
    // another identity).
    p.jobs[1]->insert("Requirements", classad::parse_expression("TARGET.Memory >= 1024").value());
    const auto third = on_board(p, board);
    auto changed = [](Pool& q) {
      q.submit("u1@example.org", 1, 3, "RequestMemory = 3072; Requirements = TARGET.Memory >= RequestMemory");
      q.submit("u2@example.org", 2, 2, "Requirements = TARGET.Memory >= 1024");
      q.submit("u3@example.org", 3, 1, "RequestMemory = 512; Requirements = TARGET.Memory >= RequestMemory");
    };
    check_same(third, fresh(board, changed));
    int u2 = 0;
    for (const auto& m : third.matches) u2 += m.submitter == "u2@example.org" ? 1 : 0;
    CHECK(u2 == 2);
  }
}

TEST_CASE("a match that reads the clock is not kept from one cycle to the next",
          "[negotiation][issue30][memo]") {
  Pool p("");
  negotiation::SlotBoard board;
  board.set(1, slot("slot1@m0"));
  board.set(2, slot("slot1@m1"));
  const std::string until = std::to_string(kNow + 100);
  auto submit = [&](Pool& q) { q.submit("u1@example.org", 1, 2, "Requirements = time() < " + until); };
  submit(p);
  const auto before = on_board(p, board, kNow);
  CHECK(before.matches.size() == 2);
  const auto after = on_board(p, board, kNow + 200);
  check_same(after, fresh(board, submit, kNow + 200));
  CHECK(after.matches.empty());
  CHECK(after.stats.kept_matches == 0);
}

TEST_CASE("match answers are kept for the jobs of the last cycle only", "[negotiation][issue30][memo]") {
  negotiation::MatchMemo memo;
  const classad::ClassAd a = job("Department = \"physics\""), b = job("Department = \"chemistry\"");
  memo.begin();
  memo.job(a, 7)->set("family x", true);
  memo.job(b, 7)->set("family x", false);
  memo.begin();
  CHECK(memo.job(a, 7)->get("family x") == negotiation::MatchMemo::kYes);
  // Another generation of family keys: nothing kept applies.
  CHECK(memo.job(b, 8)->get("family x") == negotiation::MatchMemo::kUnknown);
  memo.begin();
  // a's answer was asked in the last cycle: still kept; b asked nothing.
  CHECK(memo.job(a, 7)->get("family x") == negotiation::MatchMemo::kYes);
  memo.begin();
  memo.begin();
  // A cycle that did not ask for a: forgotten.
  CHECK(memo.size() == 0);
  CHECK(memo.job(a, 7)->get("family x") == negotiation::MatchMemo::kUnknown);
  // An ad without attributes has no identity to keep answers by.
  CHECK(memo.job(classad::ClassAd{}, 7) == nullptr);
}
