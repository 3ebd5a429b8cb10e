#include "model/sim/time_series.h"

#include <catch2/catch.hpp>

using namespace cara::sim;

namespace {

SeriesSample submitter(double t, const std::string& name, double running, double idle, double rup, double eup,
                       double share) {
  return {t, SeriesKind::Submitter, name, running, idle, rup, eup, 0, share};
}
SeriesSample group(double t, const std::string& name, double running, double idle, double quota,
                   double share) {
  return {t, SeriesKind::Group, name, running, idle, 0, 0, quota, share};
}

}  // namespace

TEST_CASE("the time series as CSV: in time, kind and name order, whatever order it came in",
          "[sim][series]") {
  TimeSeries ts;
  REQUIRE(ts.record(group(0, "group_cms", 0, 12, 12, 0)).ok());
  REQUIRE(ts.record(submitter(0, "u2", 0, 4, 0.5, 0.5, 0)).ok());
  REQUIRE(ts.record(submitter(0, "u1", 0, 8, 0.5, 0.5, 0)).ok());
  REQUIRE(ts.record(submitter(60, "u1", 8, 0, 0.503, 0.503, 0.75)).ok());
  REQUIRE(ts.record(group(60, "group_cms", 12, 0, 12, 1)).ok());
  // A second sample of u1 at 60 s replaces the first.
  REQUIRE(ts.record(submitter(60, "u1", 6, 2, 0.5025, 0.5025, 0.6)).ok());
  CHECK(ts.csv() ==
        "time,kind,name,running,idle,rup,eup,quota,share\n"
        "0,submitter,u1,0,8,0.5,0.5,0,0\n"
        "0,submitter,u2,0,4,0.5,0.5,0,0\n"
        "0,group,group_cms,0,12,0,0,12,0\n"
        "60,submitter,u1,6,2,0.5025,0.5025,0,0.6\n"
        "60,group,group_cms,12,0,0,0,12,1\n");
  // An earlier sample than the last is refused, naming both times.
  auto late = ts.record(submitter(30, "u2", 1, 1, 1, 1, 0));
  REQUIRE_FALSE(late.ok());
  CHECK(late.error() == "a sample of u2 at 30 s comes after one at 60 s: samples come in time order");
  CHECK(ts.samples().size() == 5);
}

TEST_CASE("the time series as charts: running jobs per group, priorities per submitter", "[sim][series]") {
  TimeSeries ts;
  for (double t : {0.0, 60.0, 120.0}) {
    REQUIRE(ts.record(group(t, "group_b", t / 60, 0, 4, 0)).ok());
    REQUIRE(ts.record(group(t, "group_a", 2 * t / 60, 0, 4, 0)).ok());
    REQUIRE(ts.record(submitter(t, "u1", 1, 0, 0.5 + t / 1000, 0.5 + t / 100, 0)).ok());
  }
  const Chart running = ts.running_chart(SeriesKind::Group, "Running jobs per group");
  CHECK(running.steps);
  REQUIRE(running.series.size() == 2);
  CHECK(running.series[0].name == "group_a");
  CHECK(running.series[0].points == std::vector<std::pair<double, double>>{{0, 0}, {60, 2}, {120, 4}});
  CHECK(running.series[1].name == "group_b");
  const Chart priorities = ts.priority_chart("Priorities");
  CHECK_FALSE(priorities.steps);
  REQUIRE(priorities.series.size() == 1);
  CHECK(priorities.series[0].points[2] == std::pair<double, double>{120, 1.7});
  CHECK_THAT(svg_line_chart(running), Catch::Contains("data-series=\"group_a\""));
}
