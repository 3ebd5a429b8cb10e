// Which central manager runs the negotiator (model/ha/election.h):
// central-manager-configuration, "High Availability of the Central
// Manager" (the first reachable member of HAD_LIST; HAD_USE_PRIMARY), and
// caracara's majority rule and terms.
#include "model/ha/election.h"

#include <catch2/catch.hpp>

using namespace cara::ha;

namespace {

constexpr std::int64_t kTimeout = 1000;  // HAD_CONNECTION_TIMEOUT = 1 s

// A group of elections that hear each other as a test says.
struct Group {
  std::vector<Election> members;
  Group(std::size_t n, bool use_primary, std::int64_t now = 0) {
    for (std::size_t i = 0; i < n; ++i) members.emplace_back(n, i, use_primary, kTimeout, now);
  }
  // Member `to` hears member `from`.
  void hear(std::size_t to, std::size_t from, std::int64_t now) {
    members[to].heard(from, members[from].view(), now);
  }
  // Everyone in `side` hears everyone else in it.
  void exchange(const std::vector<std::size_t>& side, std::int64_t now) {
    for (std::size_t a : side)
      for (std::size_t b : side)
        if (a != b) hear(a, b, now);
  }
};

}  // namespace

TEST_CASE("two central managers: the first of HAD_LIST becomes active after listening", "[ha][election]") {
  Group g(2, false);
  // Until it heard the other (or an active one), each only listens.
  CHECK(g.members[0].decide(500).kind == RoleChange::None);
  CHECK(g.members[1].decide(500).kind == RoleChange::None);
  g.exchange({0, 1}, 900);
  const RoleChange first = g.members[0].decide(1000);
  CHECK(first.kind == RoleChange::Activate);
  CHECK(first.term == 1);
  CHECK_FALSE(first.catch_up_from);
  CHECK(g.members[1].decide(1000).kind == RoleChange::None);  // member 0 is first and reachable
  g.exchange({0, 1}, 1100);
  CHECK(g.members[1].decide(1100).kind == RoleChange::None);
  CHECK(g.members[0].active());
  CHECK_FALSE(g.members[1].active());
}

TEST_CASE("a lone central manager of one is active at once", "[ha][election]") {
  Election e(1, 0, false, kTimeout, 0);
  const RoleChange c = e.decide(0);
  CHECK(c.kind == RoleChange::Activate);
  CHECK(c.term == 1);
}

TEST_CASE("the stored term is the floor of the next one", "[ha][election]") {
  Election e(1, 0, false, kTimeout, 0);
  e.set_version(StateVersion{7, 40});
  CHECK(e.decide(0).term == 8);
}

TEST_CASE("failover: the standby takes over in a newer term when the active's link drops", "[ha][election]") {
  Group g(2, false);
  g.exchange({0, 1}, 900);
  REQUIRE(g.members[0].decide(1000).kind == RoleChange::Activate);
  g.members[0].set_version(StateVersion{1, 5});
  g.exchange({0, 1}, 1100);
  g.members[1].set_version(StateVersion{1, 5});  // replicated
  CHECK(g.members[1].decide(1100).kind == RoleChange::None);
  // kill -9 of member 0: its link drops, member 1 hears of it at once.
  g.members[1].lost(0);
  const RoleChange c = g.members[1].decide(1101);
  CHECK(c.kind == RoleChange::Activate);
  CHECK(c.term == 2);
  CHECK_FALSE(c.catch_up_from);
}

TEST_CASE("a central manager not heard from for HAD_CONNECTION_TIMEOUT counts as down", "[ha][election]") {
  Group g(2, false);
  g.exchange({0, 1}, 900);
  REQUIRE(g.members[0].decide(1000).kind == RoleChange::Activate);
  g.exchange({0, 1}, 1100);
  // Member 0 is paused (SIGSTOP): nothing more from it.
  CHECK(g.members[1].decide(2099).kind == RoleChange::None);
  const RoleChange c = g.members[1].decide(2100);
  CHECK(c.kind == RoleChange::Activate);
  CHECK(c.term == 2);
  // Member 0 resumes and hears member 1 active in term 2: it steps down.
  g.hear(0, 1, 2200);
  const RoleChange back = g.members[0].decide(2200);
  CHECK(back.kind == RoleChange::StepDown);
  CHECK(back.reason.find("newer term") != std::string::npos);
}

TEST_CASE("without HAD_USE_PRIMARY the promoted central manager stays active when the first returns",
          "[ha][election]") {
  Group g(2, false);
  g.exchange({0, 1}, 900);
  REQUIRE(g.members[0].decide(1000).kind == RoleChange::Activate);
  g.exchange({0, 1}, 1000);
  g.members[1].lost(0);
  REQUIRE(g.members[1].decide(1001).term == 2);
  // Member 0 restarts: a new election that listens first.
  g.members[0] = Election(2, 0, false, kTimeout, 5000);
  g.members[0].set_version(StateVersion{1, 9});
  g.exchange({0, 1}, 5100);
  CHECK(g.members[0].decide(6000).kind == RoleChange::None);
  g.exchange({0, 1}, 6100);
  CHECK(g.members[1].decide(6100).kind == RoleChange::None);
  CHECK(g.members[1].active());
  CHECK_FALSE(g.members[0].active());
}

TEST_CASE("with HAD_USE_PRIMARY the primary takes over again when it returns", "[ha][election]") {
  Group g(2, true);
  g.exchange({0, 1}, 900);
  REQUIRE(g.members[0].decide(1000).kind == RoleChange::Activate);
  g.exchange({0, 1}, 1000);
  g.members[1].lost(0);
  REQUIRE(g.members[1].decide(1001).term == 2);
  g.members[1].set_version(StateVersion{2, 3});
  g.members[0] = Election(2, 0, true, kTimeout, 5000);
  g.members[0].set_version(StateVersion{1, 2});
  g.exchange({0, 1}, 5100);
  // The primary waits until member 1 has stepped down.
  CHECK(g.members[0].decide(6000).kind == RoleChange::None);
  const RoleChange down = g.members[1].decide(6000);
  CHECK(down.kind == RoleChange::StepDown);
  CHECK(down.reason.find("primary") != std::string::npos);
  g.exchange({0, 1}, 6050);
  const RoleChange up = g.members[0].decide(6050);
  CHECK(up.kind == RoleChange::Activate);
  CHECK(up.term == 3);
  // Member 1's accountant is newer: the primary takes it first.
  REQUIRE(up.catch_up_from);
  CHECK(*up.catch_up_from == 1);
}

TEST_CASE("three central managers: only a side with a majority of HAD_LIST has an active one",
          "[ha][election]") {
  Group g(3, false);
  g.exchange({0, 1, 2}, 900);
  REQUIRE(g.members[0].decide(1000).kind == RoleChange::Activate);
  for (std::size_t i : {1, 2}) CHECK(g.members[i].decide(1000).kind == RoleChange::None);
  g.exchange({0, 1, 2}, 1100);
  // A partition: {0} | {1, 2}.
  g.members[0].lost(1);
  g.members[0].lost(2);
  g.members[1].lost(0);
  g.members[2].lost(0);
  const RoleChange alone = g.members[0].decide(1200);
  CHECK(alone.kind == RoleChange::StepDown);
  CHECK(alone.reason.find("not a majority") != std::string::npos);
  const RoleChange majority = g.members[1].decide(1200);
  CHECK(majority.kind == RoleChange::Activate);
  CHECK(majority.term == 2);
  CHECK(g.members[2].decide(1200).kind == RoleChange::None);
  // A lone member that starts never becomes active.
  Election lone(3, 2, false, kTimeout, 0);
  CHECK(lone.decide(10000).kind == RoleChange::None);
  // Healing: one active again, member 1 of the newer term.
  g.exchange({0, 1, 2}, 1300);
  CHECK(g.members[0].decide(1300).kind == RoleChange::None);
  CHECK(g.members[1].active());
  CHECK(g.members[0].term() == 2);
}

TEST_CASE("two central managers healed after a partition keep the active one of the newer term",
          "[ha][election]") {
  for (bool use_primary : {false, true}) {
    Group g(2, use_primary);
    g.exchange({0, 1}, 900);
    REQUIRE(g.members[0].decide(1000).kind == RoleChange::Activate);
    g.members[0].set_version(StateVersion{1, 4});
    g.members[1].set_version(StateVersion{1, 4});
    // Partition: with two, HTCondor's rule gives each side its active one.
    g.members[0].lost(1);
    g.members[1].lost(0);
    CHECK(g.members[0].decide(1100).kind == RoleChange::None);
    REQUIRE(g.members[1].decide(1100).term == 2);
    g.members[1].set_version(StateVersion{2, 6});
    g.exchange({0, 1}, 2000);
    const RoleChange a = g.members[0].decide(2000);
    const RoleChange b = g.members[1].decide(2000);
    if (!use_primary) {
      // The one of the newer term keeps the role; its state stays.
      CHECK(a.kind == RoleChange::StepDown);
      CHECK(b.kind == RoleChange::None);
      CHECK(g.members[1].active());
    } else {
      // The primary keeps it, in a term above both, with the newer state.
      CHECK(a.kind == RoleChange::Activate);
      CHECK(a.term == 3);
      REQUIRE(a.catch_up_from);
      CHECK(*a.catch_up_from == 1);
      CHECK(b.kind == RoleChange::StepDown);
    }
  }
}

TEST_CASE("a standby whose accountant is older than the lost active's waits a timeout before taking over",
          "[ha][election]") {
  Group g(2, false);
  g.exchange({0, 1}, 900);
  REQUIRE(g.members[0].decide(1000).kind == RoleChange::Activate);
  g.members[0].set_version(StateVersion{1, 8});
  g.members[1].set_version(StateVersion{1, 7});  // it missed the last commit (it was paused)
  g.exchange({0, 1}, 1100);
  // The link drops, but member 0 may live (a connection timed out): it is
  // joined again within the timeout, and its commit is not lost.
  g.members[1].lost(0);
  CHECK(g.members[1].decide(1101).kind == RoleChange::None);
  CHECK(g.members[1].decide(2099).kind == RoleChange::None);
  // Heard again: it is active; nothing changes.
  g.hear(1, 0, 1500);
  CHECK(g.members[1].decide(2099).kind == RoleChange::None);
  // Silent for the whole timeout: it is down, its last commit with it.
  const RoleChange c = g.members[1].decide(2600);
  CHECK(c.kind == RoleChange::Activate);
  CHECK(c.term == 2);
}

// A standby that restarts must not take the role from the running active
// one only because the others had not reached it again yet: it listens
// for HadConfig::startup_listen_ms (two timeouts and two joins' timeouts)
// first.
TEST_CASE("a restarted member listens until the others could reach it again", "[ha][election]") {
  constexpr std::int64_t kListen = 2 * kTimeout + 2 * 2000;
  Group g(2, false);
  g.exchange({0, 1}, 900);
  REQUIRE(g.members[0].decide(1000).kind == RoleChange::Activate);
  // Member 1 restarts at 5000; member 0 reaches it again 1.9 s later.
  g.members[1] = Election(2, 1, false, kTimeout, 5000, kListen);
  CHECK(g.members[1].decide(6500).kind == RoleChange::None);  // one timeout: alone, but still listening
  g.exchange({0, 1}, 6900);
  CHECK(g.members[1].decide(7000).kind == RoleChange::None);
  g.exchange({0, 1}, 8900);
  CHECK(g.members[1].decide(9100).kind == RoleChange::None);  // member 0 is active and reachable
  CHECK(g.members[0].decide(9100).kind == RoleChange::None);
  CHECK(g.members[0].active());
  // Alone for good: once the listening is over it takes the role.
  Election lone(2, 1, false, kTimeout, 20000, kListen);
  CHECK(lone.decide(20000 + kListen - 1).kind == RoleChange::None);
  const RoleChange up = lone.decide(20000 + kListen);
  CHECK(up.kind == RoleChange::Activate);
  CHECK(up.reason == "no other central manager of HAD_LIST is reachable");
}

// A partition heals and the cut-off member hears the others one by one: the
// first it hears is a standby, which hears the active one. It must not take
// the role (it would be a needless change of negotiator, and two active in
// one part where not everyone hears everyone).
TEST_CASE("a member whose partition heals waits for the active one a peer hears", "[ha][election]") {
  Group g(3, false);
  g.exchange({0, 1, 2}, 900);
  REQUIRE(g.members[0].decide(1000).kind == RoleChange::Activate);
  g.exchange({0, 1, 2}, 1100);
  g.members[0].lost(1);
  g.members[0].lost(2);
  g.members[1].lost(0);
  g.members[2].lost(0);
  REQUIRE(g.members[0].decide(1200).kind == RoleChange::StepDown);
  REQUIRE(g.members[1].decide(1200).kind == RoleChange::Activate);
  g.exchange({1, 2}, 1300);
  CHECK(g.members[2].decide(1300).kind == RoleChange::None);
  CHECK(g.members[2].view().sees_active_term == 2);
  // Healed: member 0 hears member 2 first.
  g.hear(0, 2, 5000);
  CHECK(g.members[0].decide(5000).kind == RoleChange::None);
  CHECK_FALSE(g.members[0].active());
  // Then member 1, the active one: it keeps its role.
  g.hear(0, 1, 5010);
  CHECK(g.members[0].decide(5010).kind == RoleChange::None);
  g.hear(1, 0, 5010);
  CHECK(g.members[1].decide(5010).kind == RoleChange::None);
  CHECK(g.members[1].active());
  // The active one dies: once member 2 no longer hears it, member 0 (the
  // first of HAD_LIST) takes the role.
  g.members[0].lost(1);
  g.members[2].lost(1);
  CHECK(g.members[2].decide(5100).kind == RoleChange::None);
  CHECK(g.members[2].view().sees_active_term == 0);
  g.hear(0, 2, 5100);
  const RoleChange up = g.members[0].decide(5100);
  CHECK(up.kind == RoleChange::Activate);
  CHECK(up.term == 4);  // member 0's next own term above 2
}

// Terms are never shared: member i of n takes only terms t with
// (t - 1) mod n = i, so two members that each take one without hearing of
// the other (a partition, a restart alone) differ, and the fences hold.
TEST_CASE("each member's terms are its own", "[ha][election]") {
  // Of three, member 0 (with member 1) and member 1 (with member 2, member
  // 0 gone), each having known of term 4.
  for (std::size_t self : {0, 1}) {
    Group g(3, false);
    for (Election& e : g.members) e.set_version(StateVersion{4, 1});
    g.exchange({self, self + 1}, 2 * kTimeout);
    const RoleChange c = g.members[self].decide(2 * kTimeout);
    REQUIRE(c.kind == RoleChange::Activate);
    CHECK(c.term == (self == 0 ? 7 : 5));
  }
  // Two members cut apart that stored the same term take different ones.
  Election a(2, 0, false, kTimeout, 0), b(2, 1, false, kTimeout, 0);
  a.set_version(StateVersion{6, 2});
  b.set_version(StateVersion{6, 2});
  const RoleChange ta = a.decide(2 * kTimeout), tb = b.decide(2 * kTimeout);
  CHECK(ta.term == 7);
  CHECK(tb.term == 8);
}

// A restarted standby that heard the active one knows the pool: when the
// active one dies it takes over at once, not at the end of its listening.
TEST_CASE("a restarted member that heard the active one takes over at once when it dies", "[ha][election]") {
  constexpr std::int64_t kListen = 2 * kTimeout + 2 * 2000;
  Group g(2, false);
  g.exchange({0, 1}, 900);
  REQUIRE(g.members[0].decide(1000).kind == RoleChange::Activate);
  g.members[1] = Election(2, 1, false, kTimeout, 5000, kListen);
  g.exchange({0, 1}, 5500);
  CHECK(g.members[1].decide(5500).kind == RoleChange::None);
  g.members[1].lost(0);  // kill -9 of the active one, 1 s after the restart
  const RoleChange up = g.members[1].decide(6000);
  CHECK(up.kind == RoleChange::Activate);
  CHECK(up.term == 2);
}
