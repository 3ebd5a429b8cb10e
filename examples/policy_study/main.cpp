// How fast does a newcomer get their share? Two users on a 10-core pool:
// alice has used it alone for a day when bob arrives. The same scenario
// under two priority half-lives (PRIORITY_HALFLIFE), in virtual time, with
// caracara's own negotiator, accountant, schedd and startds.
#include <caracara/virtual_pool.h>

#include <cstdio>
#include <string>

namespace {

constexpr std::int64_t kHour = 3600;

// Bob's running jobs, hour by hour, for his first `hours` hours.
std::vector<int> newcomer_share(std::int64_t halflife, int hours) {
  caracara::PoolSpec spec;
  spec.common.text = "UID_DOMAIN = study\nDEFAULT_PRIO_FACTOR = 1\n";
  spec.central_manager.text = "PRIORITY_HALFLIFE = " + std::to_string(halflife) + "\n";
  for (int i = 1; i <= 10; ++i) spec.machines.push_back({"ep" + std::to_string(i), {"NUM_CPUS = 1\n"}});
  caracara::VirtualPool pool(spec);
  int bob = 0;
  pool.on_event([&](const caracara::Event& e) {
    if (e.submitter.rfind("bob@", 0) != 0) return;
    if (e.kind == caracara::EventKind::Started) ++bob;
    if (e.kind == caracara::EventKind::Finished || e.kind == caracara::EventKind::Killed) --bob;
  });
  const std::string job = "executable = /bin/true\n+SimulatedRunTime = $RANDOM_INTEGER(3600, 7200)\n";
  pool.submit("alice", job + "queue 400\n");
  pool.advance(24 * kHour);
  pool.submit("bob", job + "queue 200\n");
  std::vector<int> out;
  for (int h = 1; h <= hours; ++h) {
    pool.advance(kHour);
    out.push_back(bob);
  }
  return out;
}

}  // namespace

int main() {
  const int hours = 12;
  const auto day = newcomer_share(86400, hours);
  const auto hour = newcomer_share(3600, hours);
  std::printf("hours after bob arrives   bob's cores (half-life 1 day)   (half-life 1 hour)\n");
  for (int h = 0; h < hours; ++h) std::printf("%22d %31d %20d\n", h + 1, day[h], hour[h]);
  // With either half-life bob, whose priority is the best, takes the
  // cores alice's jobs free; with the short one alice's history is
  // forgotten within hours and the two share the pool.
  return day.back() > 0 && hour.back() > 0 ? 0 : 1;
}
