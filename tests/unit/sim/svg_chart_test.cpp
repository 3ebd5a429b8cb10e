#include "model/sim/svg_chart.h"

#include <catch2/catch.hpp>

#include "integration/process.h"

using namespace cara::sim;

namespace {

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

Chart running_jobs() {
  Chart c{"Running jobs per group", "time (s)", "running jobs", {}, true};
  c.series.push_back({"group_cms", {{0, 0}, {600, 12}, {3600, 12}}});
  c.series.push_back({"group_<ops> & co", {{0, 0}, {300, 3}, {3600, 1}}});
  return c;
}

}  // namespace

TEST_CASE("nice axis ticks", "[sim][svg]") {
  CHECK(nice_ticks(0, 37) == std::vector<double>{0, 10, 20, 30, 40});
  CHECK(nice_ticks(0, 3600) == std::vector<double>{0, 1000, 2000, 3000, 4000});
  CHECK(nice_ticks(-3, 7) == std::vector<double>{-4, -2, 0, 2, 4, 6, 8});
  CHECK(nice_ticks(0, 1) == std::vector<double>{0, 0.2, 0.4, 0.6000000000000001, 0.8, 1});
  // A flat range still has an axis.
  CHECK(nice_ticks(5, 5).front() == 5);
  CHECK(nice_ticks(5, 5).back() >= 6);
}

TEST_CASE("a line chart as an SVG document a browser opens", "[sim][svg]") {
  const std::string svg = svg_line_chart(running_jobs());
  // Well-formed XML, by a real parser.
  auto parsed =
      cara::test::run_process({"/usr/bin/python3", "-c",
                               "import sys, xml.dom.minidom; xml.dom.minidom.parseString(sys.stdin.read())"},
                              svg);
  INFO(parsed.err);
  CHECK(parsed.exit_code == 0);
  CHECK(svg.rfind("<?xml", 0) == 0);
  CHECK_THAT(svg, Catch::Contains("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  CHECK_THAT(svg, Catch::Contains(">Running jobs per group</text>") && Catch::Contains(">time (s)</text>") &&
                      Catch::Contains(">running jobs</text>"));
  // One line and one legend entry per series; names escaped.
  CHECK(count(svg, "<polyline") == 2);
  CHECK_THAT(svg, Catch::Contains("data-series=\"group_cms\"") &&
                      Catch::Contains(">group_&lt;ops&gt; &amp; co</text>"));
  // Steps: each value holds until the next point (3 points → 5 vertices).
  const auto line = svg.substr(svg.find("data-series=\"group_cms\""));
  const std::string points =
      line.substr(line.find("points=\"") + 8, line.find("\"/>") - line.find("points=\"") - 8);
  CHECK(count(points, ",") == 5);
  // Y ticks 0..12 in steps of 5 → up to 15; x ticks to 4000.
  CHECK_THAT(svg, Catch::Contains(">15</text>") && Catch::Contains(">4000</text>"));
  // The same series give the same bytes.
  CHECK(svg_line_chart(running_jobs()) == svg);
}

TEST_CASE("a chart with no data says so", "[sim][svg]") {
  const std::string svg = svg_line_chart(Chart{"Priorities", "time (s)", "priority", {}, false});
  CHECK_THAT(svg, Catch::Contains(">no data</text>"));
  CHECK(count(svg, "<polyline") == 0);
}
