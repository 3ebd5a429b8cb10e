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

// `n` central managers (cm1, cm2, ...) with a had each, an execution
// point and an access point reporting to all of them.
struct HaPool : Pool {
  std::vector<int> ports;
  std::vector<fs::path> cms;
  std::vector<std::size_t> cm_nodes;  // each central manager's index in `nodes`
  fs::path ap;

  explicit HaPool(int n, const std::string& cm_extra = "") {
    ports.push_back(cm_port);
    for (int i = 1; i < n; ++i) ports.push_back(free_port());
    for (int i = 0; i < n; ++i) {
      cms.push_back(config("cm" + std::to_string(i + 1),
                           "DAEMON_LIST = MASTER COLLECTOR NEGOTIATOR HAD\nCONDOR_HOST = " + hosts() +
                               "\nSHARED_PORT_PORT = " + std::to_string(ports[i]) +
                               "\nHAD_LIST = " + hosts() + "\nHAD_CONNECTION_TIMEOUT = 1\n" + cm_extra));
      cm_nodes.push_back(nodes.size());
      start(cms.back());
    }
    // The central managers have found each other before the other nodes
    // join them (fewer TLS handshakes at once; see the note of issue 22).
    for (int i = 1; i < n; ++i) REQUIRE(await([&] { return had(i, ") is reachable") >= i; }, 60));
    const std::string others = "CONDOR_HOST = " + hosts() + "\nSHARED_PORT_PORT = ";
    start(config("ep1", "DAEMON_LIST = MASTER STARTD\n" + others + std::to_string(free_port()) +
                            "\nSTART = true\nCLAIM_WORKLIFE = 0\nNUM_CPUS = 2\n"));
    ap = config("ap", "DAEMON_LIST = MASTER SCHEDD\n" + others + std::to_string(free_port()) + "\n");
    start(ap);
    REQUIRE(await([&] { return tool(ap, {"q"}).exit_code == 0; }, 60));
  }
  std::string hosts() const {
    std::string out;
    for (int p : ports) out += (out.empty() ? "" : ", ") + std::string("127.0.0.1:") + std::to_string(p);
    return out;
  }
  std::string log(const std::string& node, const std::string& file) {
    return read(dir / node / "log" / file);
  }
  // How often `what` is in central manager `i`'s (0-based) HADLog.
  int had(int i, const std::string& what) { return count(log("cm" + std::to_string(i + 1), "HADLog"), what); }
  Node& cm(int i) { return nodes[cm_nodes[static_cast<std::size_t>(i)]]; }
  void kill_cm(int i, int sig = SIGKILL) { Pool::stop(cm(i), sig); }
  void restart_cm(int i) {
    cm_nodes[static_cast<std::size_t>(i)] = nodes.size();
    start(cms[static_cast<std::size_t>(i)]);
  }
  // A one-job cluster submitted, run and gone from the queue.
  bool job_runs() {
    const fs::path sub = dir / "one.sub";
    std::ofstream(sub) << "executable = /bin/true\nqueue\n";
    if (tool(ap, {"submit", sub.string()}).exit_code != 0) return false;
    return await([&] { return queue_of(*this, ap) && queue_of(*this, ap)->empty(); }, 60);
  }
};

}  // namespace

TEST_CASE("kill -9 of the active central manager: the standby matches within 2 x HAD_CONNECTION_TIMEOUT",
          "[integration][ha]") {
  HaPool pool(2);
  // One active, the first of HAD_LIST; both collectors hold the pool.
  REQUIRE(await([&] { return pool.had(0, "active in term 1") == 1; }, 60));
  REQUIRE(await(
      [&] {
        return pool.log("cm2", "CollectorLog").find("Scheduler ad ap.pool") != std::string::npos &&
               pool.log("cm2", "CollectorLog").find("slot1@ep1.pool") != std::string::npos;
      },
      60));
  CHECK(pool.had(1, "active in term") == 0);
  REQUIRE(pool.job_runs());

  // A priority change, acknowledged by the active one once the standby
  // has it on disk.
  const std::string admin = pool.client("admin", pool.ap);
  REQUIRE(
      run_process({CARA_BINARY, "userprio", "--config", admin, "-setfactor", "carol@pool", "7"}).exit_code ==
      0);
  const auto before = priorities(admin);
  REQUIRE(before.count("carol@pool"));

  const auto killed = std::chrono::steady_clock::now();
  pool.kill_cm(0);
  REQUIRE(await([&] { return pool.had(1, "active in term 2") == 1; }, 30));
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - killed).count();
  CHECK(took <= 2.0 + 0.5);  // 2 x HAD_CONNECTION_TIMEOUT, and the log poll's half second
  // The new active matches the next job.
  REQUIRE(pool.job_runs());
  CHECK(pool.log("cm2", "NegotiatorLog").find("1 matches") != std::string::npos);
  // Every submitter's factor and priority on the new active are what the
  // old active had committed (the priority decayed at most for the
  // seconds that passed: the default half-life is a day).
  const auto after = priorities(admin);
  check_kept_priorities(before, after);
  CHECK(after.at("carol@pool").second == 7);

  // Killed again and again: one active each time, in a newer term.
  for (int k = 0; k < 3; ++k) {
    const int dead = k % 2 == 0 ? 0 : 1, alive = 1 - dead;  // cm1 comes back as the standby first
    INFO("kill " << k + 2);
    // Back as the standby once it heard the active one (its term, its
    // accountant).
    const int heard = pool.had(dead, ") is reachable");
    pool.restart_cm(dead);
    REQUIRE(await([&] { return pool.had(dead, ") is reachable") > heard; }, 60));
    pool.kill_cm(alive);
    REQUIRE(await([&] { return pool.had(dead, "active in term " + std::to_string(k + 3)) == 1; }, 30));
    REQUIRE(pool.job_runs());
  }
}

TEST_CASE("the old active central manager comes back: HAD_USE_PRIMARY decides who is active",
          "[integration][ha]") {
  for (bool primary : {true, false}) {
    INFO("HAD_USE_PRIMARY = " << primary);
    HaPool pool(2, std::string("HAD_USE_PRIMARY = ") + (primary ? "True" : "False") + "\n");
    REQUIRE(await([&] { return pool.had(0, "active in term 1") == 1; }, 60));
    pool.kill_cm(0);
    REQUIRE(await([&] { return pool.had(1, "active in term 2") == 1; }, 30));
    REQUIRE(pool.job_runs());
    pool.restart_cm(0);
    REQUIRE(await([&] { return pool.had(0, ") is reachable") >= 2; }, 60));  // once in each life
    if (primary) {
      // The primary takes the role again, in a newer term, once the
      // promoted one stood down.
      REQUIRE(await([&] { return pool.had(0, "active in term 3") == 1; }, 30));
      CHECK(pool.had(1, "standing by in term") >= 1);
      CHECK_THAT(pool.log("cm2", "HADLog"), Catch::Contains("the primary, is reachable"));
    } else {
      // The promoted one keeps it: three timeouts later nothing changed.
      CHECK_FALSE(
          await([&] { return pool.had(0, "active in term") > 1 || pool.had(1, "standing by") > 0; }, 3));
    }
    // Either way the pool runs jobs, matched by the one active negotiator.
    REQUIRE(pool.job_runs());
  }
}

TEST_CASE("a paused active central manager loses its role, and stands by when it resumes",
          "[integration][ha]") {
  HaPool pool(2);
  REQUIRE(await([&] { return pool.had(0, "active in term 1") == 1; }, 60));
  REQUIRE(pool.job_runs());
  ::kill(pool.cm(0).pid, SIGSTOP);
  // Not heard from for HAD_CONNECTION_TIMEOUT: the standby takes over.
  const auto paused = std::chrono::steady_clock::now();
  REQUIRE(await([&] { return pool.had(1, "active in term 2") == 1; }, 30));
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - paused).count() <= 2.0 + 0.5);
  REQUIRE(pool.job_runs());
  ::kill(pool.cm(0).pid, SIGCONT);
  // It hears of the newer term and stands by: one active again.
  REQUIRE(await([&] { return pool.had(0, "standing by in term 2") >= 1; }, 60));
  CHECK(pool.had(1, "standing by") == 0);
  REQUIRE(pool.job_runs());
}

TEST_CASE("three central managers: no active one without a majority of HAD_LIST", "[integration][ha]") {
  HaPool pool(3);
  REQUIRE(await([&] { return pool.had(0, "active in term 1") == 1; }, 60));
  REQUIRE(await([&] { return pool.had(2, ") is reachable") >= 2; }, 60));
  pool.kill_cm(0);
  REQUIRE(await([&] { return pool.had(1, "active in term 2") == 1; }, 30));
  REQUIRE(pool.job_runs());
  // Two of three gone: the last one is no majority and stays standing by.
  pool.kill_cm(1);
  CHECK_FALSE(await([&] { return pool.had(2, "active in term") > 0; }, 3));
  // One comes back: two of three, an active one again.
  pool.restart_cm(0);
  REQUIRE(await([&] { return pool.had(0, "active in term 3") == 1 || pool.had(2, "active in term 3") == 1; },
                60));
  REQUIRE(pool.job_runs());
}
