// /metrics (apps/web/metrics_exporter.h): Prometheus names, labels and
// values for the fixture's pool; the text passes `promtool check metrics`
// (Debian's prometheus package), a real Prometheus parser and linter.
#include "apps/web/metrics_exporter.h"

#include <catch2/catch.hpp>
#include <fstream>

#include "apps/web/prometheus_text.h"
#include "integration/process.h"
#include "tests/support/scratch.h"
#include "web_fixture.h"

using namespace cara;

namespace {

std::string metrics() {
  return web::metrics_text(monitor::summarize(test_web::small_pool(), test_web::groups()));
}

bool has_line(const std::string& text, const std::string& line) {
  return text.find("\n" + line + "\n") != std::string::npos || text.rfind(line + "\n", 0) == 0;
}

}  // namespace

TEST_CASE("the exporter writes each family's HELP and TYPE, then its samples", "[web][metrics]") {
  const std::string m = metrics();
  INFO(m);
  CHECK(has_line(m, "# HELP caracara_slots Slots in the collector by State and Activity."));
  CHECK(has_line(m, "# TYPE caracara_slots gauge"));
  CHECK(has_line(m, R"(caracara_slots{state="Claimed",activity="Busy"} 2)"));
  CHECK(has_line(m, R"(caracara_slot_cpus{state="Unclaimed",activity="Idle"} 4)"));
  CHECK(has_line(m, "caracara_machines 2"));
  CHECK(has_line(
      m,
      R"(caracara_submitter_jobs{submitter="group_cms.alice@pool",group="group_cms",status="running"} 3)"));
  CHECK(has_line(m, R"(caracara_submitter_jobs{submitter="carol@pool",group="<none>",status="held"} 2)"));
  CHECK(has_line(m, R"(caracara_group_jobs{group="group_atlas",status="idle"} 3)"));
  CHECK(has_line(m, R"(caracara_submitter_effective_priority{submitter="group_cms.alice@pool"} 2500)"));
  CHECK(has_line(m, R"(caracara_submitter_real_priority{submitter="group_cms.alice@pool"} 2.5)"));
  CHECK(has_line(m, R"(caracara_submitter_priority_factor{submitter="dave@pool"} 1)"));
  CHECK(has_line(m, R"(caracara_group_quota{group="group_cms"} 4)"));
  CHECK(has_line(m, R"(caracara_group_allocated{group="group_cms"} 5)"));
  CHECK(has_line(m, R"(caracara_group_in_use{group="group_cms"} 3)"));
  CHECK(has_line(m, "# TYPE caracara_negotiation_cycles_total counter"));
  CHECK(has_line(m, R"(caracara_negotiation_cycles_total{negotiator="cm1"} 42)"));
  CHECK(has_line(m, R"(caracara_negotiation_cycle_duration_seconds{negotiator="cm1"} 0.25)"));
  CHECK(has_line(m, R"(caracara_negotiation_cycle_phase_duration_seconds{negotiator="cm1",phase="4"} 0.19)"));
  CHECK(has_line(m, R"(caracara_negotiation_cycle_matches{negotiator="cm1"} 3)"));
  CHECK(has_line(m, R"(caracara_negotiator_term{negotiator="cm1"} 3)"));
  CHECK(has_line(m, R"(caracara_collector_ads{type="Machine"} 5)"));
  CHECK(has_line(m, R"(caracara_collector_updates_total{collector="cm1"} 1234)"));
  CHECK(has_line(m, R"(caracara_daemon_up{machine="ep1",daemon="STARTD"} 0)"));
  CHECK(has_line(m, R"(caracara_daemon_up{machine="cm1",daemon="COLLECTOR"} 1)"));
  CHECK(has_line(m, R"(caracara_ha_active{member="0"} 1)"));
  CHECK(has_line(m, R"(caracara_ha_term{member="0"} 3)"));
}

TEST_CASE("label values and help text are escaped as the format asks", "[web][metrics]") {
  CHECK(web::escape_label("a\"b\\c\nd") == "a\\\"b\\\\c\\nd");
  web::PrometheusText p;
  p.family("caracara_x", "gauge", "line one\nback\\slash");
  p.sample({{"name", "q\"uote"}}, 0.1);
  p.sample(1e20);
  CHECK(p.text() ==
        "# HELP caracara_x line one\\nback\\\\slash\n# TYPE caracara_x gauge\n"
        "caracara_x{name=\"q\\\"uote\"} 0.1\ncaracara_x 1e+20\n");
}

TEST_CASE("the exporter's text passes promtool check metrics", "[web][metrics][promtool]") {
  // Names with quotes and a backslash, an empty pool's families with no samples.
  monitor::PoolView v = test_web::small_pool();
  v.live.submitters.push_back(
      test_ads::ad(R"([ Name = "we\"ird\\user@pool"; ScheddName = "ap1"; RunningJobs = 1; IdleJobs = 0 ])"));
  for (const std::string& text : {web::metrics_text(monitor::summarize(v, test_web::groups())),
                                  web::metrics_text(monitor::PoolSummary{})}) {
    scratch::TempDir dir("promtool");
    std::ofstream(dir / "metrics.txt") << text;
    auto r = test::run_process({"/bin/sh", "-c", "promtool check metrics < " + (dir / "metrics.txt")});
    INFO(text);
    INFO(r.out + r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.out + r.err == "");  // no lint finding either
  }
}
