// The defrag daemon in a pool of `cara master` processes (issue 23,
// "Defrag"): DEFRAG in the central manager's DAEMON_LIST drains the
// fragmented execution point through TLS, as the central manager's daemon
// identity (which the execution points allow ADMINISTRATOR, as HTCondor's
// default ALLOW_ADMINISTRATOR = $(CONDOR_HOST) does), leaves the whole one
// alone, and `cara status -defrag` shows its ad.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "integration/pool_support.h"

namespace fs = std::filesystem;
using namespace cara::test;

TEST_CASE("the defrag daemon drains the fragmented execution point over TLS", "[integration][pool][defrag]") {
  Pool pool;
  const fs::path ap =
      pool.start_all("NUM_CPUS = 4\nALLOW_ADMINISTRATOR = admin@pool, condor@pool/127.0.0.1\n",
                     "DAEMON_LIST = MASTER COLLECTOR NEGOTIATOR DEFRAG\nDEFRAG_INTERVAL = 2\n"
                     "DEFRAG_DRAINING_MACHINES_PER_HOUR = 1800\nDEFRAG_UPDATE_INTERVAL = 2\n");
  // One long job on ep1: ep1 is fragmented (3 of 4 cpus free), ep2 whole.
  const fs::path sub = pool.dir / "long.sub";
  std::ofstream(sub) << "executable = /bin/sleep\narguments = 300\nrequest_cpus = 1\n"
                     << "requirements = Machine == \"ep1.pool\"\nlog = " << pool.dir.string()
                     << "/long.log\nqueue\n";
  REQUIRE(pool.tool(ap, {"submit", sub.string()}).exit_code == 0);
  REQUIRE(await([&] { return read(pool.dir / "long.log").find("Job executing") != std::string::npos; }, 60));
  // The next poll drains ep1 gracefully (no retirement: the job is
  // evicted), as the defrag daemon, and says so in both daemons' logs.
  REQUIRE(await(
      [&] {
        return read(pool.dir / "ep1/log/StartLog")
                   .find("drain (graceful) by condor@pool/127.0.0.1: Defrag cm.pool") != std::string::npos;
      },
      30));
  CHECK(await([&] { return read(pool.dir / "long.log").find("Job was evicted") != std::string::npos; }, 30));
  CHECK(await(
      [&] {
        return read(pool.dir / "cm/log/DefragLog").find("defrag: drain ep1.pool (slot1@ep1.pool): done") !=
               std::string::npos;
      },
      30));
  CHECK(read(pool.dir / "ep2/log/StartLog").find("drain (") == std::string::npos);
  // Its ad, in HTCondor's table and by attribute.
  const std::string conf = pool.client("admin", ap);
  REQUIRE(await(
      [&] {
        auto r = run_process(
            {CARA_BINARY, "status", "--config", conf, "-defrag", "-af", "Name", "DrainSuccesses"});
        return r.exit_code == 0 && r.out.rfind("cm.pool ", 0) == 0 &&
               r.out.find("cm.pool 0") == std::string::npos;
      },
      30));
  auto table = run_process({CARA_BINARY, "status", "--config", conf, "-defrag"});
  CHECK(table.exit_code == 0);
  CHECK(table.out.rfind("Name               Draining Peak TotalDrained\n\ncm.pool ", 0) == 0);
}
