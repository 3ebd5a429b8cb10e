// What the simulator samples as virtual time passes (issue 29): for each
// submitter and each accounting group, its running and idle jobs, real and
// effective priority, quota and share of the pool, at each sample time.
// Written as the time-series CSV of `cara sim` and drawn as its plots
// (running jobs per group, priorities over time). Deterministic: rows in
// time order, then kind, then name.
#pragma once

#include <string>
#include <vector>

#include "model/common/result.h"
#include "model/sim/svg_chart.h"

namespace cara::sim {

enum class SeriesKind { Submitter, Group };

struct SeriesSample {
  double time = 0;  // seconds of virtual time
  SeriesKind kind = SeriesKind::Submitter;
  std::string name;
  double running = 0, idle = 0;
  double real_priority = 0, effective_priority = 0;  // submitters; 0 for groups
  double quota = 0;                                  // groups: effective quota; 0 for submitters
  double share = 0;                                  // fraction of the pool's busy cores
};

class TimeSeries {
 public:
  // Samples come in non-decreasing time (an earlier one is refused); a
  // second sample of the same kind and name at the same time replaces the
  // first.
  Status record(SeriesSample sample);

  const std::vector<SeriesSample>& samples() const { return samples_; }

  // time,kind,name,running,idle,rup,eup,quota,share — one row per sample.
  std::string csv() const;

  // Running jobs of every name of `kind` over time (a step chart).
  Chart running_chart(SeriesKind kind, const std::string& title) const;
  // Every submitter's effective priority over time (a line chart).
  Chart priority_chart(const std::string& title) const;

 private:
  std::vector<SeriesSample> samples_;
};

}  // namespace cara::sim
