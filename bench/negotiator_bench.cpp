// One negotiation cycle over synthetic pools (issue 5, section 6): a grid
// up to 100,000 slots and 1,000,000 idle jobs in 10,000 autoclusters from
// 1,000 submitters in 50 groups, preemption on. Prints one JSON object:
//   {"points": [{"slots", "machine_shapes", "jobs", "autoclusters",
//                "submitters", "groups", "cycle_s", "matches",
//                "matches_per_s", "reference_cycle_s"}]}
// cycle_s is the median of 3 cycles; reference_cycle_s is the plain
// algorithm's (every slot assessed one by one), or null where it would not
// finish within a minute. Usage: negotiator_bench [--min-slots N] [--max-slots N] [--runs N].
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "bench/timing.h"
#include "model/accounting/accountant.h"
#include "model/accounting/group_tree.h"
#include "model/classad/parser.h"
#include "model/config/config.h"
#include "model/config/config_host.h"
#include "model/negotiation/negotiation_cycle.h"

using namespace cara;

namespace {

constexpr std::int64_t kNow = 1700000000;
constexpr int kSlotsPerMachine = 8;

struct Point {
  int slots, shapes, jobs, autoclusters, submitters, groups;
};

classad::ClassAd parse(const std::string& text) {
  auto ad = classad::parse_classad(text);
  if (!ad) {
    std::cerr << "negotiator_bench: " << ad.error() << "\n";
    std::exit(1);
  }
  return *ad;
}

std::string group_name(int g) {
  return "group_" + std::to_string(g);
}
std::string submitter_name(int s, int groups) {
  return group_name(s % groups) + ".user" + std::to_string(s) + "@example.org";
}

struct Pool {
  config::Config config;
  negotiation::NegotiatorPolicy policy;
  std::unique_ptr<accounting::Accountant> accountant;
  std::optional<accounting::GroupTree> groups;
  std::vector<classad::ClassAd> slots;
  std::vector<classad::ClassAd> jobs;
  std::vector<negotiation::SubmitterRequests> submitters;
};

std::unique_ptr<Pool> build(const Point& p, std::mt19937& rng) {
  std::string text =
      "UID_DOMAIN = example.org\n"
      "PREEMPTION_REQUIREMENTS = RemoteUserPrio > SubmitterUserPrio * 1.2\n"
      "GROUP_ACCEPT_SURPLUS = True\n"
      "GROUP_NAMES = ";
  for (int g = 0; g < p.groups; ++g) text += (g ? ", " : "") + group_name(g);
  text += "\n";
  for (int g = 0; g < p.groups; ++g)
    text += "GROUP_QUOTA_DYNAMIC_" + group_name(g) + " = " + std::to_string(1.0 / p.groups) + "\n";
  auto config = config::config_from_text(text, {"NEGOTIATOR", ""}, std::make_shared<config::MemoryHost>());
  if (!config) {
    std::cerr << "negotiator_bench: " << config.error() << "\n";
    std::exit(1);
  }
  auto pool = std::make_unique<Pool>(Pool{*config, {}, nullptr, std::nullopt, {}, {}, {}});
  pool->policy = *negotiation::NegotiatorPolicy::from_config(pool->config);
  pool->accountant = std::make_unique<accounting::Accountant>(
      *accounting::AccountantConfig::from_config(pool->config), kNow);
  pool->groups = *accounting::GroupTree::from_config(pool->config);
  std::uniform_real_distribution<double> prio(0.5, 500);
  for (int s = 0; s < p.submitters; ++s)
    (void)pool->accountant->set_priority(submitter_name(s, p.groups), prio(rng));

  // Machine shapes: memory, arch and speed vary; each machine has 8
  // single-core slots. A quarter of the slots run a job.
  std::vector<classad::ClassAd> shapes;
  for (int k = 0; k < p.shapes; ++k) {
    shapes.push_back(
        parse("[MyType = \"Machine\"; Arch = \"" + std::string(k % 5 ? "X86_64" : "aarch64") +
              "\"; OpSys = \"LINUX\"; Cpus = 1; Memory = " + std::to_string(1024 * (1 + k % 8)) +
              "; Disk = 10000000; KFlops = " + std::to_string(1000000 + 1000 * (k % 13)) +
              "; SlotWeight = Cpus; START = TARGET.RequestMemory <= MY.Memory; Requirements = START; "
              "Rank = 0]"));
  }
  const int machines = p.slots / kSlotsPerMachine;
  std::uniform_int_distribution<int> user(0, p.submitters - 1);
  pool->slots.reserve(static_cast<std::size_t>(p.slots));
  for (int m = 0; m < machines; ++m) {
    const std::string host = "wn" + std::to_string(m) + ".example.org";
    for (int s = 1; s <= kSlotsPerMachine; ++s) {
      classad::ClassAd ad = shapes[static_cast<std::size_t>(m % p.shapes)];
      ad.set("Name", "slot" + std::to_string(s) + "@" + host);
      ad.set("Machine", host);
      ad.set("SlotID", s);
      if (rng() % 4 == 0) {
        const std::string who = submitter_name(user(rng), p.groups);
        ad.set("State", "Claimed");
        ad.set("Activity", "Busy");
        ad.set("RemoteUser", who);
        ad.set("RemoteOwner", who);
        ad.set("AccountingGroup", who);
        ad.set("CurrentRank", 0.0);
      } else {
        ad.set("State", "Unclaimed");
        ad.set("Activity", "Idle");
      }
      pool->slots.push_back(std::move(ad));
    }
  }
  // Autoclusters: requirements over arch and memory, spread over the
  // submitters.
  pool->jobs.reserve(static_cast<std::size_t>(p.autoclusters));
  for (int a = 0; a < p.autoclusters; ++a) {
    pool->jobs.push_back(
        parse("[MyType = \"Job\"; RequestCpus = 1; RequestMemory = " + std::to_string(512 * (1 + a % 16)) +
              "; Requirements = TARGET.Arch == \"" + (a % 7 ? "X86_64" : "aarch64") +
              "\" && TARGET.Memory >= RequestMemory && TARGET.Cpus >= RequestCpus; Rank = "
              "TARGET.KFlops; JobPrio = " +
              std::to_string(a % 3) + "]"));
  }
  pool->submitters.resize(static_cast<std::size_t>(p.submitters));
  for (int s = 0; s < p.submitters; ++s)
    pool->submitters[static_cast<std::size_t>(s)].name = submitter_name(s, p.groups);
  const std::int64_t per = p.jobs / p.autoclusters;
  for (int a = 0; a < p.autoclusters; ++a) {
    negotiation::Request r;
    r.job = &pool->jobs[static_cast<std::size_t>(a)];
    r.count = per;
    pool->submitters[static_cast<std::size_t>(a % p.submitters)].requests.push_back(std::move(r));
  }
  return pool;
}

double cycle_seconds(Pool& pool, bool classes, std::int64_t& matches,
                     negotiation::CycleStats* stats = nullptr) {
  classad::EvalEnv env;
  env.now = kNow;
  negotiation::NegotiationCycle cycle(pool.policy, *pool.accountant, pool.groups, env);
  cycle.set_slot_classes(classes);
  const auto origin = bench::Clock::now();
  cycle.set_clock([origin] { return std::chrono::duration<double>(bench::Clock::now() - origin).count(); });
  const auto start = bench::Clock::now();
  const negotiation::CycleResult r = cycle.run(pool.slots, pool.submitters);
  const double s = std::chrono::duration<double>(bench::Clock::now() - start).count();
  matches = r.stats.matches;
  if (stats != nullptr) *stats = r.stats;
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  int max_slots = 100000, min_slots = 0, repeats = 3;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--max-slots") == 0) max_slots = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--min-slots") == 0) min_slots = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--runs") == 0) repeats = std::max(1, std::atoi(argv[i + 1]));
  }
  const Point grid[] = {
      {1000, 50, 10000, 100, 100, 10},
      {10000, 50, 100000, 1000, 1000, 50},
      {100000, 50, 1000000, 10000, 1000, 50},
  };
  nlohmann::json points = nlohmann::json::array();
  std::mt19937 rng(5);
  for (const Point& p : grid) {
    if (p.slots > max_slots || p.slots < min_slots) continue;
    auto pool = build(p, rng);
    std::vector<double> runs;
    std::int64_t matches = 0;
    negotiation::CycleStats stats;
    for (int i = 0; i < repeats; ++i) runs.push_back(cycle_seconds(*pool, true, matches, &stats));
    nlohmann::json point = {
        {"slots", p.slots},
        {"machine_shapes", p.shapes},
        {"jobs", p.jobs},
        {"autoclusters", p.autoclusters},
        {"submitters", p.submitters},
        {"groups", p.groups},
        {"cycle_s", bench::median(runs)},
        {"matches", matches},
        {"matches_per_s", static_cast<double>(matches) / bench::median(runs)},
        {"slot_classes", stats.slot_classes},
        {"slot_class_assessments", stats.slot_evaluations},
        {"presorted_walks", stats.presorted_walks},
        // the last run's phases: slots, quotas, classes, matchmaking
        {"phase_s",
         {stats.duration_phase1, stats.duration_phase2, stats.duration_phase3, stats.duration_phase4}}};
    // The plain algorithm assesses autoclusters x slots: beyond 10,000
    // slots it would take minutes.
    if (p.slots <= 10000) {
      std::int64_t ref_matches = 0;
      point["reference_cycle_s"] = cycle_seconds(*pool, false, ref_matches);
      if (ref_matches != matches) point["reference_matches"] = ref_matches;
    } else {
      point["reference_cycle_s"] = nullptr;
    }
    points.push_back(point);
  }
  std::cout << nlohmann::json{{"points", points}}.dump() << "\n";
  return 0;
}
