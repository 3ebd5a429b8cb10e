// The simulator's row of TARGETS.md (issue 29): simulated time per wall
// second for a pool of 10,000 cores and a synthetic year-long trace of about
// 1,000,000 jobs, generated here with a fixed seed. Goal: a simulated year in
// at most 60 s of wall time on one core. The pool: machines of 16 cores as
// partitionable slots with a consumption policy (the negotiator splits them),
// 4 GB per core; the trace: Poisson arrivals, 100 users chosen with a
// Zipf-like skew, 1, 2, 4 or 8 cores (70/10/10/10 %), exponential run times
// sized for about 70 % utilization. Every job goes through the schedd's own
// submission path. Prints one JSON object:
//   cores, machines, jobs, days          the run's size
//   wall_s                               the whole run (submissions included)
//   simulated_days_per_wall_hour         the Slurm simulator reaches about 17
//   year_wall_s_at_this_rate             wall seconds a simulated year takes at the measured rate
//   events, events_per_s, cycles, cycles_skipped, jobs_completed, utilization
// Usage: sim_bench [--cores N] [--days D] [--jobs N] [--seed S]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "model/sim/simulation.h"

using namespace cara;

namespace {

struct Options {
  int cores = 10000;
  double days = 365;
  long jobs = 1000000;
  std::uint64_t seed = 1;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; i += 2) {
    std::string a = argv[i];
    // Every option takes a value: a lone one (--help) is a usage error,
    // not the full year run.
    if (i + 1 >= argc) a.clear();
    if (a == "--cores")
      o.cores = std::atoi(argv[i + 1]);
    else if (a == "--days")
      o.days = std::atof(argv[i + 1]);
    else if (a == "--jobs")
      o.jobs = std::atol(argv[i + 1]);
    else if (a == "--seed")
      o.seed = std::strtoull(argv[i + 1], nullptr, 10);
    else {
      std::cerr << "usage: sim_bench [--cores N] [--days D] [--jobs N] [--seed S]\n";
      std::exit(1);
    }
  }
  return o;
}

std::vector<sim::TimedSubmission> synthetic_trace(const Options& o) {
  std::mt19937_64 rng(o.seed);
  const double duration = o.days * 86400;
  const double gap = duration / static_cast<double>(o.jobs);
  const double mean_cores = 0.7 * 1 + 0.1 * 2 + 0.1 * 4 + 0.1 * 8;
  const double mean_run = 0.7 * o.cores * duration / (static_cast<double>(o.jobs) * mean_cores);
  std::exponential_distribution<double> arrival(1 / gap), run(1 / mean_run);
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<sim::TimedSubmission> jobs;
  jobs.reserve(static_cast<std::size_t>(o.jobs));
  double t = 0;
  for (long i = 0; i < o.jobs; ++i) {
    t += arrival(rng);
    const double u = unit(rng);
    const int cpus = u < 0.7 ? 1 : u < 0.8 ? 2 : u < 0.9 ? 4 : 8;
    const int user = static_cast<int>(std::pow(unit(rng), 2.0) * 100);  // skewed towards u0
    const long run_time = std::max(1L, std::lround(run(rng)));
    sim::TimedSubmission j;
    j.at = t;
    j.swf_id = i + 1;
    j.run_time = static_cast<double>(run_time);
    j.submission.owner = "u" + std::to_string(user);
    j.submission.iwd = "/tmp";
    j.submission.label = "synthetic job " + std::to_string(i + 1);
    j.submission.description = "executable = /bin/true\nrequest_cpus = " + std::to_string(cpus) +
                               "\nrequest_memory = " + std::to_string(2048 * cpus) +
                               "\n+SimulatedRunTime = " + std::to_string(run_time) + "\nqueue\n";
    jobs.push_back(std::move(j));
  }
  return jobs;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const int machine_cores = 16;
  const int machines = std::max(1, o.cores / machine_cores);
  const std::string text = "[pool]\nUID_DOMAIN = sim\n[machines " + std::to_string(machines) +
                           "]\nNUM_CPUS = 16\nMEMORY = 65536\nSLOT_TYPE_1 = 100%\nNUM_SLOTS_TYPE_1 = 1\n"
                           "SLOT_TYPE_1_PARTITIONABLE = true\nSLOT_TYPE_1_CONSUMPTION_POLICY = true\n"
                           "[run]\nsample = 1d\nend = " +
                           std::to_string(static_cast<long>(o.days * 86400)) + "\n";
  auto scenario = sim::parse_scenario(text, "sim_bench");
  if (!scenario) return (std::cerr << scenario.error() << "\n", 1);
  scenario->pool.seed = o.seed;
  const auto began = std::chrono::steady_clock::now();
  auto simulation = sim::Simulation::create(sim::SimulationInput{std::move(*scenario), synthetic_trace(o)});
  if (!simulation) return (std::cerr << simulation.error() << "\n", 1);
  if (Status s = (*simulation)->run(); !s) return (std::cerr << s.error() << "\n", 1);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  const sim::SimSummary s = (*simulation)->summary();
  const double days = static_cast<double>(s.simulated) / 86400;
  nlohmann::json out{{"cores", s.cores},
                     {"machines", machines},
                     {"jobs", o.jobs},
                     {"days", days},
                     {"wall_s", wall},
                     {"simulated_days_per_wall_hour", days / (wall / 3600)},
                     {"year_wall_s_at_this_rate", wall * 365 / std::max(days, 1e-9)},
                     {"events", s.events},
                     {"events_per_s", static_cast<double>(s.events) / wall},
                     {"cycles", s.cycles},
                     {"cycles_skipped", s.cycles_skipped},
                     {"jobs_completed", s.completed},
                     {"utilization", s.runs.utilization}};
  std::cout << out.dump() << "\n";
  return 0;
}
