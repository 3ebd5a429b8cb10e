// A slot board fed a collector's list every cycle (model/negotiation/
// board_feed.h, issue 30): keys in the list's order, unchanged ads not
// described again, slots gone erased; and a cycle over the fed board gives
// what a cycle over the list gives.
#include "model/negotiation/board_feed.h"

#include "tests/unit/negotiation/random_pools.h"
#include "tests/unit/negotiation/support.h"

using namespace cara;
using namespace cara::test;

namespace {

using Key = negotiation::SlotBoard::Key;

std::vector<classad::ClassAd> named_slots(std::initializer_list<const char*> names) {
  std::vector<classad::ClassAd> v;
  for (const char* n : names) v.push_back(slot(n, "SlotID = 1"));
  return v;
}

void check_increasing(const std::vector<Key>& keys) {
  for (std::size_t i = 1; i < keys.size(); ++i) CHECK(keys[i - 1] < keys[i]);
}

std::int64_t described(negotiation::SlotBoard& board, const negotiation::NegotiatorPolicy& policy) {
  classad::EvalEnv env;
  env.now = kNow;
  board.prepare(policy, env);
  return board.take_described();
}

}  // namespace

TEST_CASE("a fed board keys slots in the list's order and describes only what changed",
          "[negotiation][issue30]") {
  Pool p("");
  negotiation::SlotBoard board;
  negotiation::BoardFeed feed;
  std::vector<classad::ClassAd> list = named_slots({"slot1@a", "slot1@c", "slot1@e"});
  const std::vector<Key> first = feed.feed(board, list);
  check_increasing(first);
  CHECK(described(board, p.policy) == 3);
  // The same list: nothing new.
  CHECK(feed.feed(board, list) == first);
  CHECK(described(board, p.policy) == 0);

  SECTION("a new slot between two takes a key between theirs; the others keep theirs") {
    list.insert(list.begin() + 1, slot("slot1@b", "SlotID = 1"));
    const std::vector<Key> keys = feed.feed(board, list);
    REQUIRE(keys.size() == 4);
    check_increasing(keys);
    CHECK(keys[0] == first[0]);
    CHECK(keys[2] == first[1]);
    CHECK(keys[3] == first[2]);
    CHECK(described(board, p.policy) == 1);
    CHECK(board.keys() == keys);
  }
  SECTION("a slot gone is erased; a replaced ad is described again") {
    list.erase(list.begin() + 1);
    list[1] = slot("slot1@e", "SlotID = 1; Memory = 99");
    const std::vector<Key> keys = feed.feed(board, list);
    CHECK(keys == std::vector<Key>{first[0], first[2]});
    CHECK(board.size() == 2);
    CHECK(described(board, p.policy) == 1);
  }
  SECTION("a slot that moved takes a new key") {
    std::swap(list[0], list[2]);
    const std::vector<Key> keys = feed.feed(board, list);
    check_increasing(keys);
    CHECK(board.size() == 3);
    CHECK(board.keys() == keys);
    CHECK(board.find(keys[0])->identity() == list[0].identity());
    CHECK(described(board, p.policy) == 2);  // e keeps its key, a and c come after it
  }
  SECTION("a name given twice, or none, is that list's alone") {
    list.push_back(slot("slot1@a", "SlotID = 2"));
    classad::ClassAd unnamed = slot("x", "SlotID = 1");
    unnamed.erase("Name");
    list.push_back(unnamed);
    const std::vector<Key> keys = feed.feed(board, list);
    check_increasing(keys);
    CHECK(board.size() == 5);
    list.resize(3);
    CHECK(feed.feed(board, list) == first);
    CHECK(board.size() == 3);
  }
  SECTION("cleared, the board holds none of the feed's slots") {
    feed.clear(board);
    CHECK(board.size() == 0);
    check_increasing(feed.feed(board, list));
    CHECK(board.size() == 3);
  }
}

TEST_CASE("a fed board keys every slot anew when no key is left between two neighbours",
          "[negotiation][issue30]") {
  Pool p("");
  negotiation::SlotBoard board;
  negotiation::BoardFeed feed(2);  // keys 2, 4, 6: one key between two neighbours
  std::vector<classad::ClassAd> list = named_slots({"slot1@a", "slot1@c", "slot1@e"});
  CHECK(feed.feed(board, list) == std::vector<Key>{2, 4, 6});
  CHECK(described(board, p.policy) == 3);
  list.insert(list.begin() + 1, slot("slot1@b", "SlotID = 1"));
  CHECK(feed.feed(board, list) == std::vector<Key>{2, 3, 4, 6});
  CHECK(feed.rekeyed() == 0);
  CHECK(described(board, p.policy) == 1);
  list.insert(list.begin() + 1, slot("slot1@ab", "SlotID = 1"));
  const std::vector<Key> keys = feed.feed(board, list);
  CHECK(keys == std::vector<Key>{2, 4, 6, 8, 10});
  CHECK(feed.rekeyed() == 1);
  CHECK(board.size() == 5);
  CHECK(board.keys() == keys);
  CHECK(described(board, p.policy) == 5);
  for (std::size_t i = 0; i < list.size(); ++i) CHECK(board.find(keys[i])->identity() == list[i].identity());
}

TEST_CASE("cycles over a fed board give a cycle's matches, order and reasons over the list",
          "[negotiation][issue30][differential]") {
  // Episodes of six cycles over a list that changes between them as a
  // collector's does: ads replaced, slots gone, new ones anywhere, two
  // neighbours swapped. A small spacing makes the feed key all anew now
  // and then.
  Random r{std::mt19937(20261202)};
  std::int64_t matched = 0, rejected = 0, rekeyed = 0;
  for (int episode = 0; episode < 150; ++episode) {
    const std::string config = random_config(r);
    Pool boarded(config), fresh(config);
    fill_random_pool(r, episode, boarded, fresh);
    for (int k = 0, n = r.pick(12); k < n; ++k)
      fresh.slots.push_back(slot("slot1_" + std::to_string(k + 1) + "@busy" + std::to_string(r.pick(3)),
                                 "SlotID = 1; DynamicSlot = true; State = \"Claimed\"; Activity = \"Busy\"; "
                                 "RemoteUser = \"u1@example.org\"; CurrentRank = 0; Rank = 0",
                                 1));
    negotiation::SlotBoard board;
    negotiation::BoardFeed feed(episode % 3 == 0 ? 4 : Key{1} << 32);
    std::int64_t now = kNow;
    int fresh_names = 0;
    for (int step = 0; step < 6; ++step) {
      INFO("episode " << episode << ", step " << step);
      const std::vector<Key> keys = feed.feed(board, fresh.slots);
      REQUIRE(board.size() == fresh.slots.size());
      classad::EvalEnv env;
      env.now = now;
      negotiation::NegotiationCycle cycle(boarded.policy, boarded.accountant, boarded.groups, env);
      auto a = cycle.run(board, boarded.submitters);
      auto b = fresh.run(true, true, 0, nullptr, now);
      for (auto& m : b.matches) {
        m.slot = keys[m.slot];
        for (std::size_t& v : m.victims) v = keys[v];
      }
      check_same(a, b);
      CHECK(a.stats.total_slots == b.stats.total_slots);
      matched += static_cast<std::int64_t>(a.matches.size());
      rejected += static_cast<std::int64_t>(a.rejections.size());
      // The collector's list changes.
      std::vector<classad::ClassAd>& list = fresh.slots;
      for (std::size_t i = 0; i < list.size(); ++i) {
        if (r.chance(8)) {
          list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));
        } else if (r.chance(8)) {
          list[i] = slot("slot1@new" + std::to_string(++fresh_names), slot_extra(r, 0, 1, r.chance(3)),
                         1 + r.pick(2));
        }
      }
      for (int k = 0, n = r.pick(4); k < n; ++k) {
        const auto at = static_cast<std::ptrdiff_t>(r.pick(static_cast<int>(list.size()) + 1));
        list.insert(list.begin() + at, slot("slot1@in" + std::to_string(++fresh_names),
                                            slot_extra(r, 0, 1, r.chance(3)), 1 + r.pick(2)));
      }
      if (list.size() > 1 && r.chance(3)) {
        const auto at = static_cast<std::size_t>(r.pick(static_cast<int>(list.size()) - 1));
        std::swap(list[at], list[at + 1]);
      }
      if (r.chance(2)) {
        const std::string extra = job_extra(r);
        const char* user = kUsers[r.pick(5)];
        const int count = 1 + r.pick(3);
        boarded.submit(user, 10000 + 10 * episode + step, count, extra);
        fresh.submit(user, 10000 + 10 * episode + step, count, extra);
      }
      now += r.pick(600);
    }
    rekeyed += feed.rekeyed();
  }
  CHECK(matched > 1000);
  CHECK(rejected > 100);
  CHECK(rekeyed > 10);
}
