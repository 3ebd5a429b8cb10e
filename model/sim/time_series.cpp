#include "model/sim/time_series.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "model/sim/csv.h"

namespace cara::sim {
namespace {

const char* kind_name(SeriesKind k) {
  return k == SeriesKind::Submitter ? "submitter" : "group";
}

// Series by name, in name order, from the samples of `kind`.
std::vector<ChartSeries> by_name(const std::vector<SeriesSample>& samples, SeriesKind kind,
                                 double SeriesSample::*value) {
  std::map<std::string, ChartSeries> series;
  for (const SeriesSample& s : samples) {
    if (s.kind != kind) continue;
    ChartSeries& c = series[s.name];
    c.name = s.name;
    c.points.emplace_back(s.time, s.*value);
  }
  std::vector<ChartSeries> out;
  for (auto& [name, c] : series) out.push_back(std::move(c));
  return out;
}

}  // namespace

Status TimeSeries::record(SeriesSample sample) {
  if (!samples_.empty() && sample.time < samples_.back().time)
    return Error{"a sample of " + sample.name + " at " + csv_number(sample.time) + " s comes after one at " +
                 csv_number(samples_.back().time) + " s: samples come in time order"};
  // Keep each time's rows ordered by kind, then name: the CSV is the same
  // whatever order a step produced them in.
  auto key = [](const SeriesSample& s) { return std::tie(s.time, s.kind, s.name); };
  auto at = std::lower_bound(samples_.begin(), samples_.end(), sample,
                             [&](const SeriesSample& a, const SeriesSample& b) { return key(a) < key(b); });
  if (at != samples_.end() && key(*at) == key(sample))
    *at = std::move(sample);
  else
    samples_.insert(at, std::move(sample));
  return Ok{};
}

std::string TimeSeries::csv() const {
  std::string out = "time,kind,name,running,idle,rup,eup,quota,share\n";
  for (const SeriesSample& s : samples_) {
    out += csv_number(s.time) + "," + kind_name(s.kind) + "," + csv_field(s.name) + "," +
           csv_number(s.running) + "," + csv_number(s.idle) + "," + csv_number(s.real_priority) + "," +
           csv_number(s.effective_priority) + "," + csv_number(s.quota) + "," + csv_number(s.share) + "\n";
  }
  return out;
}

Chart TimeSeries::running_chart(SeriesKind kind, const std::string& title) const {
  return Chart{title, "time (s)", "running jobs", by_name(samples_, kind, &SeriesSample::running), true};
}

Chart TimeSeries::priority_chart(const std::string& title) const {
  return Chart{title, "time (s)", "effective priority",
               by_name(samples_, SeriesKind::Submitter, &SeriesSample::effective_priority), false};
}

}  // namespace cara::sim
