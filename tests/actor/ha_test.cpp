// High availability of the central manager in an embedded pool (DESIGN.md
// "High availability"; central-manager-configuration, "High Availability
// of the Central Manager"): the hads elect one active negotiator, the
// active one replicates its accountant to the standby, and when the active
// central manager dies the standby matches in a newer term with the usage
// the old one had committed; a match of an older term is refused.
#include "actor/pool_fixture.h"
#include "actors/had.h"

using namespace cara;
using namespace cara::actors;
using namespace cara::actors::testing;

namespace {

constexpr const char* kOneJob = "executable = /bin/true\nqueue\n";

std::string central_manager(const std::string& host, const std::string& extra = "") {
  return "DAEMON_LIST = MASTER, COLLECTOR, NEGOTIATOR, HAD\nFULL_HOSTNAME = " + host +
         "\nUID_DOMAIN = test\nNEGOTIATOR_INTERVAL = 60\nNEGOTIATOR_MIN_INTERVAL = 0\n"
         "NEGOTIATOR_CYCLE_DELAY = 0\nHAD_LIST = cm1.test, cm2.test\nHAD_CONNECTION_TIMEOUT = 1\n" +
         extra;
}

struct HaFixture : PoolFixture {
  void start_ha(int eps, const std::string& cm_extra = "") {
    std::vector<std::shared_ptr<const config::Config>> nodes;
    nodes.push_back(make_config(central_manager("cm1.test", cm_extra), "NEGOTIATOR"));
    nodes.push_back(make_config(central_manager("cm2.test", cm_extra), "NEGOTIATOR"));
    nodes.push_back(make_config(kAccessPoint, "SCHEDD"));
    for (int i = 0; i < eps; ++i)
      nodes.push_back(make_config(execution_point("ep" + std::to_string(i + 1) + ".test", 1), "STARTD"));
    auto p = spawn_pool(sys, spec(std::move(nodes)));
    if (!p) FAIL(p.error());
    pool = *p;
    settle();
  }
  HadStatus status(std::size_t i) {
    auto h = self->request(pool.hads[i], caf::infinite, HadStatusQuery{});
    settle();
    HadStatus out;
    h.receive([&](HadStatus& s) { out = s; }, [&](caf::error& e) { FAIL(caf::to_string(e)); });
    return out;
  }
  CommandReply userprio_at(std::size_t i, const UserprioCommand& c) {
    auto h = self->request(pool.negotiators[i], caf::infinite, c);
    settle();
    CommandReply out;
    h.receive([&](CommandReply& r) { out = r; }, [&](caf::error& e) { FAIL(caf::to_string(e)); });
    return out;
  }
  // Submitter `name`'s accounting ad as negotiator `i` holds it.
  classad::ClassAd record_at(std::size_t i, const std::string& name) {
    auto h = self->request(pool.negotiators[i], caf::infinite, UserprioQuery{});
    settle();
    classad::ClassAd out;
    h.receive(
        [&](UserprioReply& r) {
          for (WireAd& a : r.records)
            if (str(a.ad, "Name") == name) out = a.ad;
        },
        [&](caf::error& e) { FAIL(caf::to_string(e)); });
    return out;
  }
  double real(const classad::ClassAd& ad, const char* attr) {
    classad::Value v = classad::evaluate_attr(ad, attr);
    return v.is_int() ? static_cast<double>(v.as_int()) : v.is_real() ? v.as_real() : -1;
  }
  // The first central manager dies as kill -9 would end it.
  void kill_first_central_manager() {
    for (caf::actor a :
         {caf::actor_cast<caf::actor>(pool.hads[0]), caf::actor_cast<caf::actor>(pool.negotiators[0]),
          caf::actor_cast<caf::actor>(pool.collector)})
      self->send_exit(a, caf::exit_reason::kill);
    settle();
    pool.collector = caf::actor_cast<collector_actor>(pool.daemons[1]);  // cm2's, spawned second
  }
};

}  // namespace

TEST_CASE_METHOD(HaFixture, "two central managers: one active negotiator, its accountant replicated",
                 "[actors][ha]") {
  start_ha(1);
  // Both listen until they heard each other (here at once: the embedded
  // pool's hads know each other from the start), then the first of
  // HAD_LIST takes the role in term 1.
  advance(2);
  CHECK(status(0).active);
  CHECK(status(0).term == 1);
  CHECK_FALSE(status(1).active);
  CHECK(status(1).reachable == std::vector<std::int32_t>{0});
  CHECK(logged("active in term 1"));
  // The pool's Negotiator ad is the active one's, with its term.
  auto negotiators = ads(collector::AdType::Negotiator);
  REQUIRE(negotiators.ads.size() == 1);
  CHECK(str(negotiators.ads[0].ad, "Name") == "cm1.test");
  CHECK(num(negotiators.ads[0].ad, "HadTerm") == 1);

  REQUIRE(submit(kOneJob).ok);
  advance(1);
  REQUIRE(runner->runs.size() == 1);
  // Priority changes go to the active negotiator, and reach the standby
  // before they are acknowledged.
  CHECK(userprio_at(0, UserprioCommand{"setfactor", "alice@test", 250, 0}).ok);
  const CommandReply standby = userprio_at(1, UserprioCommand{"setfactor", "alice@test", 7, 0});
  CHECK_FALSE(standby.ok);
  CHECK_THAT(standby.error, Catch::Contains("stands by"));
  const classad::ClassAd held = record_at(1, "alice@test");
  CHECK(real(held, "PriorityFactor") == 250);
  CHECK(real(held, "ResourcesUsed") == 1);
}

TEST_CASE_METHOD(HaFixture,
                 "the active central manager dies: the standby matches in a newer term with its usage",
                 "[actors][ha]") {
  start_ha(2);
  advance(2);
  REQUIRE(status(0).active);
  REQUIRE(submit(kOneJob).ok);
  advance(1);
  REQUIRE(runner->runs.size() == 1);
  REQUIRE(userprio_at(0, UserprioCommand{"setfactor", "alice@test", 40, 0}).ok);
  advance(5);  // usage accrues; each cycle's accountant goes to the standby
  const classad::ClassAd before = record_at(0, "alice@test");

  kill_first_central_manager();
  // The standby heard the link drop: active at once, in term 2.
  CHECK(status(1).active);
  CHECK(status(1).term == 2);
  CHECK(logged("is unreachable"));
  const classad::ClassAd after = record_at(1, "alice@test");
  for (const char* attr : {"PriorityFactor", "Priority", "ResourcesUsed", "AccumulatedUsage"}) {
    INFO(attr);
    CHECK(real(after, attr) == real(before, attr));
  }
  // The new active matches the next job; the schedd follows it.
  REQUIRE(submit(kOneJob).ok);
  advance(1);
  REQUIRE(runner->runs.size() == 2);
  CHECK(num(queue()[1], "JobStatus") == 2);
}

TEST_CASE_METHOD(HaFixture, "a match of an older term is refused by the slot and by the schedd",
                 "[actors][ha]") {
  start_ha(1);
  advance(2);
  kill_first_central_manager();
  REQUIRE(status(1).term == 2);
  REQUIRE(submit(kOneJob).ok);
  advance(1);
  REQUIRE(runner->runs.size() == 1);  // a term-2 match: the schedd and slot have seen term 2
  // The negotiator of term 1 (paused, cut off) sends a match now.
  auto machines = ads(collector::AdType::Machine, "State == \"Unclaimed\"");
  REQUIRE(!machines.endpoints.empty());
  const auto slot = caf::actor_cast<slot_actor>(machines.endpoints[0]);
  self->send(slot, SlotMatched{"1700000000.99#" + std::string(64, 'a'), 1});
  settle();
  CHECK(logged("a match of term 1 refused: term 2 was seen"));
  self->send(pool.schedd, MatchBatch{{}, 1});
  settle();
  CHECK(logged("matches of term 1 refused: term 2 was seen"));
}

TEST_CASE_METHOD(HaFixture, "a standby that refused the last commit is sent it again until it holds it",
                 "[actors][ha]") {
  start_ha(1);
  advance(2);
  REQUIRE(status(0).active);
  REQUIRE(userprio_at(0, UserprioCommand{"setfactor", "alice@test", 33, 0}).ok);
  // A standby appears that cannot store the commit yet (a central manager
  // still starting, say): refused the first time, stored the second.
  auto batches = std::make_shared<std::vector<ReplicaBatch>>();
  // (An argument, as the other tests' spawned functions have: CAF 0.17
  // binds a null tuple for a function without one, which UBSan reports.)
  auto starting = sys.spawn(
      [batches](caf::event_based_actor*, int) -> caf::behavior {
        return {[batches](ReplicaBatch& b) {
          batches->push_back(b);
          return batches->size() == 1 ? CommandReply{false, "still starting"} : CommandReply{true, {}};
        }};
      },
      0);
  self->send(
      pool.negotiators[0],
      NegotiatorRole{true, 1, {}, {pool.negotiators[1], caf::actor_cast<negotiator_actor>(starting)}, {}});
  auto caught_up = [&] {
    return std::count_if(log_lines.begin(), log_lines.end(), [](const std::string& l) {
      return l.find("a standby that appeared holds the last commit") != std::string::npos;
    });
  };
  const auto before = caught_up();
  settle();
  REQUIRE(batches->size() == 1);
  CHECK(logged("still starting; sent again every second"));
  CHECK(caught_up() == before);
  // Within a second it is sent the same commit again, with no new one to
  // carry it, and holds it.
  advance(1);
  REQUIRE(batches->size() == 2);
  CHECK(batches->at(1).term == 1);
  CHECK(batches->at(1).seq == batches->at(0).seq);
  CHECK(batches->at(1).snapshot == batches->at(0).snapshot);
  CHECK(caught_up() == before + 1);
  // Once it holds it, nothing more is sent.
  advance(3);
  CHECK(batches->size() == 2);
  self->send_exit(starting, caf::exit_reason::kill);
  settle();
}
