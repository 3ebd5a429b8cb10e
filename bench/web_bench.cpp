// Web endpoint benchmark (issue 24): prints one JSON object with the cost of
// one refresh of a large pool's summary — the work a scrape or a dashboard
// refresh does at most once per WEB_REFRESH_INTERVAL, however many clients
// ask — for a pool shaped like issue 30's (about 2,100 machines, 100,000
// cores in 24–64-core machines carved into dynamic slots, 500 submitters
// in 45 groups):
//   slots, submitters, groups        the pool's size
//   summarize_ms                     monitor::summarize of the gathered ads
//   metrics_ms, metrics_bytes        /metrics rendered from the summary
//   status_json_ms, groups_json_ms   /api/v1/status and /api/v1/groups
// each the median of several runs on one core.
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "apps/web/api_json.h"
#include "apps/web/metrics_exporter.h"
#include "bench/timing.h"
#include "model/classad/attr_read.h"
#include "model/config/config.h"
#include "model/config/config_host.h"
#include "model/monitor/pool_summary.h"

using namespace cara;
using bench::Clock;
using bench::median;

namespace {

constexpr int kRuns = 5;
constexpr int kMachines = 2100;
constexpr int kGroups = 45;
constexpr int kSubmitters = 500;

classad::ClassAd slot(const std::string& name, const std::string& machine, const char* state,
                      const char* activity, int cpus) {
  classad::ClassAd a;
  a.set("Name", name);
  a.set("Machine", machine);
  a.set("State", state);
  a.set("Activity", activity);
  a.set("Cpus", static_cast<std::int64_t>(cpus));
  return a;
}

std::string group_name(int g) {
  return "group_" + std::to_string(g);
}

monitor::PoolView pool(std::mt19937& rng) {
  monitor::PoolView v;
  v.now = 1700000000;
  std::uniform_int_distribution<int> cores(24, 64);
  for (int m = 0; m < kMachines; ++m) {
    const std::string machine = "ep" + std::to_string(m) + ".pool";
    int left = cores(rng);
    // Dynamic slots of 1–8 cores until a few are left on the p-slot.
    std::uniform_int_distribution<int> size(1, 8);
    for (int d = 1; left > 4; ++d) {
      const int c = std::min(left, size(rng));
      left -= c;
      v.live.slots.push_back(slot("slot1_" + std::to_string(d) + "@" + machine, machine, "Claimed",
                                  d % 17 ? "Busy" : "Idle", c));
    }
    v.live.slots.push_back(slot("slot1@" + machine, machine, "Unclaimed", "Idle", left));
  }
  for (int u = 0; u < kSubmitters; ++u) {
    const std::string name = group_name(u % kGroups) + ".user" + std::to_string(u) + "@pool";
    for (int ap = 0; ap < 2; ++ap) {
      classad::ClassAd s;
      s.set("Name", name);
      s.set("ScheddName", "ap" + std::to_string(ap));
      s.set("RunningJobs", static_cast<std::int64_t>(rng() % 200));
      s.set("IdleJobs", static_cast<std::int64_t>(rng() % 400));
      s.set("HeldJobs", static_cast<std::int64_t>(rng() % 5));
      v.live.submitters.push_back(std::move(s));
    }
    classad::ClassAd a;
    a.set("Name", name);
    a.set("IsAccountingGroup", false);
    a.set("Priority", 10.0 + u);
    a.set("EffectivePriority", 1000.0 * (10 + u));
    a.set("PriorityFactor", 1000.0);
    v.accounting.push_back(std::move(a));
  }
  for (int g = 0; g < kGroups; ++g) {
    classad::ClassAd a;
    a.set("Name", group_name(g));
    a.set("ConfigQuota", 2000.0);
    a.set("EffectiveQuota", 2000.0);
    a.set("GroupResourcesAllocated", 2100.0);
    a.set("GroupResourcesInUse", 1900.0);
    v.groups.push_back(std::move(a));
  }
  return v;
}

template <class F>
double ms(F&& body) {
  const auto t0 = Clock::now();
  body();
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

}  // namespace

int main() {
  std::mt19937 rng(24);
  const monitor::PoolView view = pool(rng);
  std::string groups_text = "GROUP_NAMES = ";
  for (int g = 0; g < kGroups; ++g) groups_text += group_name(g) + " ";
  auto config =
      config::config_from_text(groups_text + "\n", {"COLLECTOR", ""}, std::make_shared<config::MemoryHost>());
  auto accounting = accounting::AccountantConfig::from_config(*config);
  if (!accounting) {
    std::fprintf(stderr, "web_bench: %s\n", accounting.error().c_str());
    return 1;
  }
  std::vector<double> summarize, metrics, status, groups;
  std::size_t metrics_bytes = 0;
  for (int r = 0; r < kRuns; ++r) {
    monitor::PoolSummary s;
    summarize.push_back(ms([&] { s = monitor::summarize(view, *accounting); }));
    metrics.push_back(ms([&] { metrics_bytes = web::metrics_text(s).size(); }));
    status.push_back(ms([&] { (void)web::api_document(web::ApiPage::Status, s); }));
    groups.push_back(ms([&] { (void)web::api_document(web::ApiPage::Groups, s); }));
  }
  double cores = 0;
  for (const auto& s : view.live.slots) cores += classad::attr_number(s, "Cpus");
  nlohmann::json out = {{"bench", "web"},
                        {"slots", view.live.slots.size()},
                        {"cores", cores},
                        {"submitters", kSubmitters},
                        {"groups", kGroups},
                        {"summarize_ms", median(summarize)},
                        {"metrics_ms", median(metrics)},
                        {"metrics_bytes", metrics_bytes},
                        {"status_json_ms", median(status)},
                        {"groups_json_ms", median(groups)}};
  std::printf("%s\n", out.dump().c_str());
  return 0;
}
