// The pool in virtual time (model/sim/virtual_pool.h): the real models of
// negotiator, schedd and startd, driven event by event.
#include "model/sim/virtual_pool.h"

#include <catch2/catch.hpp>

#include "model/classad/eval.h"

namespace cara::sim {
namespace {

constexpr std::int64_t kStart = 1700000000;
constexpr std::int64_t kHour = 3600;

config::TextLayer layer(std::string text) {
  return config::TextLayer{std::move(text), "test", 1};
}

PoolSetup one_core_machines(int n, const std::string& cm = "") {
  PoolSetup s;
  s.common = {layer("UID_DOMAIN = sim\nNEGOTIATOR_INTERVAL = 60\n")};
  s.central_manager = {layer(cm)};
  for (int i = 1; i <= n; ++i) s.machines.push_back({"ep" + std::to_string(i), {layer("NUM_CPUS = 1\n")}});
  s.start = kStart;
  return s;
}

schedd::Submission jobs(const std::string& owner, int count, int run_time) {
  schedd::Submission sub;
  sub.owner = owner;
  sub.iwd = "/tmp";
  sub.description = "executable = /bin/true\n+SimulatedRunTime = " + std::to_string(run_time) + "\nqueue " +
                    std::to_string(count) + "\n";
  return sub;
}

TEST_CASE("a virtual pool runs jobs for their simulated time and no longer", "[sim][pool]") {
  auto pool = VirtualPool::create(one_core_machines(2));
  REQUIRE(pool);
  std::vector<PoolEvent> seen;
  (*pool)->set_observer([&](const PoolEvent& e) {
    if (e.kind == PoolEventKind::Started || e.kind == PoolEventKind::Finished) seen.push_back(e);
  });
  REQUIRE((*pool)->submit(jobs("alice", 3, 600)));
  (*pool)->run_until(kStart + 2 * kHour);
  // Two slots: two jobs start at the first cycle, the third when one ends.
  REQUIRE(seen.size() == 6);
  CHECK(seen[0].kind == PoolEventKind::Started);
  CHECK(seen[0].time == kStart);
  CHECK(seen[1].time == kStart);
  std::int64_t third_start = 0, last_finish = 0;
  for (const PoolEvent& e : seen) {
    if (e.kind == PoolEventKind::Started && e.job.proc == 2) third_start = e.time;
    if (e.kind == PoolEventKind::Finished) last_finish = std::max(last_finish, e.time);
  }
  CHECK(third_start >= kStart + 600);
  CHECK(third_start <= kStart + 660);  // within a negotiation interval
  CHECK(last_finish == third_start + 600);
  CHECK((*pool)->queue().size() == 0);
  CHECK((*pool)->counters().finished == 3);
}

TEST_CASE("a virtual pool skips the cycles in which nothing changed", "[sim][pool]") {
  auto pool = VirtualPool::create(one_core_machines(1));
  REQUIRE(pool);
  REQUIRE((*pool)->submit(jobs("alice", 1, 10 * kHour)));
  (*pool)->run_until(kStart + 24 * kHour);
  // A day at NEGOTIATOR_INTERVAL = 60 would be 1440 cycles.
  CHECK((*pool)->counters().cycles < 10);
  CHECK((*pool)->counters().finished == 1);
}

TEST_CASE("a new user on 100 cores has RUP 75.125 after 48 hours, through the whole pool",
          "[sim][pool][spec]") {
  auto pool = VirtualPool::create(one_core_machines(100, "PRIORITY_HALFLIFE = 86400\n"));
  REQUIRE(pool);
  // Jobs that outlast the run: 100 cores busy from the first cycle on.
  REQUIRE((*pool)->submit(jobs("alice", 100, 100 * kHour)));
  (*pool)->run_until(kStart + 24 * kHour);
  CHECK((*pool)->accountant().priority_at("alice@sim", (*pool)->now()) == Approx(50.25));
  (*pool)->run_until(kStart + 48 * kHour);
  CHECK((*pool)->accountant().priority_at("alice@sim", (*pool)->now()) == Approx(75.125));
}

TEST_CASE("a removed user's priority halves with each half-life", "[sim][pool][spec]") {
  auto pool = VirtualPool::create(one_core_machines(100, "PRIORITY_HALFLIFE = 86400\n"));
  REQUIRE(pool);
  REQUIRE((*pool)->submit(jobs("alice", 100, 100 * kHour)));
  (*pool)->run_until(kStart + 24 * kHour);
  auto removed = (*pool)->remove("Owner == \"alice\"", "done");
  REQUIRE(removed);
  CHECK(*removed == 100);
  (*pool)->run_until(kStart + 48 * kHour);
  CHECK((*pool)->accountant().priority_at("alice@sim", (*pool)->now()) == Approx(50.25 / 2));
  CHECK((*pool)->counters().killed == 100);
}

TEST_CASE("a virtual pool's nodes take a new configuration at run time", "[sim][pool][reconfig]") {
  auto pool = VirtualPool::create(one_core_machines(2, "PRIORITY_HALFLIFE = 86400\n"));
  REQUIRE(pool);
  std::vector<PoolEvent> started;
  (*pool)->set_observer([&](const PoolEvent& e) {
    if (e.kind == PoolEventKind::Started) started.push_back(e);
  });
  REQUIRE((*pool)->submit(jobs("alice", 6, 600)));
  (*pool)->run_until(kStart + 300);
  REQUIRE(started.size() == 2);
  // ep2 no longer starts jobs: its running one finishes, and what is left
  // runs on ep1 only.
  REQUIRE((*pool)->reconfigure(VirtualPool::Node::Machines, {layer("START = false\n")}, "ep2"));
  (*pool)->run_until(kStart + 4 * kHour);
  REQUIRE(started.size() == 6);
  for (std::size_t i = 2; i < started.size(); ++i) CHECK_THAT(started[i].slot, Catch::EndsWith("@ep1"));

  // The negotiator's half-life: a day, then an hour.
  REQUIRE((*pool)->reconfigure(VirtualPool::Node::CentralManager, {layer("PRIORITY_HALFLIFE = 3600\n")}));
  const double before = (*pool)->accountant().priority_at("alice@sim", (*pool)->now());
  (*pool)->run_until((*pool)->now() + kHour);
  CHECK((*pool)->accountant().priority_at("alice@sim", (*pool)->now()) == Approx(std::max(0.5, before / 2)));

  // The schedd's periodic policy: every job of bob's is removed at the next
  // evaluation.
  REQUIRE((*pool)->submit(jobs("bob", 3, 10 * kHour)));
  REQUIRE((*pool)->reconfigure(
      VirtualPool::Node::AccessPoint,
      {layer("SYSTEM_PERIODIC_REMOVE = Owner == \"bob\"\nPERIODIC_EXPR_INTERVAL = 30\n")}));
  (*pool)->run_until((*pool)->now() + 60);
  CHECK((*pool)->queue().size() == 0);
}

TEST_CASE("a reconfiguration that does not read changes nothing and says where", "[sim][pool][reconfig]") {
  auto pool = VirtualPool::create(one_core_machines(1));
  REQUIRE(pool);
  const Status bad =
      (*pool)->reconfigure(VirtualPool::Node::CentralManager,
                           {config::TextLayer{"PREEMPTION_REQUIREMENTS = (\n", "later.conf", 12}});
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error(), Catch::Contains("later.conf, line 12"));
  CHECK_FALSE((*pool)->reconfigure(VirtualPool::Node::Machines, {layer("START = true\n")}, "nosuch"));
  // The pool goes on under its old configuration.
  REQUIRE((*pool)->submit(jobs("alice", 1, 60)));
  (*pool)->run_until(kStart + kHour);
  CHECK((*pool)->counters().finished == 1);
}

TEST_CASE("a virtual pool refuses a configuration error naming its file and line", "[sim][pool]") {
  PoolSetup s = one_core_machines(1);
  s.machines[0].config = {config::TextLayer{"NUM_CPUS = 1\nSTART = (\n", "pool.scenario", 7}};
  auto pool = VirtualPool::create(s);
  REQUIRE_FALSE(pool);
  CHECK_THAT(pool.error(), Catch::Contains("ep1") && Catch::Contains("pool.scenario, line 8"));
}

TEST_CASE("machines join and leave a virtual pool and a leaving machine's jobs go back to the queue",
          "[sim][pool][machines]") {
  auto pool = VirtualPool::create(one_core_machines(1));
  REQUIRE(pool);
  VirtualPool& p = **pool;
  std::vector<PoolEvent> seen;
  p.set_observer([&](const PoolEvent& e) {
    if (e.kind == PoolEventKind::Started || e.kind == PoolEventKind::Killed ||
        e.kind == PoolEventKind::Finished)
      seen.push_back(e);
  });
  REQUIRE(p.submit(jobs("alice", 3, 3 * kHour)));
  p.run_until(kStart + 60);
  CHECK(p.queue().idle_count("alice@sim") == 2);
  // A machine of two cores joins: two more jobs run at the next cycle.
  REQUIRE(p.add_machine({"big", {layer("NUM_CPUS = 2\n")}}));
  CHECK(p.total_cores() == 3);
  CHECK_FALSE(p.add_machine({"big", {layer("NUM_CPUS = 2\n")}}));
  p.run_until(kStart + 180);
  CHECK(p.queue().idle_count("alice@sim") == 0);
  auto slots_of_big = [&] {
    int n = 0;
    for (const classad::ClassAd& ad : p.slot_ads()) {
      classad::Value name = classad::evaluate_attr(ad, "Name");
      n += name.is_string() && std::string(name.as_string()).ends_with("@big");
    }
    return n;
  };
  CHECK(slots_of_big() > 0);
  int on_big = 0;
  for (const PoolEvent& e : seen) on_big += e.kind == PoolEventKind::Started && e.slot.ends_with("@big");
  CHECK(on_big == 2);
  // It loses its power: both its jobs are killed and wait again; ep1's runs on.
  seen.clear();
  REQUIRE(p.remove_machine("big"));
  CHECK_FALSE(p.remove_machine("big"));
  CHECK(p.total_cores() == 1);
  REQUIRE(seen.size() == 2);
  for (const PoolEvent& e : seen) {
    CHECK(e.kind == PoolEventKind::Killed);
    CHECK_THAT(e.detail, Catch::Contains("big left the pool"));
  }
  CHECK(p.queue().idle_count("alice@sim") == 2);
  CHECK(slots_of_big() == 0);
  // Nothing more runs on it; the queue drains through ep1 alone, and
  // nobody is charged for the machine that left.
  p.run_until(kStart + 12 * kHour);
  CHECK(p.queue().size() == 0);
  for (const PoolEvent& e : seen) CHECK_FALSE((e.kind == PoolEventKind::Started && e.slot.ends_with("@big")));
  CHECK(p.counters().finished == 3);
  for (const auto& [key, r] : p.accountant().records()) CHECK(r.resources_used == 0);
  // A machine of the same name may come back.
  CHECK(p.add_machine({"big", {layer("NUM_CPUS = 2\n")}}));
}

TEST_CASE("each submission draws its own random numbers from the pool's seed", "[sim][pool]") {
  auto durations = [](std::uint64_t seed) {
    PoolSetup s = one_core_machines(1);
    s.seed = seed;
    auto pool = VirtualPool::create(s);
    REQUIRE(pool);
    std::vector<std::int64_t> out;
    for (int i = 0; i < 2; ++i) {
      schedd::Submission sub = jobs("alice", 1, 0);
      sub.description = "executable = /bin/true\n+SimulatedRunTime = $RANDOM_INTEGER(1, 1000000000)\nqueue\n";
      auto submitted = (*pool)->submit(sub);
      REQUIRE(submitted);
      const classad::ClassAd* job = (*pool)->queue().find(schedd::JobId{submitted.submitted->cluster, 0});
      REQUIRE(job);
      out.push_back(schedd::int_attr(*job, "SimulatedRunTime"));
    }
    return out;
  };
  const auto seven = durations(7);
  CHECK(seven[0] != seven[1]);   // not the same sequence for every submission
  CHECK(durations(7) == seven);  // reproducible
  CHECK(durations(8) != seven);  // the seed decides
}

TEST_CASE("a virtual pool's negotiator gets the ads a startd sends: the slots that changed", "[sim][pool]") {
  // As the startd actor: after a call, the slots its actions changed go to
  // the collector, with the machine's partitionable slots; the others keep
  // the ad the collector had (startd::changes_ad). Each ad the negotiator
  // gets anew, it describes anew (LastNegotiationCycleDescribedSlots0).
  SECTION("four static slots, a job at a time") {
    PoolSetup s = one_core_machines(0);
    s.machines.push_back({"ep1", {layer("NUM_CPUS = 4\nNUM_SLOTS = 4\n")}});
    auto pool = VirtualPool::create(s);
    REQUIRE(pool);
    VirtualPool& p = **pool;
    std::vector<std::int64_t> described;
    p.set_observer([&](const PoolEvent& e) {
      if (e.kind == PoolEventKind::Cycle) described.push_back(p.last_cycle().stats.described_slots);
    });
    for (int i = 0; i < 3; ++i) {
      REQUIRE(p.submit(jobs("alice", 1, 10 * kHour)));
      p.run_until(kStart + 600 * (i + 1));
    }
    REQUIRE(p.counters().started == 3);
    REQUIRE(described.size() >= 4);
    CHECK(described[0] == 4);  // every slot at its first read
    // Later, only the slot each job's claim and start changed (every slot of
    // the machine, before: its clock moved, so each had a new ad).
    std::int64_t later = 0;
    for (std::size_t c = 1; c < described.size(); ++c) {
      CHECK(described[c] <= 1);
      later += described[c];
    }
    CHECK(later == 3);
  }
  SECTION("a partitionable slot gives its cores away") {
    PoolSetup s = one_core_machines(0);
    s.machines.push_back({"ep1", {layer("NUM_CPUS = 4\n")}});  // one partitionable slot
    auto pool = VirtualPool::create(s);
    REQUIRE(pool);
    VirtualPool& p = **pool;
    REQUIRE(p.submit(jobs("alice", 2, 10 * kHour)));
    p.run_until(kStart + 600);
    REQUIRE(p.counters().started == 2);
    // The partitionable slot's ad went with its dynamic slots': the next
    // jobs get what it has left (by match, or through the schedd's claim
    // to the leftovers), the fifth nothing, and no claim is refused.
    REQUIRE(p.submit(jobs("alice", 3, 10 * kHour)));
    p.run_until(kStart + 1200);
    CHECK(p.counters().started == 4);
    CHECK(p.queue().size() == 5);
    for (const std::string& w : p.warnings()) CHECK_THAT(w, !Catch::Contains("refused"));
  }
}

TEST_CASE("a virtual pool forgets the slots its schedd no longer deals with", "[sim][pool]") {
  // Every job carves a dynamic slot of a name never used again (slot1_1,
  // slot1_2, ...): a schedd that kept a number for each would grow with
  // every job of a simulated year (a million of them).
  PoolSetup s = one_core_machines(0, "CLAIM_WORKLIFE = 0\n");
  for (int m = 1; m <= 2; ++m) s.machines.push_back({"ep" + std::to_string(m), {layer("NUM_CPUS = 4\n")}});
  auto pool = VirtualPool::create(s);
  REQUIRE(pool);
  VirtualPool& p = **pool;
  REQUIRE(p.submit(jobs("alice", 200, 60)));
  p.run_until(kStart + 20 * kHour);
  REQUIRE(p.counters().finished == 200);
  // The partitionable slots' numbers may stay; none of the dynamic slots
  // that came and went.
  CHECK(p.slots_tracked() <= 2);
}

}  // namespace
}  // namespace cara::sim
