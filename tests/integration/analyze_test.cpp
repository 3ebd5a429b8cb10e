// cara q -better-analyze against a running pool (issue 23): for an idle job
// whose submitter the last cycle held back, it names the reason — the
// group's quota, the submitter's ceiling, a concurrency limit — while a
// slot it matches stands free.
#include <pwd.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "integration/pool_support.h"

namespace fs = std::filesystem;
using namespace cara::test;

TEST_CASE(
    "cara q -better-analyze names the quota, the ceiling and the concurrency limit that held a job back",
    "[integration][pool][commands][analyze]") {
  Pool pool;
  // Six cpus; group_a may use one, group_b two, the others (<none>) three.
  // Every job is matched by the negotiator (no partitionable leftovers
  // filled by the schedd between cycles).
  const fs::path ap = pool.start_all("NUM_CPUS = 3\n",
                                     "GROUP_NAMES = group_a, group_b\nGROUP_QUOTA_group_a = 1\n"
                                     "GROUP_QUOTA_group_b = 2\nLIC_LIMIT = 1\n",
                                     "CLAIM_PARTITIONABLE_LEFTOVERS = False\n");
  const std::string me = ::geteuid() == 0 ? "nobody" : ::getpwuid(::geteuid())->pw_name;
  auto submit = [&](const std::string& name, const std::string& extra, int n) {
    const fs::path sub = pool.dir / (name + ".sub");
    std::ofstream(sub) << "executable = /bin/sleep\narguments = 300\nrequest_cpus = 1\n"
                       << extra << "queue " << n << "\n";
    auto r = pool.tool(ap, {"submit", sub.string()});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
  };
  auto status = [&](const std::string& job) { return pool.tool(ap, {"q", job, "-af", "JobStatus"}).out; };
  const std::string reader = pool.client("reader", ap), admin = pool.client("admin", ap);
  auto analyze = [&](const std::string& job) {
    return run_process({CARA_BINARY, "q", "--config", reader, "-better-analyze", job}).out;
  };
  // The ceiling: set on a submitter the negotiator knows, so its first job first.
  submit("plain", "", 1);  // 1.0
  REQUIRE(await([&] { return status("1.0") == "2\n"; }, 60));
  auto ceil = run_process({CARA_BINARY, "userprio", "--config", admin, "-setceil", me + "@pool", "1"});
  INFO(ceil.err);
  REQUIRE(ceil.exit_code == 0);
  submit("plain2", "", 1);                             // 2.0: over the ceiling
  submit("quota", "accounting_group = group_a\n", 2);  // 3.0 runs, 3.1 over group_a's quota
  submit("lic", "accounting_group = group_b\nconcurrency_limits = lic\n", 2);  // 4.0 runs, 4.1 waits
  REQUIRE(await([&] { return status("3.0") == "2\n" && status("4.0") == "2\n"; }, 60));
  struct Case {
    const char* job;
    const char* reason;
  };
  for (const Case& c : {Case{"2.0", "submitter limit exceeded"}, Case{"3.1", "group quota exceeded"},
                        Case{"4.1", "concurrency limit"}}) {
    INFO(c.job);
    CHECK(await([&] { return analyze(c.job).find(c.reason) != std::string::npos; }, 60));
    const std::string out = analyze(c.job);
    INFO(out);
    CHECK(status(c.job) == "1\n");  // still idle, with three cpus free
    CHECK(out.find("the reasons its requests went unmatched:") != std::string::npos);
    CHECK(out.find("are able to run your job") != std::string::npos);
    CHECK(out.find(" 0 are able to run your job") == std::string::npos);  // a free slot matches
  }
}
