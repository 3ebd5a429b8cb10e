// docker/'s monitoring files (issue 24): the Prometheus scrape
// configuration passes `promtool check config`, and every caracara_ metric
// the Grafana dashboard queries is one the exporter writes.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "apps/web/metrics_exporter.h"
#include "integration/process.h"
#include "web_fixture.h"

using namespace cara;

TEST_CASE("docker's Prometheus configuration passes promtool check config", "[web][docker][promtool]") {
  auto r = test::run_process(
      {"/usr/bin/promtool", "check", "config", CARA_SOURCE_DIR "/docker/prometheus/prometheus.yml"});
  INFO(r.out + r.err);
  CHECK(r.exit_code == 0);
}

TEST_CASE("the Grafana dashboard queries only metrics the exporter writes", "[web][docker]") {
  std::ifstream in(CARA_SOURCE_DIR "/docker/grafana/caracara-dashboard.json");
  REQUIRE(in);
  const nlohmann::json dash = nlohmann::json::parse(in);
  const std::string metrics =
      web::metrics_text(monitor::summarize(test_web::small_pool(), test_web::groups()));
  std::set<std::string> exported;
  std::istringstream lines(metrics);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("# TYPE ", 0) == 0) exported.insert(line.substr(7, line.find(' ', 7) - 7));
  const std::regex name(R"(caracara_[a-z_]+)");
  int queried = 0;
  for (const auto& panel : dash["panels"])
    for (const auto& target : panel["targets"]) {
      const std::string expr = target["expr"];
      for (auto it = std::sregex_iterator(expr.begin(), expr.end(), name); it != std::sregex_iterator();
           ++it) {
        INFO(panel["title"].get<std::string>() << ": " << it->str());
        CHECK(exported.count(it->str()) == 1);
        ++queried;
      }
    }
  CHECK(queried >= 20);
}
