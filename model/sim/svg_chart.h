// A line chart as a standalone SVG document (issue 29): `cara sim` draws
// its time series with it (running jobs per group, priorities over time)
// into files a person opens in a browser. Pure and deterministic: the same
// series give the same bytes (the simulator's outputs are compared byte
// for byte across runs).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace cara::sim {

struct ChartSeries {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (x, y), x increasing
};

struct Chart {
  std::string title, x_label, y_label;
  std::vector<ChartSeries> series;
  // Each value holds until the next point (counts of running jobs), rather
  // than a straight line between points (priorities).
  bool steps = false;
};

// Nice axis ticks covering [lo, hi]: about `count` multiples of 1, 2 or 5
// times a power of ten, the first at or below lo, the last at or above hi.
std::vector<double> nice_ticks(double lo, double hi, int count = 5);

std::string svg_line_chart(const Chart& chart);

}  // namespace cara::sim
