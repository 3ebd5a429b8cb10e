// `cara demo` as a real process: a whole pool in one process runs real
// jobs (/bin/sh) to completion and reports shares against the quotas.
#include <catch2/catch.hpp>

#include "integration/process.h"

using cara::test::run_process;

TEST_CASE("cara demo runs every job of a small workload to completion", "[cli][demo]") {
  auto r = run_process(
      {CARA_BINARY, "demo", "--eps", "1", "--scale", "0.004", "--job-seconds", "0.05", "--timeout", "60"}, "",
      90000);
  INFO(r.err);
  REQUIRE_FALSE(r.timed_out);
  CHECK(r.exit_code == 0);
  // 10, 20, 5 and 5 bulk jobs plus figure 22's four single jobs.
  CHECK(r.out.find("summary: 44 of 44 jobs done") != std::string::npos);
  CHECK(r.out.find("group_cms.dcms    dcms001") != std::string::npos);
  CHECK(r.out.find("quota  75.0 %") != std::string::npos);
}

TEST_CASE("cara demo refuses bad options with a message", "[cli][demo]") {
  auto r = run_process({CARA_BINARY, "demo", "--eps", "zero"});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("--eps expects a number from 1") != std::string::npos);
  auto u = run_process({CARA_BINARY, "demo", "--bogus"});
  CHECK(u.exit_code == 1);
  CHECK(u.err.find("unknown argument '--bogus'") != std::string::npos);
}
