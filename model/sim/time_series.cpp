#include "model/sim/time_series.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "model/classad/unparse.h"

namespace cara::sim {
namespace {

std::string number(double v) {
  std::string out;
  classad::append_real(out, v);
  // Whole values without the ClassAd ".0": counts read as counts in a CSV.
  if (out.size() > 2 && out.compare(out.size() - 2, 2, ".0") == 0) out.resize(out.size() - 2);
  return out;
}

const char* kind_name(SeriesKind k) {
  return k == SeriesKind::Submitter ? "submitter" : "group";
}

std::string field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
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
    return Error{"a sample of " + sample.name + " at " + number(sample.time) + " s comes after one at " +
                 number(samples_.back().time) + " s: samples come in time order"};
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
    out += number(s.time) + "," + kind_name(s.kind) + "," + field(s.name) + "," + number(s.running) + "," +
           number(s.idle) + "," + number(s.real_priority) + "," + number(s.effective_priority) + "," +
           number(s.quota) + "," + number(s.share) + "\n";
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
