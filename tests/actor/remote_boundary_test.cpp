// What a peer on another node can and cannot make a pool's actors do. A
// slot's or startd's handle is no secret (the collector hands out slot
// handles with their ads; a node's gate hands out its daemons), so the
// messages a node's daemons send each other — a startd's orders to its
// slots, a slot's calls to its startd — are taken from the node itself
// only; a claim counts only with the id the
// negotiator gave. Two actor systems over CAF's middleman on 127.0.0.1, no
// guard: what stops the stranger here is not authorization.
#include <atomic>
#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/io/all.hpp>
#include <caf/scoped_actor.hpp>
#include <condition_variable>
#include <mutex>

#include "actor/pool_fixture.h"
#include "actors/message_types.h"
#include "model/classad/parser.h"
#include "model/startd/slot_state.h"

using namespace cara;
using namespace cara::actors;
using namespace cara::actors::testing;

namespace {

constexpr auto kWait = std::chrono::seconds(10);

class CountingRunner : public JobRunner {
 public:
  Result<std::int64_t> start(const classad::ClassAd&, const startd::RunAs&,
                             std::function<void(ProcessExit)>) override {
    return static_cast<std::int64_t>(++starts);
  }
  void signal(std::int64_t, int) override {}
  std::atomic<int> starts{0};
};

struct Node {
  caf::actor_system_config cfg;
  std::unique_ptr<caf::actor_system> sys;
  Node() {
    cfg.load<caf::io::middleman>();
    configure_actor_system(cfg);
    sys = std::make_unique<caf::actor_system>(cfg);
  }
};

// `there`'s handle as a peer on node `from` holds it.
template <class Handle>
Handle reach(Node& from, const Handle& there) {
  auto port = caf::io::publish(there, 0, "127.0.0.1");
  REQUIRE(port);
  auto proxy = caf::io::remote_actor<Handle>(*from.sys, "127.0.0.1", *port);
  REQUIRE(proxy);
  return *proxy;
}

// The daemons' log lines as they are written, awaited from the test's
// thread (the pool runs on the actor system's threads, and may log after
// the test's scope ended: the lines are shared with the sink).
class LogWatch {
 public:
  std::shared_ptr<os::DaemonLog> log() {
    return std::make_shared<os::DaemonLog>("pool", [lines = lines_](os::LogLevel, std::string_view text) {
      std::lock_guard<std::mutex> lock(lines->m);
      lines->text.emplace_back(text);
      lines->written.notify_all();
    });
  }
  // Until `n` lines contain `part`.
  bool await(const std::string& part, std::size_t n = 1) {
    std::unique_lock<std::mutex> lock(lines_->m);
    return lines_->written.wait_for(lock, kWait, [&] {
      std::size_t seen = 0;
      for (const std::string& l : lines_->text) seen += l.find(part) != std::string::npos ? 1 : 0;
      return seen >= n;
    });
  }

 private:
  struct Lines {
    std::mutex m;
    std::condition_variable written;
    std::vector<std::string> text;
  };
  std::shared_ptr<Lines> lines_ = std::make_shared<Lines>();
};

// The test as the collector's view host (CONDOR_VIEW_HOST): every update
// the collector takes comes on to `view`, in the order it was taken.
void watch_collector(caf::scoped_actor& view, const collector_actor& collector) {
  view->send(collector, ViewHosts{{caf::actor_cast<collector_actor>(view)}});
}

// The next update of `type` that `wanted` accepts.
AdUpdate await_update(caf::scoped_actor& view, collector::AdType type,
                      const std::function<bool(const AdUpdate&)>& wanted) {
  for (;;) {
    std::optional<AdUpdate> got;
    bool timed_out = false;
    view->receive([&](AdUpdate& u) { got = std::move(u); }, caf::after(kWait) >> [&] { timed_out = true; });
    if (timed_out) FAIL("no such update within " << kWait.count() << " s");
    if (got->type == static_cast<std::int32_t>(type) && wanted(*got)) return std::move(*got);
  }
}

AdQueryReply query(caf::scoped_actor& self, const collector_actor& c, collector::AdType type) {
  AdQueryReply out;
  self->request(c, kWait, AdQueryRequest{static_cast<std::int32_t>(type), "", {}, false})
      .receive([&](AdQueryReply& r) { out = std::move(r); }, [](caf::error& e) { FAIL(caf::to_string(e)); });
  return out;
}

}  // namespace

TEST_CASE("a peer on another node cannot drive slots, startds or submitters around their claim ids",
          "[actors][remote]") {
  Node home, stranger;
  auto runner = std::make_shared<CountingRunner>();
  PoolSpec spec;
  spec.nodes.push_back(make_config(std::string(kCentralManager), "NEGOTIATOR"));
  spec.nodes.push_back(make_config(kAccessPoint, "SCHEDD"));
  spec.nodes.push_back(make_config(
      execution_point(
          "ep1.test", 1,
          "NUM_SLOTS_TYPE_1 = 1\nSLOT_TYPE_1 = 100%\nSLOT_TYPE_1_PARTITIONABLE = false\nSTART = false\n"),
      "STARTD"));
  spec.runner = runner;
  spec.files = std::make_shared<config::MemoryHost>();
  LogWatch logs;
  spec.log = logs.log();
  auto pool = spawn_pool(*home.sys, spec);
  REQUIRE(pool);
  caf::scoped_actor local{*home.sys};
  caf::scoped_actor view{*home.sys};
  watch_collector(view, pool->collector);
  caf::scoped_actor self{*stranger.sys};
  const collector_actor collector = reach(stranger, pool->collector);
  const startd_actor startd = reach(stranger, pool->startds[0]);

  // The slot, as anyone who may read the collector sees it once it is there.
  await_update(view, collector::AdType::Machine, [](const AdUpdate& u) { return !u.endpoints.empty(); });
  const AdQueryReply slots = query(self, collector, collector::AdType::Machine);
  REQUIRE(slots.endpoints.size() == 1);
  const slot_actor slot = caf::actor_cast<slot_actor>(slots.endpoints[0]);
  const WireAd job{
      *classad::parse_classad("[ ClusterId = 1; ProcId = 0; Cmd = \"/bin/true\"; Owner = \"eve\" ]")};

  SECTION("a startd's order from another node gives no claim and starts no job") {
    self->send(
        slot,
        SlotOrder{startd::ActionKind::AcceptClaim, "eve#1", "", caf::actor_cast<schedd_actor>(self), {}});
    self->send(slot, SlotOrder{startd::ActionKind::StartJob, "", "", {}, {}});
    // Messages from one sender arrive in order: the orders were handled
    // before this request.
    self->request(slot, kWait, ActivateClaim{"eve#1", job, -1, -1})
        .receive([](ActivateReply& r) { CHECK_FALSE(r.ok); }, [](caf::error& e) { FAIL(caf::to_string(e)); });
    // Both orders were refused, so no starter was spawned: nothing may start.
    CHECK(logs.await("slot slot1: an order from another node ignored", 2));
    CHECK(runner->starts == 0);
  }

  SECTION("a slot call from another node is refused by the startd") {
    self->request(startd, kWait, SlotCall{"slot1", SlotCallKind::Claim, "eve#1", job, true, {}, {}, false})
        .receive(
            [](ClaimReply& r) {
              CHECK_FALSE(r.ok);
              CHECK(r.reason == "slot calls come from this node's slots only");
            },
            [](caf::error& e) { FAIL(caf::to_string(e)); });
  }

  SECTION("a claim with an id the negotiator never announced is refused") {
    self->request(slot, kWait, ClaimSlot{"guess#1", job, false, {}, {}, false})
        .receive(
            [](ClaimReply& r) {
              CHECK_FALSE(r.ok);
              CHECK(r.reason == "no match was announced for this claim on slot1");
            },
            [](caf::error& e) { FAIL(caf::to_string(e)); });
  }

  stop_pool(*home.sys, *pool);
}
