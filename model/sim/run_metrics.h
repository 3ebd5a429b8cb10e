// What a simulated run produced, job by job and as a whole (issue 29):
// Batsim's jobs.csv columns and the summary figures scheduling studies
// compare — makespan, utilization, waiting times, bounded slowdown and
// Jain's fairness index. Pure arithmetic on finished runs.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace cara::sim {

// One job's run: when it arrived, started and finished (seconds), on how
// many cores, and where (the slots, as Batsim's allocated_resources).
struct JobRun {
  std::string id;
  double submit = 0, start = 0, finish = 0;
  double cores = 1;
  std::string allocated;

  double waiting() const { return start - submit; }
  double turnaround() const { return finish - submit; }
  double execution() const { return finish - start; }
  // Batsim's stretch: turnaround over execution time (0 for a job that took no time).
  double stretch() const;
  // max(1, turnaround / max(execution, threshold)): slowdown that a very
  // short job cannot inflate (Feitelson's bounded slowdown).
  double bounded_slowdown(double threshold = kBoundedSlowdownThreshold) const;

  static constexpr double kBoundedSlowdownThreshold = 10;  // seconds
};

struct RunSummary {
  std::size_t jobs = 0;
  double makespan = 0;     // from the first arrival to the last finish
  double utilization = 0;  // core-seconds used over cores × makespan
  double mean_wait = 0, max_wait = 0;
  double mean_bounded_slowdown = 0;
};

// `cores`: the pool's size, for utilization (0 leaves it 0).
RunSummary summarize(const std::vector<JobRun>& runs, double cores);

// Jain's fairness index (Σx)² / (n Σx²): 1 when every x is equal, 1/n when
// one takes everything; 1 for no values or all zero (nobody was wronged).
double jain_index(const std::vector<double>& x);

// Batsim's jobs.csv: a header, then one line per job in the given order.
std::string jobs_csv(const std::vector<JobRun>& runs);

}  // namespace cara::sim
