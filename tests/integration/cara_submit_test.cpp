// `cara submit -dry-run` as a real process, on the thesis's submit file.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "integration/process.h"

using cara::test::run_process;

namespace {
const std::string kSubmitFile = std::string(CARA_FIXTURES) + "/thesis/testjob.submit";

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("cara submit -dry-run writes one long-form ad per job", "[cli][submit]") {
  auto r = run_process({CARA_BINARY, "submit", "-dry-run", "-", kSubmitFile, "--owner", "cms001"});
  CHECK(r.exit_code == 0);
  CHECK(count(r.out, "ClusterId = 1\n") == 3);
  CHECK_THAT(r.out, Catch::Contains("ProcId = 0\n") && Catch::Contains("ProcId = 2\n"));
  CHECK_THAT(r.out, Catch::Contains("Out = \"02.out\"\n") && Catch::Contains("custom_ClassAd_attr = true\n"));
  CHECK(count(r.out, "\n\n") == 2);  // ads separated by a blank line
}

TEST_CASE("cara submit -dry-run with -append and -queue (the thesis's script)", "[cli][submit]") {
  std::string out = cara::test::write_temp_file("", ".ads");
  auto r =
      run_process({CARA_BINARY, "submit", "-dry-run", out, "-append", "accounting_group=group_cms.dcms",
                   "-append", "+CreamQueue=\"short\"", kSubmitFile, "-queue", "1250", "--owner", "dcms001"});
  CHECK(r.exit_code == 0);
  std::ifstream in(out);
  std::stringstream ads;
  ads << in.rdbuf();
  CHECK(count(ads.str(), "ClusterId = 1\n") == 1250);
  CHECK_THAT(ads.str(),
             Catch::Contains("ProcId = 1249\n") && Catch::Contains("AcctGroup = \"group_cms.dcms\"") &&
                 Catch::Contains("CreamQueue = \"short\"") && Catch::Contains("Owner = \"dcms001\""));
  std::filesystem::remove(out);
}

TEST_CASE("cara submit refuses bad input clearly", "[cli][submit]") {
  std::string bad =
      cara::test::write_temp_file("executable = /bin/true\nuniverse = standard\nqueue\n", ".sub");
  auto r = run_process({CARA_BINARY, "submit", "-dry-run", "-", bad});
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.err,
             Catch::Contains(bad + ", line 2") && Catch::Contains("universe standard is not supported"));
  std::filesystem::remove(bad);
  auto missing = run_process({CARA_BINARY, "submit", "-dry-run", "-", "/nonexistent.sub"});
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.err, Catch::Contains("/nonexistent.sub"));
  auto usage = run_process({CARA_BINARY, "submit", kSubmitFile});
  CHECK(usage.exit_code == 2);
  CHECK_THAT(usage.err, Catch::Contains("-dry-run"));
  auto flag = run_process({CARA_BINARY, "submit", "-dry-run"});
  CHECK(flag.exit_code == 2);
}
