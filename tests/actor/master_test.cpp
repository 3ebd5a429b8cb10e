// The master actor under CAF's test coordinator (virtual time): a daemon
// that dies of an error comes back after condor_master's backoff, one that
// stops normally does not, and one that ran MASTER_RECOVER_FACTOR seconds
// starts its count again.
#include "actors/master.h"

#include "actor/caf_catch.h"
#include "actors/message_types.h"

using namespace cara;
using namespace cara::actors;

namespace {

struct MasterFixture : test_coordinator_fixture<> {
  std::vector<caf::actor> spawned;  // every instance of the daemon, in order
  master_actor master;

  explicit MasterFixture(node::RestartBackoff backoff = {}) {
    MasterSetup s;
    s.daemons.push_back(
        {"SCHEDD",
         [this](caf::actor_system& system) -> Result<caf::actor> {
           // (A spawn argument: CAF 0.17 dereferences a null
           // tuple for a function actor without any, which
           // UBSan reports.)
           spawned.push_back(system.spawn(
               [](caf::event_based_actor*, int) -> caf::behavior { return {[](std::int32_t) {}}; }, 0));
           return spawned.back();
         },
         backoff});
    s.clock = PoolClock{1700000000};
    auto m = spawn_master(sys, s);
    if (!m) FAIL(m.error());
    master = *m;
    settle();
  }
  ~MasterFixture() override {
    caf::anon_send_exit(master, caf::exit_reason::user_shutdown);
    for (const caf::actor& a : spawned) caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
    settle();
  }
  void settle() {
    while (consume_message()) {
    }
  }
  void crash() {
    caf::anon_send_exit(spawned.back(), caf::exit_reason::kill);
    settle();
  }
  void advance(std::int64_t seconds) {
    advance_time(std::chrono::seconds(seconds));
    settle();
  }
  std::int32_t restarts() {
    auto h = self->request(master, caf::infinite, MasterStatusQuery{});
    settle();
    std::int32_t n = -1;
    h.receive([&](MasterStatus& s) { n = s.restarts.at(0); }, [](caf::error& e) { FAIL(caf::to_string(e)); });
    return n;
  }
};

}  // namespace

TEST_CASE("a crashed daemon restarts after 10 s, then 11 s, then 13 s", "[master][actor]") {
  MasterFixture f;
  REQUIRE(f.spawned.size() == 1);
  for (std::int64_t delay : {10, 11, 13}) {
    const std::size_t before = f.spawned.size();
    f.crash();
    f.advance(delay - 1);
    CHECK(f.spawned.size() == before);  // not yet
    f.advance(1);
    CHECK(f.spawned.size() == before + 1);
  }
  CHECK(f.restarts() == 3);
}

TEST_CASE("a daemon that stops normally is not restarted", "[master][actor]") {
  MasterFixture f;
  caf::anon_send_exit(f.spawned.back(), caf::exit_reason::user_shutdown);
  f.settle();
  f.advance(4000);
  CHECK(f.spawned.size() == 1);
}

TEST_CASE("condor_off, on and restart -daemon: one daemon stops, starts, restarts", "[master][actor]") {
  MasterFixture f;
  auto control = [&](const std::string& what, const std::string& daemon, bool fast = false) {
    auto h = f.self->request(f.master, caf::infinite, DaemonControl{what, daemon, fast});
    f.settle();
    CommandReply reply;
    h.receive([&](CommandReply& r) { reply = r; }, [](caf::error& e) { FAIL(caf::to_string(e)); });
    return reply;
  };
  // Off: it stops and stays stopped, even when killed on the way out.
  const CommandReply off = control("off", "schedd", true);
  CHECK(off.ok);
  CHECK(off.error == "off SCHEDD");
  f.advance(4000);
  CHECK(f.spawned.size() == 1);
  // On: it starts at once.
  CHECK(control("on", "SCHEDD").ok);
  CHECK(f.spawned.size() == 2);
  // Restart: it stops and starts again at once, without a backoff.
  CHECK(control("restart", "").ok);
  CHECK(f.spawned.size() == 3);
  CHECK(f.restarts() == 0);
  const CommandReply none = control("off", "STARTD");
  CHECK_FALSE(none.ok);
  CHECK(none.error == "this node runs no STARTD; it runs SCHEDD");
  CHECK_FALSE(control("pause", "SCHEDD").ok);
}

TEST_CASE("a daemon that ran MASTER_RECOVER_FACTOR seconds starts its backoff again", "[master][actor]") {
  node::RestartBackoff b;
  b.recover = 60;
  MasterFixture f(b);
  f.crash();
  f.advance(10);
  f.crash();
  f.advance(11);
  REQUIRE(f.spawned.size() == 3);
  f.advance(60);  // runs a minute: recovered
  f.crash();
  f.advance(9);
  CHECK(f.spawned.size() == 3);
  f.advance(1);  // the first delay again
  CHECK(f.spawned.size() == 4);
  CHECK(f.restarts() == 1);
}

namespace {

// A master with a collector and a negotiator; the node's collectors are
// its own (the newest spawned) and `remote` (another central manager's).
struct CollectorsFixture : test_coordinator_fixture<> {
  std::vector<caf::actor> collectors;
  caf::actor remote;
  std::vector<collector_actor> told;  // what the negotiator heard
  int heard = 0;
  master_actor master;
  caf::actor other;
  // (An argument: CAF 0.17 trips over a spawned function that takes none.)
  static caf::behavior inert(caf::event_based_actor*, int) {
    return {[](AdUpdate&) {}};  // the master's ad
  }
  CollectorsFixture() {
    remote = sys.spawn(inert, 0);
    MasterSetup s;
    s.daemons.push_back({"COLLECTOR",
                         [this](caf::actor_system& system) -> Result<caf::actor> {
                           collectors.push_back(system.spawn(inert, 0));
                           return collectors.back();
                         },
                         {}});
    s.daemons.push_back({"NEGOTIATOR",
                         [this](caf::actor_system& system) -> Result<caf::actor> {
                           other = system.spawn(
                               [this](caf::event_based_actor*, int) -> caf::behavior {
                                 return {[this](Collectors& c) {
                                   told = c.collectors;
                                   ++heard;
                                 }};
                               },
                               0);
                           return other;
                         },
                         {}});
    s.collectors = [this] {
      return std::vector<collector_actor>{caf::actor_cast<collector_actor>(collectors.back()),
                                          caf::actor_cast<collector_actor>(remote)};
    };
    s.clock = PoolClock{1700000000};
    master = *spawn_master(sys, s);
    settle();
  }
  // The messages there are, not the timers: the master advertises itself
  // every update_interval, for ever (run() would follow it).
  void settle() {
    while (consume_message()) {
    }
  }
  ~CollectorsFixture() override {
    caf::anon_send_exit(master, caf::exit_reason::user_shutdown);
    for (const caf::actor& a : collectors) caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
    caf::anon_send_exit(other, caf::exit_reason::user_shutdown);
    caf::anon_send_exit(remote, caf::exit_reason::user_shutdown);
    settle();
  }
};

}  // namespace

TEST_CASE("after restarting the collector the master tells the node's other daemons where it is",
          "[master][actor]") {
  CollectorsFixture f;
  caf::anon_send_exit(f.collectors.back(), caf::exit_reason::kill);
  f.settle();
  f.advance_time(std::chrono::seconds(10));
  f.settle();
  REQUIRE(f.collectors.size() == 2);
  // The whole list, the new local collector first: a central manager's
  // negotiator keeps reporting to the other central managers' too.
  REQUIRE(f.told.size() == 2);
  CHECK(f.told[0] == caf::actor_cast<collector_actor>(f.collectors[1]));
  CHECK(f.told[1] == caf::actor_cast<collector_actor>(f.remote));
}

TEST_CASE("the node's word that its collectors changed reaches the daemons through the master",
          "[master][actor]") {
  CollectorsFixture f;
  // From another node: not taken.
  caf::anon_send(f.master, Collectors{});
  f.settle();
  CHECK(f.heard == 0);
  // From this node (the collector watch, the had): the daemons hear the
  // list as the node has it now.
  f.self->send(f.master, Collectors{});
  f.settle();
  CHECK(f.heard == 1);
  REQUIRE(f.told.size() == 2);
  CHECK(f.told[1] == caf::actor_cast<collector_actor>(f.remote));
}

// Stopping a node (issue 19): the startd is told first and let its jobs go;
// the other daemons stop once it has; a graceful stop that takes
// SHUTDOWN_GRACEFUL_TIMEOUT turns fast, a fast one that takes
// SHUTDOWN_FAST_TIMEOUT kills what is left; nothing is restarted meanwhile;
// the node hears once that everything has stopped.
namespace {

struct StopFixture : test_coordinator_fixture<> {
  caf::actor startd, schedd;
  std::vector<bool> stops;  // the NodeStop messages the startd got: fast or not
  bool schedd_gone = false;
  int stopped = 0;
  master_actor master;

  StopFixture() {
    MasterSetup s;
    s.daemons.push_back(
        {"STARTD",
         [this](caf::actor_system& system) -> Result<caf::actor> {
           // A startd whose job takes its time: it ends when told to.
           startd = system.spawn(
               [this](caf::event_based_actor*, int) -> caf::behavior {
                 return {[this](NodeStop& n) { stops.push_back(n.fast); }, [](std::int32_t) {}};
               },
               0);
           return startd;
         },
         {}});
    s.daemons.push_back(
        {"SCHEDD",
         [this](caf::actor_system& system) -> Result<caf::actor> {
           schedd = system.spawn(
               [](caf::event_based_actor*, int) -> caf::behavior { return {[](std::int32_t) {}}; }, 0);
           return schedd;
         },
         {}});
    s.clock = PoolClock{1700000000};
    s.shutdown_graceful = 30;
    s.shutdown_fast = 10;
    s.stopped = [this] { ++stopped; };
    master = *spawn_master(sys, s);
    settle();
  }
  ~StopFixture() override {
    caf::anon_send_exit(master, caf::exit_reason::user_shutdown);
    caf::anon_send_exit(startd, caf::exit_reason::user_shutdown);
    caf::anon_send_exit(schedd, caf::exit_reason::user_shutdown);
    settle();
  }
  // Delivers messages; timers fire only when time is advanced.
  void settle() {
    while (consume_message()) {
    }
  }
  bool alive(const caf::actor& a) {
    auto h = self->request(a, caf::infinite, std::int32_t{1});
    settle();
    bool ok = true;
    h.receive([] {}, [&](caf::error&) { ok = false; });
    return ok;
  }
  void stop(bool fast) {
    self->send(master, NodeStop{fast});
    settle();
  }
  void advance(std::int64_t seconds) {
    advance_time(std::chrono::seconds(seconds));
    settle();
  }
};

}  // namespace

TEST_CASE("a graceful stop: the startd first, the rest after it", "[master][actor][stop]") {
  StopFixture f;
  f.stop(false);
  REQUIRE(f.stops == std::vector<bool>{false});
  CHECK(f.alive(f.schedd));                                        // waits for the startd
  caf::anon_send_exit(f.startd, caf::exit_reason::user_shutdown);  // its jobs have left
  f.settle();
  CHECK_FALSE(f.alive(f.schedd));
  CHECK(f.stopped == 1);
  f.advance(100);  // nothing restarts, nothing more happens
  CHECK(f.stopped == 1);
}

TEST_CASE("a graceful stop past SHUTDOWN_GRACEFUL_TIMEOUT turns fast, then kills what is left",
          "[master][actor][stop]") {
  StopFixture f;
  f.stop(false);
  f.advance(29);
  CHECK(f.stops == std::vector<bool>{false});
  f.advance(1);
  CHECK(f.stops == std::vector<bool>{false, true});  // fast now
  CHECK(f.stopped == 0);
  f.advance(10);  // SHUTDOWN_FAST_TIMEOUT: the startd that would not end is killed
  CHECK_FALSE(f.alive(f.startd));
  CHECK_FALSE(f.alive(f.schedd));
  CHECK(f.stopped == 1);
}

TEST_CASE("a second request to stop fast escalates, a graceful one after a fast one does nothing",
          "[master][actor][stop]") {
  StopFixture f;
  f.stop(false);
  f.stop(true);
  CHECK(f.stops == std::vector<bool>{false, true});
  f.stop(false);
  f.stop(true);
  CHECK(f.stops == std::vector<bool>{false, true});
  // The fast deadline counts from the escalation: the old graceful one is stale.
  f.advance(9);
  CHECK(f.alive(f.startd));
  f.advance(1);
  CHECK_FALSE(f.alive(f.startd));
  CHECK(f.stopped == 1);
}
