// The collector actor's forwarding to CONDOR_VIEW_HOST collectors, under
// CAF's test coordinator: a view collector named late gets the ads already
// there, then every update; view hosts come only from the collector's node.
#include "actors/collector.h"

#include <limits>

#include "actor/caf_catch.h"
#include "actors/message_types.h"
#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "tests/support/scratch.h"

using namespace cara;
using namespace cara::actors;

namespace {

struct CollectorsFixture : test_coordinator_fixture<> {
  collector_actor central = spawn(), view = spawn();

  collector_actor spawn() {
    CollectorSetup s;
    s.policy = collector::CollectorPolicy{};
    s.clock = PoolClock{1700000000};
    return *spawn_collector(sys, s);
  }
  ~CollectorsFixture() override {
    caf::anon_send_exit(central, caf::exit_reason::user_shutdown);
    caf::anon_send_exit(view, caf::exit_reason::user_shutdown);
    settle();
  }
  void settle() {
    while (consume_message()) {
    }
  }
  void advertise(const std::string& name) {
    classad::ClassAd ad = *classad::parse_classad("[ MyType = \"Machine\"; Cpus = 1 ]");
    ad.set("Name", name);
    self->send(central, AdUpdate{static_cast<std::int32_t>(collector::AdType::Machine), {WireAd{ad}}, {}});
    settle();
  }
  // The names of `c`'s machine ads that `constraint` accepts, sorted.
  std::vector<std::string> names(const collector_actor& c, const std::string& constraint = "") {
    auto h = self->request(
        c, caf::infinite,
        AdQueryRequest{static_cast<std::int32_t>(collector::AdType::Machine), constraint, {"Name"}, false});
    settle();
    std::vector<std::string> out;
    h.receive(
        [&](AdQueryReply& r) {
          for (const WireAd& a : r.ads)
            out.push_back(std::string(classad::evaluate_attr(a.ad, "Name").as_string()));
        },
        [](caf::error& e) { FAIL(caf::to_string(e)); });
    std::sort(out.begin(), out.end());
    return out;
  }
};

}  // namespace

TEST_CASE("a view collector named late gets the ads there, then every update", "[collector][actor]") {
  CollectorsFixture f;
  f.advertise("slot1@ep1");
  CHECK(f.names(f.view).empty());
  f.self->send(f.central, ViewHosts{{f.view}});
  f.settle();
  CHECK(f.names(f.view) == std::vector<std::string>{"slot1@ep1"});
  f.advertise("slot1@ep2");
  CHECK(f.names(f.view) == std::vector<std::string>{"slot1@ep1", "slot1@ep2"});
}

TEST_CASE("view hosts from an anonymous sender are ignored", "[collector][actor]") {
  CollectorsFixture f;
  caf::anon_send(f.central, ViewHosts{{f.view}});
  f.settle();
  f.advertise("slot1@ep1");
  CHECK(f.names(f.view).empty());
}

// Issue 22: a central manager's collector that (re)started takes what its
// peers hold (CollectorPeers, from its had), so it shows the pool before
// the daemons' next updates; an ad it already has stays as it is, and an
// ad taken is watched like one sent (its daemon gone: it leaves).
TEST_CASE("a collector takes the ads its peer collectors hold, once per peer", "[collector][actor]") {
  CollectorsFixture f;
  caf::actor ep1 =
      f.sys.spawn([](caf::event_based_actor*, int) -> caf::behavior { return {[](std::int32_t) {}}; }, 0);
  auto machine = [](const std::string& name, int cpus) {
    classad::ClassAd ad = *classad::parse_classad("[ MyType = \"Machine\" ]");
    ad.set("Name", name);
    ad.set("Cpus", cpus);
    return ad;
  };
  const auto type = static_cast<std::int32_t>(collector::AdType::Machine);
  f.self->send(f.central, AdUpdate{type, {WireAd{machine("slot1@ep1", 4)}}, {ep1}});
  f.self->send(f.central, AdUpdate{type, {WireAd{machine("slot1@ep2", 2)}}, {}});
  f.self->send(f.view, AdUpdate{type, {WireAd{machine("slot1@ep2", 8)}}, {}});  // newer here
  f.settle();
  // From another node: not taken.
  caf::anon_send(f.view, CollectorPeers{{f.central}});
  f.settle();
  CHECK(f.names(f.view) == std::vector<std::string>{"slot1@ep2"});
  f.self->send(f.view, CollectorPeers{{f.central}});
  f.settle();
  CHECK(f.names(f.view) == std::vector<std::string>{"slot1@ep1", "slot1@ep2"});
  CHECK(f.names(f.view, "Cpus == 8") == std::vector<std::string>{"slot1@ep2"});
  // The same peer again: nothing asked (an ad withdrawn meanwhile does not
  // come back).
  f.self->send(f.view, AdInvalidate{type, {"slot1@ep2"}});
  f.settle();
  f.self->send(f.view, CollectorPeers{{f.central}});
  f.settle();
  CHECK(f.names(f.view) == std::vector<std::string>{"slot1@ep1"});
  // The taken ad's endpoint is watched: it dies, the ad leaves.
  caf::anon_send_exit(ep1, caf::exit_reason::kill);
  f.settle();
  CHECK(f.names(f.view).empty());
}

TEST_CASE("the collector advertises itself with the pool it sees, every COLLECTOR_UPDATE_INTERVAL",
          "[collector][actor]") {
  CollectorsFixture f;
  CollectorSetup s;
  s.policy.name = "cm.example.org";
  s.policy.update_interval = 60;
  s.clock = PoolClock{1700000000};
  const collector_actor c = *spawn_collector(f.sys, s);
  auto send = [&](collector::AdType type, const std::string& text) {
    f.self->send(c, AdUpdate{static_cast<std::int32_t>(type), {WireAd{*classad::parse_classad(text)}}, {}});
  };
  auto own_ad = [&] {
    auto h = f.self->request(
        c, caf::infinite,
        AdQueryRequest{static_cast<std::int32_t>(collector::AdType::Collector), "", {}, false});
    f.settle();
    classad::ClassAd out;
    h.receive(
        [&](AdQueryReply& r) {
          REQUIRE(r.ads.size() == 1);
          REQUIRE(r.endpoints.size() == 1);
          CHECK(r.endpoints[0] == caf::actor_cast<caf::actor>(c));
          out = r.ads[0].ad;
        },
        [](caf::error& e) { FAIL(caf::to_string(e)); });
    return out;
  };
  auto num = [](const classad::ClassAd& ad, const char* name) {
    classad::Value v = classad::evaluate_attr(ad, name);
    return v.is_int() ? v.as_int() : -1;
  };
  f.settle();
  classad::ClassAd first = own_ad();  // there from the start
  CHECK(classad::evaluate_attr(first, "Name").as_string() == "cm.example.org");
  CHECK(num(first, "HostsTotal") == 0);
  send(collector::AdType::Machine, "[ Name = \"slot1@a\"; State = \"Claimed\" ]");
  send(collector::AdType::Machine, "[ Name = \"slot2@a\"; State = \"Unclaimed\" ]");
  send(collector::AdType::Machine, "[ Name = \"slot3@a\"; State = \"Owner\" ]");
  send(collector::AdType::Machine, "[ State = \"Owner\" ]");  // no Name: lost
  send(collector::AdType::Submitter,
       "[ Name = \"alice@x\"; ScheddName = \"ap\"; RunningJobs = 1; IdleJobs = 5 ]");
  send(collector::AdType::Submitter,
       "[ Name = \"bob@x\"; ScheddName = \"ap\"; RunningJobs = 2; IdleJobs = 0 ]");
  f.settle();
  // A query about collectors sees the counts as they are now (the web
  // endpoint's update rate); the view collectors get the ad at its interval.
  CHECK(num(own_ad(), "HostsTotal") == 3);
  for (int i = 0; i < 12; ++i) {
    f.advance_time(std::chrono::seconds(5));
    f.settle();
  }
  classad::ClassAd ad = own_ad();
  CHECK(num(ad, "HostsTotal") == 3);
  CHECK(num(ad, "HostsClaimed") == 1);
  CHECK(num(ad, "HostsUnclaimed") == 1);
  CHECK(num(ad, "HostsOwner") == 1);
  CHECK(num(ad, "RunningJobs") == 3);
  CHECK(num(ad, "IdleJobs") == 5);
  CHECK(num(ad, "SubmitterAds") == 2);
  CHECK(num(ad, "UpdatesTotal") == 5);
  CHECK(num(ad, "UpdatesLost") == 1);
  caf::anon_send_exit(c, caf::exit_reason::user_shutdown);
  f.settle();
}

// A daemon's ads leave the pool when the daemon is gone (issue 19): killed
// or unreachable, its machine ads expire at once (absent where
// ABSENT_REQUIREMENTS says so); stopped normally, they are withdrawn. Ads of
// other daemons stay, and so do ads a daemon sent before another took them.
TEST_CASE("the ads of a daemon that is gone leave the pool at once", "[collector][actor]") {
  CollectorsFixture f;
  CollectorSetup s;
  s.policy.absent_requirements = *classad::parse_expression("Cpus > 1");
  s.clock = PoolClock{1700000000};
  const collector_actor c = *spawn_collector(f.sys, s);
  // Advertisers: two startds (actors that only send).
  auto startd = [&] {
    // (An argument: CAF 0.17 trips over a spawned function that takes none.)
    return f.sys.spawn([](caf::event_based_actor*, int) -> caf::behavior { return {[](std::int32_t) {}}; },
                       0);
  };
  caf::actor ep1 = startd(), ep2 = startd(), ep3 = startd();
  auto send = [&](const caf::actor& from, const std::string& name, int cpus) {
    classad::ClassAd ad = *classad::parse_classad("[ MyType = \"Machine\" ]");
    ad.set("Name", name);
    ad.set("Cpus", cpus);
    caf::send_as(from, c, AdUpdate{static_cast<std::int32_t>(collector::AdType::Machine), {WireAd{ad}}, {}});
    f.settle();
  };
  auto names = [&](bool absent) { return f.names(c, absent ? "Absent =?= true" : ""); };
  send(ep1, "slot1@ep1", 4);
  send(ep1, "slot2@ep1", 1);
  send(ep2, "slot1@ep2", 4);
  send(ep3, "slot1@ep3", 4);
  send(ep2, "slot2@ep1", 1);  // now ep2 speaks for it
  REQUIRE(names(false).size() == 4);

  // ep1's node dies: its remaining ad expires now; with more than one CPU
  // it is kept as absent, out of every query but those asking for it.
  caf::anon_send_exit(ep1, caf::exit_reason::remote_link_unreachable);
  f.settle();
  CHECK(names(false) == std::vector<std::string>{"slot1@ep2", "slot1@ep3", "slot2@ep1"});
  CHECK(names(true) == std::vector<std::string>{"slot1@ep1"});

  // ep2 dies too: its one-CPU ad is dropped, the other made absent.
  caf::anon_send_exit(ep2, caf::exit_reason::kill);
  f.settle();
  CHECK(names(false) == std::vector<std::string>{"slot1@ep3"});
  CHECK(names(true) == std::vector<std::string>{"slot1@ep1", "slot1@ep2"});

  // ep3 stops normally: its ads are withdrawn, not made absent.
  caf::anon_send_exit(ep3, caf::exit_reason::user_shutdown);
  f.settle();
  CHECK(names(false).empty());
  CHECK(names(true) == std::vector<std::string>{"slot1@ep1", "slot1@ep2"});
  caf::anon_send_exit(c, caf::exit_reason::user_shutdown);
  f.settle();
}

// Issue 21: a collector keeps its absent ads across a restart
// (COLLECTOR_PERSISTENT_AD_LOG) and samples the pool into its history
// (KEEP_POOL_HISTORY), which a query reads by time range.
TEST_CASE("a restarted collector still shows the machines that went away or sleep",
          "[collector][actor][durability]") {
  CollectorsFixture f;
  cara::scratch::TempDir dir("collector-restart");
  CollectorSetup s;
  s.policy.absent_requirements = *classad::parse_expression("true");
  s.clock = PoolClock{1700000000};
  s.persistent_ad_log = dir / "collector_ads.db";
  auto startd = [&] {
    return f.sys.spawn([](caf::event_based_actor*, int) -> caf::behavior { return {[](std::int32_t) {}}; },
                       0);
  };
  {
    auto c = spawn_collector(f.sys, s);
    REQUIRE(c);
    caf::actor ep = startd();
    classad::ClassAd ad = *classad::parse_classad("[ MyType = \"Machine\"; Name = \"slot1@ep1\"; Cpus = 4 ]");
    caf::send_as(ep, *c, AdUpdate{static_cast<std::int32_t>(collector::AdType::Machine), {WireAd{ad}}, {}});
    f.settle();
    caf::anon_send_exit(ep, caf::exit_reason::kill);  // its node died
    f.settle();
    CHECK(f.names(*c, "Absent =?= true") == std::vector<std::string>{"slot1@ep1"});
    // A sleeping machine's offline ad, as power management sends one.
    classad::ClassAd sleepy =
        *classad::parse_classad("[ MyType = \"Machine\"; Name = \"slot1@ep2\"; Offline = true ]");
    f.self->send(*c, AdUpdate{static_cast<std::int32_t>(collector::AdType::Machine), {WireAd{sleepy}}, {}});
    f.settle();
    caf::anon_send_exit(*c, caf::exit_reason::kill);
    f.settle();
  }
  auto c = spawn_collector(f.sys, s);
  REQUIRE(c);
  f.settle();
  CHECK(f.names(*c, "Absent =?= true") == std::vector<std::string>{"slot1@ep1"});
  CHECK(f.names(*c, "Offline =?= true") == std::vector<std::string>{"slot1@ep2"});
  CHECK(f.names(*c).empty());  // absent and offline ads only when asked for
  caf::anon_send_exit(*c, caf::exit_reason::user_shutdown);
  f.settle();

  SECTION("a store that cannot be read stops the collector, saying why") {
    CollectorSetup bad = s;
    bad.persistent_ad_log = "/proc/cara-no-such-dir/ads.db";
    auto refused = spawn_collector(f.sys, bad);
    REQUIRE_FALSE(refused);
    CHECK_THAT(refused.error(), Catch::Contains("/proc/cara-no-such-dir/ads.db"));
  }
}

TEST_CASE("with KEEP_POOL_HISTORY the collector samples the pool and answers by time range",
          "[collector][actor][history]") {
  CollectorsFixture f;
  cara::scratch::TempDir dir("pool-history");
  CollectorSetup s;
  s.clock = PoolClock{1700000000};
  s.history.keep = true;
  s.history.dir = dir / "ViewHist";
  s.history.sampling_interval = 60;
  auto c = spawn_collector(f.sys, s);
  REQUIRE(c);
  // Stopped however the test ends: a collector left running keeps the
  // coordinator busy.
  std::shared_ptr<void> stop(nullptr, [&](void*) {
    caf::anon_send_exit(*c, caf::exit_reason::user_shutdown);
    f.settle();
  });
  classad::ClassAd slot = *classad::parse_classad(
      "[ MyType = \"Machine\"; Name = \"slot1@ep1\"; Machine = \"ep1\"; State = \"Claimed\"; Cpus = 4 ]");
  f.self->send(*c, AdUpdate{static_cast<std::int32_t>(collector::AdType::Machine), {WireAd{slot}}, {}});
  classad::ClassAd sub = *classad::parse_classad(
      "[ MyType = \"Submitter\"; Name = \"alice@pool\"; ScheddName = \"ap\"; RunningJobs = 1; IdleJobs = 2 "
      "]");
  f.self->send(*c, AdUpdate{static_cast<std::int32_t>(collector::AdType::Submitter), {WireAd{sub}}, {}});
  f.settle();
  // Expiry runs every 5 s; a sample is due every 60.
  for (int i = 0; i < 30; ++i) {
    f.advance_time(std::chrono::seconds(5));
    f.settle();
  }
  auto query = [&](std::int64_t from, std::int64_t to, const std::string& constraint) {
    auto h = f.self->request(*c, caf::infinite, PoolHistoryQuery{from, to, constraint, {}});
    f.settle();
    std::vector<classad::ClassAd> out;
    h.receive(
        [&](AdQueryReply& r) {
          REQUIRE(r.ok);
          for (WireAd& w : r.ads) out.push_back(std::move(w.ad));
        },
        [](caf::error& e) { FAIL(caf::to_string(e)); });
    return out;
  };
  constexpr std::int64_t kEver = std::numeric_limits<std::int64_t>::max();
  const auto all = query(0, kEver, "MyType == \"MachineHistory\"");
  REQUIRE(all.size() >= 2);  // the first sample at start, one a minute after
  CHECK(classad::evaluate_attr(all[0], "Claimed").as_int() == 1);
  const std::int64_t first = classad::evaluate_attr(all[0], "Time").as_int();
  const std::int64_t second = classad::evaluate_attr(all[1], "Time").as_int();
  CHECK(second - first == 60);
  const auto one = query(second, second, "MyType == \"SubmitterHistory\"");
  REQUIRE(one.size() == 1);
  CHECK(classad::evaluate_attr(one[0], "IdleJobs").as_int() == 2);

  SECTION("a collector that keeps none says so") {
    CollectorSetup plain;
    plain.clock = PoolClock{1700000000};
    auto p = spawn_collector(f.sys, plain);
    REQUIRE(p);
    auto h = f.self->request(*p, caf::infinite, PoolHistoryQuery{0, 1, "", {}});
    f.settle();
    h.receive(
        [&](AdQueryReply& r) {
          CHECK_FALSE(r.ok);
          CHECK(r.error == "this collector keeps no pool history (KEEP_POOL_HISTORY is false)");
        },
        [](caf::error& e) { FAIL(caf::to_string(e)); });
    caf::anon_send_exit(*p, caf::exit_reason::user_shutdown);
    f.settle();
  }
}
