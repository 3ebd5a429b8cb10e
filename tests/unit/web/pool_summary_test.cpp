// The web endpoint's summary of the pool (model/monitor/pool_summary.h):
// slots by state and activity, jobs per submitter and group by the pool
// history's rule, priorities, quotas, the negotiator's last cycle, daemons
// up and down, the collector's counters.
#include <catch2/catch.hpp>

#include "web_fixture.h"

using namespace cara;

namespace {

template <class T>
const T& named(const std::vector<T>& items, const std::string& name) {
  for (const T& i : items)
    if (i.name == name) return i;
  FAIL("no " << name);
  return items.front();
}

}  // namespace

TEST_CASE("the summary counts slots by State and Activity, and machines and cpus", "[web][summary]") {
  const monitor::PoolSummary s = monitor::summarize(test_web::small_pool(), test_web::groups());
  REQUIRE(s.slots.size() == 4);
  auto find = [&](const std::string& state, const std::string& activity) {
    for (const auto& b : s.slots)
      if (b.state == state && b.activity == activity) return std::pair{b.slots, b.cpus};
    return std::pair<std::int64_t, double>{-1, -1};
  };
  CHECK(find("Claimed", "Busy") == std::pair<std::int64_t, double>{2, 4});
  CHECK(find("Claimed", "Idle") == std::pair<std::int64_t, double>{1, 1});
  CHECK(find("Unclaimed", "Idle") == std::pair<std::int64_t, double>{1, 4});
  CHECK(find("Owner", "Idle") == std::pair<std::int64_t, double>{1, 1});
  CHECK(s.total_slots == 5);
  CHECK(s.machines == 2);
  CHECK(s.cpus == 10);
  CHECK(s.cpus_in_use == 5);  // the Claimed slots' cpus
}

TEST_CASE("the summary sums each submitter's jobs over its access points, and each group's",
          "[web][summary]") {
  const monitor::PoolSummary s = monitor::summarize(test_web::small_pool(), test_web::groups());
  const auto& alice = named(s.submitters, "group_cms.alice@pool");
  CHECK(alice.group == "group_cms");
  CHECK(alice.jobs.running == 3);
  CHECK(alice.jobs.idle == 5);
  CHECK(alice.jobs.held == 1);
  CHECK(alice.has_priority);
  CHECK(alice.effective_priority == 2500.0);
  CHECK(alice.factor == 1000.0);
  CHECK(alice.resources_used == 3.0);
  const auto& carol = named(s.submitters, "carol@pool");
  CHECK(carol.group == "<none>");
  CHECK_FALSE(carol.has_priority);
  // A user the accountant remembers with nothing queued is listed too.
  const auto& dave = named(s.submitters, "dave@pool");
  CHECK(dave.group == "<none>");
  CHECK(dave.has_priority);
  CHECK(dave.jobs.idle == 0);
  CHECK(s.jobs.running == 3);
  CHECK(s.jobs.idle == 9);
  CHECK(s.jobs.held == 3);

  const auto& cms = named(s.groups, "group_cms");
  CHECK(cms.submitters == 1);
  CHECK(cms.jobs.running == 3);
  CHECK(cms.has_quota);
  CHECK(cms.config_quota == 4.0);
  CHECK(cms.effective_quota == 4.0);
  CHECK(cms.allocated == 5.0);
  CHECK(cms.in_use == 3.0);
  CHECK(cms.requested == 8.0);
  CHECK(named(s.groups, "group_atlas").jobs.idle == 3);
  CHECK(named(s.groups, "<none>").jobs.held == 2);
  // Sorted by name, for stable output.
  CHECK(s.groups.front().name == "<none>");
}

TEST_CASE("the summary keeps the negotiator's last cycle, the daemons and the collector", "[web][summary]") {
  const monitor::PoolSummary s = monitor::summarize(test_web::small_pool(), test_web::groups());
  REQUIRE(s.negotiators.size() == 1);
  const auto& n = s.negotiators.front();
  CHECK(n.name == "cm1");
  CHECK(n.active);
  CHECK(n.term == 3);
  CHECK(n.cycles == 42);
  CHECK(n.duration == 0.25);
  CHECK(n.phase[3] == 0.19);
  CHECK(n.matches == 3);
  CHECK(n.rejections == 1);
  REQUIRE(s.daemons.size() == 5);
  auto up = [&](const std::string& machine, const std::string& daemon) {
    for (const auto& d : s.daemons)
      if (d.machine == machine && d.daemon == daemon) return d.up ? 1 : 0;
    return -1;
  };
  CHECK(up("cm1", "NEGOTIATOR") == 1);
  CHECK(up("ep1", "MASTER") == 1);
  CHECK(up("ep1", "STARTD") == 0);
  REQUIRE(s.collectors.size() == 1);
  CHECK(s.collectors.front().updates_total == 1234);
  CHECK(s.ad_counts.at("Machine") == 5);
  CHECK(s.ad_counts.at("Submitter") == 4);
  REQUIRE(s.ha);
  CHECK(s.ha->term == 3);
}

TEST_CASE("without high availability the one negotiator is the active one", "[web][summary]") {
  monitor::PoolView v;
  v.live.negotiators = {test_ads::ad(R"([ Name = "cm"; NegotiationCycles = 1 ])")};
  v.masters = {test_ads::ad(R"([ Name = "old"; DaemonList = "MASTER, SCHEDD" ])")};
  const monitor::PoolSummary s = monitor::summarize(v, test_web::groups());
  CHECK(s.negotiators.front().active);
  CHECK(s.negotiators.front().term == 0);
  // A master ad that does not list its running daemons has them up.
  REQUIRE(s.daemons.size() == 2);
  CHECK(s.daemons[1].up);
  CHECK_FALSE(s.ha);
}
