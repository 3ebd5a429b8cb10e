// A scenario played on a virtual pool (issue 29, `cara sim`): the
// scenario's submissions, arrivals, removals, priority changes and trace
// jobs at their times, the pool sampled at every `sample` interval, and
// what came of it — each job's run (Batsim's jobs.csv), the time series
// per submitter and per group, and the summary figures. Deterministic:
// the same scenario, traces and seed give the same records.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "model/common/result.h"
#include "model/sim/run_metrics.h"
#include "model/sim/scenario.h"
#include "model/sim/swf_submissions.h"
#include "model/sim/swf_trace.h"
#include "model/sim/time_series.h"
#include "model/sim/virtual_pool.h"

namespace cara::sim {

// How a group fared against its quota over the fairness window.
struct GroupShare {
  std::string name;
  double target = 0;       // its configured quota as a fraction of the pool's cores
  double mean_share = 0;   // its mean fraction of the pool's cores, over samples in which it had jobs
  double share_error = 0;  // the mean of |share - target| over those samples
  std::int64_t samples = 0;
};

struct SimSummary {
  RunSummary runs;                 // makespan, utilization, waits, bounded slowdown
  double jain = 1;                 // mean over the window's samples of Jain's index of running cores
                                   // among submitters with jobs
  std::vector<GroupShare> groups;  // by name
  std::int64_t preemptions = 0;    // matches that evicted a job
  std::int64_t evictions = 0;      // runs killed before they finished
  double wasted_core_hours = 0;    // the cores × hours of those runs
  std::int64_t submitted = 0, completed = 0, removed = 0, left_in_queue = 0;
  std::int64_t cycles = 0, cycles_skipped = 0, events = 0;
  std::int64_t simulated = 0;  // seconds of virtual time
  double cores = 0;
};

struct SimProgress {
  std::int64_t simulated = 0;  // seconds of virtual time so far
  std::int64_t events = 0;     // the pool's events so far
  bool done = false;           // the run's last word
};

// The jobs of a scenario's [trace] section, from the trace file read
// (`path` names it in errors): mapped as the section says and moved to its
// start.
SwfSubmissions trace_jobs(const ScenarioTrace& section, const SwfTrace& trace, const std::string& path);

// The scenario and its traces' jobs (read by the caller: no files here).
struct SimulationInput {
  Scenario scenario;
  std::vector<TimedSubmission> trace_jobs;  // `at` in seconds from the start
};

class Simulation {
 public:
  // A scenario's step at its time.
  struct Action {
    enum Kind { Submit, Arrival, Trace, Remove, Userprio, Reconfig } kind = Submit;
    std::int64_t at = 0;    // seconds from the start
    std::size_t index = 0;  // into the scenario's list of its kind (arrivals: the process)
  };

  static Result<std::unique_ptr<Simulation>> create(SimulationInput input);

  // Plays the scenario to its end; `progress` hears now and then. A
  // submission that fails (a bad submit body) stops the run with its error.
  Status run(const std::function<void(const SimProgress&)>& progress = {});

  const std::vector<JobRun>& runs() const { return runs_; }
  const TimeSeries& series() const { return series_; }
  SimSummary summary() const;
  VirtualPool& pool() { return *pool_; }

 private:
  struct JobState {
    std::string submitter;
    double submitted = 0, started = 0, cores = 1;
    enum Phase { Idle, Running } phase = Idle;
    bool removed = false;
  };
  struct Tally {
    double running = 0;     // cores, from the runs' starts and ends
    std::int64_t idle = 0;  // the queue's count, at the last sample
  };

  Simulation(SimulationInput input, std::unique_ptr<VirtualPool> pool);
  void observe(const PoolEvent& e);
  void sample();
  void advance_to(std::int64_t t, const std::function<void(const SimProgress&)>& progress);
  Status apply(const Action& a);
  std::string group_of(const std::string& submitter) const;
  double seconds(std::int64_t t) const { return static_cast<double>(t - start_); }

  SimulationInput input_;
  std::unique_ptr<VirtualPool> pool_;
  std::int64_t start_ = 0;
  std::vector<Action> actions_;
  std::int64_t next_sample_ = 0;
  std::map<schedd::JobId, JobState> jobs_;
  std::map<std::string, Tally> submitters_;
  std::vector<JobRun> runs_;
  TimeSeries series_;
  std::set<std::string> shown_;  // submitters and groups with a row at the last sample
  std::map<std::string, GroupShare> group_shares_;
  double jain_sum_ = 0;
  std::int64_t jain_samples_ = 0;
  std::int64_t evictions_ = 0, removed_ = 0, submitted_ = 0;
  double wasted_ = 0;
  std::int64_t end_ = 0;
};

}  // namespace cara::sim
