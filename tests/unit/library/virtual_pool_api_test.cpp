// caracara's public virtual-time API (include/caracara/virtual_pool.h):
// what an embedding program sees.
#include <caracara/virtual_pool.h>

#include <catch2/catch.hpp>
#include <map>

namespace {

caracara::PoolSpec pool_of(int machines, const std::string& cm = "") {
  caracara::PoolSpec spec;
  spec.common.text = "UID_DOMAIN = api\n";
  spec.central_manager.text = cm;
  for (int i = 1; i <= machines; ++i) spec.machines.push_back({"ep" + std::to_string(i), {"NUM_CPUS = 1\n"}});
  return spec;
}

TEST_CASE("the public API steps a pool in virtual time and reports its events", "[library]") {
  caracara::VirtualPool pool(pool_of(2));
  std::map<caracara::EventKind, int> seen;
  std::vector<caracara::Event> started;
  pool.on_event([&](const caracara::Event& e) {
    ++seen[e.kind];
    if (e.kind == caracara::EventKind::Started) started.push_back(e);
  });
  const auto ids = pool.submit("alice", "executable = /bin/true\n+SimulatedRunTime = 600\nqueue 3\n");
  CHECK(ids == std::vector<std::string>{"1.0", "1.1", "1.2"});
  CHECK(pool.jobs().idle == 3);
  pool.advance(3600);
  CHECK(seen[caracara::EventKind::Submitted] == 3);
  CHECK(seen[caracara::EventKind::Started] == 3);
  CHECK(seen[caracara::EventKind::Finished] == 3);
  CHECK(seen[caracara::EventKind::PriorityChanged] >= 1);
  REQUIRE(started.size() == 3);
  CHECK(started[0].submitter == "alice@api");
  CHECK(started[0].value == 1);
  CHECK(pool.jobs().idle == 0);
  CHECK(pool.cores() == 2);
  const auto prios = pool.priorities();
  REQUIRE(prios.size() == 1);
  CHECK(prios[0].name == "alice@api");
  CHECK(prios[0].effective_priority == Approx(prios[0].real_priority * prios[0].factor));
  CHECK(prios[0].accumulated_usage == Approx(1800).margin(150));  // claims end at the cycle after their job
}

TEST_CASE("the public API changes priorities and configuration at run time", "[library]") {
  caracara::VirtualPool pool(
      pool_of(4, "GROUP_NAMES = group_a, group_b\nGROUP_QUOTA_group_a = 3\nGROUP_QUOTA_group_b = 1\n"));
  std::vector<caracara::Event> quotas;
  pool.on_event([&](const caracara::Event& e) {
    if (e.kind == caracara::EventKind::QuotaChanged) quotas.push_back(e);
  });
  pool.submit("alice",
              "executable = /bin/true\naccounting_group = group_a\n+SimulatedRunTime = 60\nqueue 2\n");
  pool.advance(120);
  REQUIRE_FALSE(pool.group_quotas().empty());
  pool.reconfigure(caracara::Node::CentralManager, {"GROUP_QUOTA_group_a = 1\nGROUP_QUOTA_group_b = 3\n"});
  pool.submit("alice",
              "executable = /bin/true\naccounting_group = group_a\n+SimulatedRunTime = 60\nqueue 2\n");
  pool.advance(120);
  bool a_became_1 = false;
  for (const caracara::Event& e : quotas)
    a_became_1 = a_became_1 || (e.submitter == "group_a" && e.value == 1);
  CHECK(a_became_1);
  pool.userprio("setfactor", "group_a.alice@api", 5);
  for (const auto& p : pool.priorities())
    if (p.name == "group_a.alice@api") CHECK(p.factor == 5);
  pool.remove("Owner == \"alice\"");
  CHECK(pool.jobs().idle == 0);
  CHECK(pool.jobs().running == 0);
}

TEST_CASE("the public API throws caracara::Error naming the place", "[library]") {
  caracara::PoolSpec bad = pool_of(1);
  bad.machines[0].config = {"NUM_CPUS = 1\nSTART = (\n", "ep.conf", 10};
  CHECK_THROWS_WITH(caracara::VirtualPool(bad), Catch::Contains("ep.conf, line 11"));
  caracara::VirtualPool pool(pool_of(1));
  CHECK_THROWS_AS(pool.submit("alice", "request_cpus = (\nqueue\n"), caracara::Error);
  CHECK_THROWS_WITH(pool.userprio("setcolour", "alice@api", 1), Catch::Contains("setcolour"));
  CHECK_THROWS_AS(pool.remove("Owner =="), caracara::Error);
  CHECK_THROWS_AS(pool.reconfigure(caracara::Node::Machines, {"START = true\n"}, "nosuch"), caracara::Error);
}

TEST_CASE("the public API submits job ClassAds through the schedd's own path", "[library]") {
  caracara::VirtualPool pool(pool_of(2, "GROUP_NAMES = group_a\nGROUP_QUOTA_group_a = 2\n"));
  std::vector<caracara::Event> started;
  pool.on_event([&](const caracara::Event& e) {
    if (e.kind == caracara::EventKind::Started) started.push_back(e);
  });
  const auto ids = pool.submit_ad(
      "alice", "[ Cmd = \"/bin/true\"; SimulatedRunTime = 600; AccountingGroup = \"group_a.alice\" ]", 2);
  CHECK(ids == std::vector<std::string>{"1.0", "1.1"});
  // Old syntax too, one attribute per line.
  CHECK(pool.submit_ad("bob", "Cmd = \"/bin/true\"\nSimulatedRunTime = 60\n") ==
        std::vector<std::string>{"2.0"});
  pool.advance(120);
  REQUIRE(started.size() >= 2);
  CHECK(started[0].submitter == "group_a.alice@api");
  pool.advance(3600);
  CHECK(pool.jobs().idle + pool.jobs().running == 0);
  CHECK_THROWS_WITH(pool.submit_ad("alice", "[ Cmd = \"/bin/true\"; Owner = \"root\" ]"),
                    Catch::Contains("Owner, which the schedd sets itself"));
  CHECK_THROWS_WITH(pool.submit_ad("alice", "[ RequestCpus = 1 ]"), Catch::Contains("no Cmd"));
  CHECK_THROWS_WITH(pool.submit_ad("alice", "[ Cmd = "), Catch::Contains("does not parse"));
  CHECK_THROWS_WITH(pool.submit_ad("alice", "[ Cmd = \"/bin/true\" ]", 0), Catch::Contains("at least once"));
}

TEST_CASE("the public API adds and removes machines at run time", "[library]") {
  caracara::VirtualPool pool(pool_of(1));
  int killed = 0;
  pool.on_event([&](const caracara::Event& e) { killed += e.kind == caracara::EventKind::Killed; });
  pool.submit("alice", "executable = /bin/true\n+SimulatedRunTime = 7200\nqueue 4\n");
  pool.add_machine({"wide", {"NUM_CPUS = 3\n"}});
  CHECK(pool.cores() == 4);
  pool.advance(600);
  CHECK(pool.jobs().running == 4);
  CHECK_THROWS_WITH(pool.add_machine({"wide", {"NUM_CPUS = 3\n"}}), Catch::Contains("already"));
  pool.remove_machine("wide");
  CHECK(killed == 3);
  CHECK(pool.cores() == 1);
  CHECK(pool.jobs().running == 1);
  CHECK(pool.jobs().idle == 3);
  CHECK_THROWS_WITH(pool.remove_machine("wide"), Catch::Contains("no machine named wide"));
}

}  // namespace
