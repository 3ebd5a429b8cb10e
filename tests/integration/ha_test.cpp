// High availability of the central manager with real `cara master`
// processes on 127.0.0.1 (central-manager-configuration, "High
// Availability of the Central Manager"; issue 22): two central managers
// with a had each, an access point and an execution point reporting to
// both. kill -9 of the active central manager: the standby takes over
// within 2 x HAD_CONNECTION_TIMEOUT, matches the next job, and holds the
// priority factor the old active had committed. Every wait bounded.
#include <signal.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "integration/pool_support.h"

namespace fs = std::filesystem;
using namespace cara::test;

namespace {

struct HaPool : Pool {
  int p1 = cm_port, p2 = free_port();
  std::string hosts() const {
    return "127.0.0.1:" + std::to_string(p1) + ", 127.0.0.1:" + std::to_string(p2);
  }
  fs::path central_manager(const std::string& name, int port, const std::string& extra) {
    return config(name, "DAEMON_LIST = MASTER COLLECTOR NEGOTIATOR HAD\nCONDOR_HOST = " + hosts() +
                            "\nSHARED_PORT_PORT = " + std::to_string(port) + "\nHAD_LIST = " + hosts() +
                            "\nHAD_CONNECTION_TIMEOUT = 1\n" + extra);
  }
  std::string log(const std::string& node, const std::string& file) {
    return read(dir / node / "log" / file);
  }
};

}  // namespace

TEST_CASE("kill -9 of the active central manager: the standby matches within 2 x HAD_CONNECTION_TIMEOUT",
          "[integration][ha]") {
  HaPool pool;
  pool.start(pool.central_manager("cm1", pool.p1, ""));
  pool.start(pool.central_manager("cm2", pool.p2, ""));
  const std::string others = "CONDOR_HOST = " + pool.hosts() + "\nSHARED_PORT_PORT = ";
  pool.start(pool.config("ep1", "DAEMON_LIST = MASTER STARTD\n" + others + std::to_string(free_port()) +
                                    "\nSTART = true\nCLAIM_WORKLIFE = 0\nNUM_CPUS = 2\n"));
  const fs::path ap =
      pool.config("ap", "DAEMON_LIST = MASTER SCHEDD\n" + others + std::to_string(free_port()) + "\n");
  pool.start(ap);
  // One active, the first of HAD_LIST; both collectors hold the pool.
  REQUIRE(await([&] { return pool.log("cm1", "HADLog").find("active in term") != std::string::npos; }, 60));
  REQUIRE(await(
      [&] {
        return pool.log("cm2", "CollectorLog").find("Scheduler ad ap.pool") != std::string::npos &&
               pool.log("cm2", "CollectorLog").find("slot1@ep1.pool") != std::string::npos;
      },
      60));
  CHECK(pool.log("cm2", "NegotiatorLog").find("active in term") == std::string::npos);

  const fs::path sub = pool.dir / "one.sub";
  std::ofstream(sub) << "executable = /bin/true\nqueue\n";
  REQUIRE(pool.tool(ap, {"submit", sub.string()}).exit_code == 0);
  REQUIRE(await([&] { return queue_of(pool, ap) && queue_of(pool, ap)->empty(); }, 60));

  // A priority change, acknowledged by the active one once the standby
  // has it on disk.
  const std::string admin = pool.client("admin", ap);
  REQUIRE(
      run_process({CARA_BINARY, "userprio", "--config", admin, "-setfactor", "carol@pool", "7"}).exit_code ==
      0);
  const auto before = priorities(admin);
  REQUIRE(before.count("carol@pool"));

  const auto killed = std::chrono::steady_clock::now();
  Pool::stop(pool.nodes.front(), SIGKILL);
  REQUIRE(await([&] { return pool.log("cm2", "HADLog").find("active in term 2") != std::string::npos; }, 30));
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - killed).count();
  CHECK(took <= 2.0 + 0.5);  // 2 x HAD_CONNECTION_TIMEOUT, and the log poll's half second
  // The new active matches the next job.
  REQUIRE(pool.tool(ap, {"submit", sub.string()}).exit_code == 0);
  REQUIRE(await([&] { return queue_of(pool, ap) && queue_of(pool, ap)->empty(); }, 60));
  CHECK(pool.log("cm2", "NegotiatorLog").find("1 matches") != std::string::npos);
  // Every submitter's factor and priority on the new active are what the
  // old active had committed (the priority decayed at most for the
  // seconds that passed: the default half-life is a day).
  const auto after = priorities(admin);
  check_kept_priorities(before, after);
  CHECK(after.at("carol@pool").second == 7);
}
