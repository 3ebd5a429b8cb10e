// `cara config-val` as a real process, on the thesis's configuration files
// and on bad input.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "integration/process.h"

using cara::test::run_process;

namespace {

const std::string kCentralManager = std::string(CARA_FIXTURES) + "/thesis/central_manager.config";
const std::string kExecute = std::string(CARA_FIXTURES) + "/thesis/execute_machine.config";

std::string temp_config(const std::string& content) {
  return cara::test::write_temp_file(content, ".config");
}

}  // namespace

TEST_CASE("cara config-val prints expanded values", "[cli][config]") {
  auto r = run_process({CARA_BINARY, "config-val", "--config", kCentralManager, "PRIORITY_HALFLIFE",
                        "GROUP_QUOTA_DYNAMIC_group_cms", "DAEMON_LIST", "spool"});
  CHECK(r.exit_code == 0);
  CHECK(r.out == "1136819\n18.0/24\nMASTER COLLECTOR SCHEDD NEGOTIATOR\n/var/lib/condor/spool\n");
  auto e =
      run_process({CARA_BINARY, "config-val", "-config", kExecute, "NUM_CPUS", "SLOT_TYPE_1", "SLOT_TYPE_2"});
  CHECK(e.exit_code == 0);
  CHECK(e.out == "24 + 1\n24/25\ncpu=1, 1/25\n");
}

TEST_CASE("cara config-val --verbose says which file and line set a value", "[cli][config]") {
  auto r = run_process({CARA_BINARY, "config-val", "--config", kCentralManager, "--verbose",
                        "PRIORITY_HALFLIFE", "NEGOTIATOR_INTERVAL"});
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("PRIORITY_HALFLIFE = 1136819\n # at: " + kCentralManager + ", line "));
  CHECK_THAT(r.out, Catch::Contains("NEGOTIATOR_INTERVAL = 60\n # at: <default>"));
  auto w = run_process({CARA_BINARY, "config-val", "--config", kExecute, "-v", "PREEMPT"});
  CHECK_THAT(w.err, Catch::Contains("read as a continuation of the line above"));
}

TEST_CASE("cara config-val --dump lists every definition", "[cli][config]") {
  auto r = run_process({CARA_BINARY, "config-val", "--config", kCentralManager, "-dump"});
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("\nPRIORITY_HALFLIFE = 1136819\n"));
  CHECK_THAT(r.out, Catch::Contains("\nGROUP_QUOTA_DYNAMIC_group_cms.dcms = 12.0/18\n"));
  CHECK_THAT(r.out, Catch::Contains("\nDEFAULT_PRIO_FACTOR = 1000\n"));
}

TEST_CASE("cara config-val resolves subsystem prefixes", "[cli][config]") {
  std::string cfg = temp_config("X = plain\nNEGOTIATOR.X = negotiator\n");
  CHECK(run_process({CARA_BINARY, "config-val", "--config", cfg, "X"}).out == "plain\n");
  CHECK(run_process({CARA_BINARY, "config-val", "--config", cfg, "-subsystem", "negotiator", "X"}).out ==
        "negotiator\n");
  std::filesystem::remove(cfg);
}

TEST_CASE("cara config-val use shows a template", "[cli][config]") {
  auto r = run_process({CARA_BINARY, "config-val", "use", "SECURITY:Host_Based"});
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("ALLOW_READ = *"));
  auto bad = run_process({CARA_BINARY, "config-val", "use", "POLICY:Never"});
  CHECK(bad.exit_code == 1);
  CHECK_THAT(bad.err, Catch::Contains("unknown configuration template POLICY:Never"));
}

TEST_CASE("cara config-val reports undefined names and bad files", "[cli][config]") {
  auto r = run_process({CARA_BINARY, "config-val", "--config", kCentralManager, "NOT_A_KNOB", "MAXMEM"});
  CHECK(r.exit_code == 1);
  CHECK(r.out == "2000\n");
  CHECK(r.err == "Not defined: NOT_A_KNOB\n");

  std::string bad = temp_config("A = 1\nif true\nB = 2\n");
  auto b = run_process({CARA_BINARY, "config-val", "--config", bad, "A"});
  CHECK(b.exit_code == 1);
  CHECK_THAT(b.err, Catch::Contains(bad + ", line 2") && Catch::Contains("without 'endif'"));
  std::filesystem::remove(bad);

  auto missing = run_process({CARA_BINARY, "config-val", "--config", "/nonexistent/cara.config", "A"});
  CHECK(missing.exit_code == 1);
  CHECK_THAT(missing.err, Catch::Contains("/nonexistent/cara.config"));

  auto usage = run_process({CARA_BINARY, "config-val", "--config"});
  CHECK(usage.exit_code == 1);
  CHECK_THAT(usage.err, Catch::Contains("expects a file"));
  auto nothing = run_process({CARA_BINARY, "config-val"});
  CHECK(nothing.exit_code == 1);
  auto option = run_process({CARA_BINARY, "config-val", "--frobnicate"});
  CHECK(option.exit_code == 1);
  CHECK_THAT(option.err, Catch::Contains("unknown option --frobnicate"));
}
