#include "model/sim/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cara::sim {
namespace {

constexpr double kWidth = 900, kHeight = 420;
constexpr double kLeft = 70, kRight = 200, kTop = 40, kBottom = 60;  // margins: axes, legend, title
// Distinguishable on white and for the common colour blindnesses (Okabe and Ito).
constexpr const char* kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                    "#E69F00", "#56B4E9", "#F0E442", "#000000"};

std::string fixed(double v, int decimals = 2) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s = buf;
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s == "-0" ? "0" : s;
}

std::string escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// A tick's label: whole numbers as they are, others with what their step needs.
std::string tick_label(double v, double step) {
  int decimals = 0;
  while (decimals < 6 &&
         std::fabs(step * std::pow(10, decimals) - std::round(step * std::pow(10, decimals))) > 1e-9)
    ++decimals;
  return fixed(v, decimals);
}

}  // namespace

std::vector<double> nice_ticks(double lo, double hi, int count) {
  if (!(hi > lo)) hi = lo + 1;
  const double raw = (hi - lo) / std::max(1, count);
  const double power = std::pow(10, std::floor(std::log10(raw)));
  double step = power;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * power;
    if (step >= raw) break;
  }
  std::vector<double> ticks;
  const double first = std::floor(lo / step) * step;
  for (int i = 0;; ++i) {
    const double t = first + i * step;
    ticks.push_back(std::fabs(t) < step * 1e-9 ? 0 : t);
    if (t >= hi - step * 1e-9) break;
  }
  return ticks;
}

std::string svg_line_chart(const Chart& chart) {
  double x_lo = 0, x_hi = 0, y_lo = 0, y_hi = 0;
  bool any = false;
  for (const ChartSeries& s : chart.series)
    for (const auto& [x, y] : s.points) {
      if (!any) x_lo = x_hi = x;
      x_lo = std::min(x_lo, x);
      x_hi = std::max(x_hi, x);
      y_lo = std::min(y_lo, y);
      y_hi = std::max(y_hi, y);
      any = true;
    }
  const std::vector<double> xt = nice_ticks(x_lo, x_hi), yt = nice_ticks(y_lo, y_hi);
  const double x0 = xt.front(), x1 = xt.back(), y0 = yt.front(), y1 = yt.back();
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  auto px = [&](double x) { return kLeft + (x - x0) / (x1 - x0) * plot_w; };
  auto py = [&](double y) { return kTop + plot_h - (y - y0) / (y1 - y0) * plot_h; };

  std::string out =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
      fixed(kWidth) + "\" height=\"" + fixed(kHeight) + "\" viewBox=\"0 0 " + fixed(kWidth) + " " +
      fixed(kHeight) + "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  out += "<text x=\"" + fixed(kWidth / 2) + "\" y=\"24\" text-anchor=\"middle\" font-size=\"16\">" +
         escaped(chart.title) + "</text>\n";
  // Grid and tick labels.
  for (double t : yt) {
    out += "<line x1=\"" + fixed(kLeft) + "\" x2=\"" + fixed(kLeft + plot_w) + "\" y1=\"" + fixed(py(t)) +
           "\" y2=\"" + fixed(py(t)) + "\" stroke=\"#ddd\"/>\n";
    out += "<text x=\"" + fixed(kLeft - 6) + "\" y=\"" + fixed(py(t) + 4) + "\" text-anchor=\"end\">" +
           tick_label(t, yt.size() > 1 ? yt[1] - yt[0] : 1) + "</text>\n";
  }
  for (double t : xt) {
    out += "<line x1=\"" + fixed(px(t)) + "\" x2=\"" + fixed(px(t)) + "\" y1=\"" + fixed(kTop) + "\" y2=\"" +
           fixed(kTop + plot_h) + "\" stroke=\"#eee\"/>\n";
    out += "<text x=\"" + fixed(px(t)) + "\" y=\"" + fixed(kTop + plot_h + 18) +
           "\" text-anchor=\"middle\">" + tick_label(t, xt.size() > 1 ? xt[1] - xt[0] : 1) + "</text>\n";
  }
  out += "<rect x=\"" + fixed(kLeft) + "\" y=\"" + fixed(kTop) + "\" width=\"" + fixed(plot_w) +
         "\" height=\"" + fixed(plot_h) + "\" fill=\"none\" stroke=\"#333\"/>\n";
  out += "<text x=\"" + fixed(kLeft + plot_w / 2) + "\" y=\"" + fixed(kHeight - 16) +
         "\" text-anchor=\"middle\">" + escaped(chart.x_label) + "</text>\n";
  out += "<text transform=\"translate(18 " + fixed(kTop + plot_h / 2) +
         ") rotate(-90)\" text-anchor=\"middle\">" + escaped(chart.y_label) + "</text>\n";
  if (!any)
    out += "<text x=\"" + fixed(kLeft + plot_w / 2) + "\" y=\"" + fixed(kTop + plot_h / 2) +
           "\" text-anchor=\"middle\" fill=\"#888\">no data</text>\n";
  // One line per series, and its legend entry.
  const std::size_t colours = sizeof kColours / sizeof kColours[0];
  for (std::size_t i = 0; i < chart.series.size(); ++i) {
    const ChartSeries& s = chart.series[i];
    const std::string colour = kColours[i % colours];
    std::string points;
    for (std::size_t k = 0; k < s.points.size(); ++k) {
      const auto& [x, y] = s.points[k];
      if (chart.steps && k > 0) points += fixed(px(x)) + "," + fixed(py(s.points[k - 1].second)) + " ";
      points += fixed(px(x)) + "," + fixed(py(y)) + (k + 1 < s.points.size() ? " " : "");
    }
    out += "<polyline data-series=\"" + escaped(s.name) + "\" fill=\"none\" stroke=\"" + colour +
           "\" stroke-width=\"2\" points=\"" + points + "\"/>\n";
    const double ly = kTop + 10 + static_cast<double>(i) * 18;
    out += "<line x1=\"" + fixed(kWidth - kRight + 16) + "\" x2=\"" + fixed(kWidth - kRight + 36) +
           "\" y1=\"" + fixed(ly) + "\" y2=\"" + fixed(ly) + "\" stroke=\"" + colour +
           "\" stroke-width=\"2\"/>\n";
    out += "<text x=\"" + fixed(kWidth - kRight + 42) + "\" y=\"" + fixed(ly + 4) + "\">" + escaped(s.name) +
           "</text>\n";
  }
  return out + "</svg>\n";
}

}  // namespace cara::sim
