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
