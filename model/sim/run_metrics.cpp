#include "model/sim/run_metrics.h"

#include <algorithm>

#include "model/sim/csv.h"

namespace cara::sim {

double JobRun::stretch() const {
  const double e = execution();
  return e > 0 ? turnaround() / e : 0;
}

double JobRun::bounded_slowdown(double threshold) const {
  return std::max(1.0, turnaround() / std::max(execution(), threshold));
}

RunSummary summarize(const std::vector<JobRun>& runs, double cores) {
  RunSummary s;
  s.jobs = runs.size();
  if (runs.empty()) return s;
  double first = runs.front().submit, last = runs.front().finish, used = 0, wait = 0, slowdown = 0;
  for (const JobRun& r : runs) {
    first = std::min(first, r.submit);
    last = std::max(last, r.finish);
    used += r.cores * r.execution();
    wait += r.waiting();
    s.max_wait = std::max(s.max_wait, r.waiting());
    slowdown += r.bounded_slowdown();
  }
  s.makespan = last - first;
  s.utilization = cores > 0 && s.makespan > 0 ? used / (cores * s.makespan) : 0;
  s.mean_wait = wait / static_cast<double>(runs.size());
  s.mean_bounded_slowdown = slowdown / static_cast<double>(runs.size());
  return s;
}

double jain_index(const std::vector<double>& x) {
  double sum = 0, squares = 0;
  for (double v : x) {
    sum += v;
    squares += v * v;
  }
  if (x.empty() || squares == 0) return 1;
  return sum * sum / (static_cast<double>(x.size()) * squares);
}

std::string jobs_csv(const std::vector<JobRun>& runs) {
  std::string out =
      "job_id,submission_time,starting_time,finish_time,waiting_time,turnaround_time,stretch,"
      "allocated_resources\n";
  for (const JobRun& r : runs) {
    out += csv_field(r.id) + "," + csv_number(r.submit) + "," + csv_number(r.start) + "," +
           csv_number(r.finish) + "," + csv_number(r.waiting()) + "," + csv_number(r.turnaround()) + "," +
           csv_number(r.stretch()) + "," + csv_field(r.allocated) + "\n";
  }
  return out;
}

}  // namespace cara::sim
