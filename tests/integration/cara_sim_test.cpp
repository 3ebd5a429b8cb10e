// `cara sim` as a real process: a scenario in, its files out, the summary
// printed; bad input refused with the file and line.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "integration/process.h"

using cara::test::run_process;
using cara::test::write_temp_file;

namespace {

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::filesystem::path fresh_dir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  return dir;
}

const char* kScenario =
    "[pool]\nUID_DOMAIN = sim\n"
    "[machines 3]\nNUM_CPUS = 2\n"
    "[submit alice at=0]\nexecutable = /bin/true\n+SimulatedRunTime = 600\nqueue 8\n"
    "[submit bob at=5m]\nexecutable = /bin/true\n+SimulatedRunTime = $RANDOM_INTEGER(100, 900)\nqueue 4\n"
    "[run]\nsample = 1m\n";

}  // namespace

TEST_CASE("cara sim: a scenario's jobs, series, summary and charts", "[cli][sim]") {
  const std::string scenario = write_temp_file(kScenario);
  const auto out = fresh_dir("cara-sim");
  auto r = run_process({CARA_BINARY, "sim", scenario, "--out", out.string(), "--quiet"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.empty());
  const auto summary = nlohmann::json::parse(r.out);
  CHECK(summary["jobs_submitted"] == 12);
  CHECK(summary["jobs_completed"] == 12);
  CHECK(summary["cores"] == 6.0);
  CHECK(summary == nlohmann::json::parse(read(out / "summary.json")));
  const std::string jobs = read(out / "jobs.csv");
  CHECK(jobs.rfind("job_id,submission_time,starting_time,finish_time,waiting_time,turnaround_time,stretch,"
                   "allocated_resources\n",
                   0) == 0);
  CHECK(std::count(jobs.begin(), jobs.end(), '\n') == 13);
  CHECK(read(out / "series.csv").find("alice@sim") != std::string::npos);
  for (const char* svg : {"running.svg", "running-submitters.svg", "priorities.svg"})
    CHECK(read(out / svg).find("<svg xmlns") != std::string::npos);

  // The same scenario and seed again: the same bytes.
  const auto again = fresh_dir("cara-sim-again");
  auto r2 = run_process({CARA_BINARY, "sim", scenario, "--out", again.string(), "--quiet"});
  REQUIRE(r2.exit_code == 0);
  for (const char* f : {"jobs.csv", "series.csv", "summary.json", "running.svg", "priorities.svg"})
    CHECK(read(out / f) == read(again / f));
  std::filesystem::remove_all(out);
  std::filesystem::remove_all(again);
}

TEST_CASE("cara sim: --end and --seed override the scenario, and the progress line goes to stderr",
          "[cli][sim]") {
  const std::string scenario = write_temp_file(kScenario);
  const auto out = fresh_dir("cara-sim-end");
  auto r = run_process({CARA_BINARY, "sim", scenario, "--out", out.string(), "--end", "7m", "--seed", "3"});
  REQUIRE(r.exit_code == 0);
  const auto summary = nlohmann::json::parse(r.out);
  CHECK(summary["simulated_seconds"] == 420);
  CHECK(summary["jobs_completed"] == 0);
  CHECK(r.err.find("cara sim: 0d 00:07:00 simulated") != std::string::npos);
  std::filesystem::remove_all(out);
}

TEST_CASE("cara sim: bad input is refused naming the file and line", "[cli][sim]") {
  const std::string broken = write_temp_file("[machines 1]\nNUM_CPUS = 1\n[submit u]\nqueue\n");
  auto r = run_process({CARA_BINARY, "sim", broken, "--out", fresh_dir("cara-sim-bad").string()});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find(broken + ", line 3: [submit] needs at=TIME") != std::string::npos);

  const std::string trace =
      write_temp_file("; a trace\n1 0 0 100 1 -1 -1 1 -1 -1 1 7 1 -1 -1 -1 -1 -1\n2 oops\n");
  const std::string with_trace = write_temp_file("[machines 1]\nNUM_CPUS = 1\n[trace " + trace + "]\n");
  auto t = run_process({CARA_BINARY, "sim", with_trace, "--out", fresh_dir("cara-sim-bad").string()});
  CHECK(t.exit_code == 1);
  CHECK(t.err.find(trace + ", line 3") != std::string::npos);

  auto missing = run_process({CARA_BINARY, "sim", "/nonexistent.scenario"});
  CHECK(missing.exit_code == 1);
  CHECK(missing.err.find("cannot read the scenario") != std::string::npos);

  auto usage = run_process({CARA_BINARY, "sim"});
  CHECK(usage.exit_code == 1);
  CHECK(usage.err.find("usage: cara sim SCENARIO") != std::string::npos);
  auto unknown = run_process({CARA_BINARY, "sim", broken, "--fast"});
  CHECK(unknown.exit_code == 1);
  CHECK(unknown.err.find("unknown option '--fast'") != std::string::npos);
}
