// The collector actor's forwarding to CONDOR_VIEW_HOST collectors, under
// CAF's test coordinator: a view collector named late gets the ads already
// there, then every update; view hosts come only from the collector's node.
#include "actors/collector.h"

#include "actor/caf_catch.h"
#include "actors/message_types.h"
#include "model/classad/eval.h"
#include "model/classad/parser.h"

using namespace cara;
using namespace cara::actors;

namespace {

struct CollectorsFixture : test_coordinator_fixture<> {
  collector_actor central = spawn(), view = spawn();

  collector_actor spawn() {
    CollectorSetup s;
    s.policy = collector::CollectorPolicy{};
    s.clock = PoolClock{1700000000};
    return spawn_collector(sys, s);
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
  std::vector<std::string> names(const collector_actor& c) {
    auto h = self->request(
        c, caf::infinite,
        AdQueryRequest{static_cast<std::int32_t>(collector::AdType::Machine), "", {"Name"}, false});
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
  f.self->send(f.central, ViewHosts{{caf::actor_cast<caf::actor>(f.view)}});
  f.settle();
  CHECK(f.names(f.view) == std::vector<std::string>{"slot1@ep1"});
  f.advertise("slot1@ep2");
  CHECK(f.names(f.view) == std::vector<std::string>{"slot1@ep1", "slot1@ep2"});
}

TEST_CASE("view hosts from an anonymous sender are ignored", "[collector][actor]") {
  CollectorsFixture f;
  caf::anon_send(f.central, ViewHosts{{caf::actor_cast<caf::actor>(f.view)}});
  f.settle();
  f.advertise("slot1@ep1");
  CHECK(f.names(f.view).empty());
}

TEST_CASE("the collector advertises itself with the pool it sees, every COLLECTOR_UPDATE_INTERVAL",
          "[collector][actor]") {
  CollectorsFixture f;
  CollectorSetup s;
  s.policy.name = "cm.example.org";
  s.policy.update_interval = 60;
  s.clock = PoolClock{1700000000};
  const collector_actor c = spawn_collector(f.sys, s);
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
  CHECK(num(own_ad(), "HostsTotal") == 0);  // refreshed at its interval, not on each update
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
