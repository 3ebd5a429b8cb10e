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

#include "integration/ha_pool.h"

namespace fs = std::filesystem;
using namespace cara::test;

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
  const std::string& admin = pool.admin;
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
    const std::string alive_log = "cm" + std::to_string(alive + 1);
    const int caught_up = count(pool.log(alive_log, "NegotiatorLog"), "a standby that appeared holds");
    pool.restart_cm(dead);
    if (!await([&] { return pool.had(dead, ") is reachable") > heard; }, 60))
      FAIL("the restarted one never heard the active one\n" << pool.story());
    // It holds the active one's last commit at once, not after its next
    // cycle: killed now, nothing is lost and no wait is needed.
    if (!await(
            [&] {
              return count(pool.log(alive_log, "NegotiatorLog"), "a standby that appeared holds") > caught_up;
            },
            30))
      FAIL("the active one did not bring the standby up to date\n" << pool.story());
    pool.kill_cm(alive);
    if (!await([&] { return pool.had(dead, "active in term " + std::to_string(k + 3)) == 1; }, 30))
      FAIL("the standby did not take over\n" << pool.story());
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
  // (Each member has terms of its own: cm1's next above 2 is 4, cm3's 3.)
  REQUIRE(await([&] { return pool.had(0, "active in term 4") == 1 || pool.had(2, "active in term 3") == 1; },
                60));
  REQUIRE(pool.job_runs());
}

// Issue 22, "the collectors agree on what they hold": the active
// negotiator's ad is on every central manager's collector, so `cara status
// -negotiator` says which one is active (and its term) whichever collector
// answers; a standby that restarts takes what its peer's collector holds at
// once, although the daemons would not send their ads again for an hour.
TEST_CASE("every central manager's collector holds the pool and shows the active negotiator",
          "[integration][ha]") {
  HaPool pool(2, "",
              "UPDATE_INTERVAL = 3600\nSCHEDD_INTERVAL = 3600\nMASTER_UPDATE_INTERVAL = 3600\n"
              "NODE_COLLECTOR_CHECK_INTERVAL = 3600\n");
  REQUIRE(await([&] { return pool.had(0, "active in term 1") == 1; }, 60));
  REQUIRE(pool.job_runs());
  auto active_on = [&](int i, const std::string& cm, int term) { return pool.shows_active(i, cm, term); };
  REQUIRE(await([&] { return active_on(0, "cm1.pool", 1) && active_on(1, "cm1.pool", 1); }, 30));
  // The table names the role and the term.
  auto table = pool.status(1, {"-negotiator"});
  CHECK_THAT(table.out, Catch::Contains("HA     Term ActiveSince"));
  CHECK_THAT(table.out, Catch::Contains("Active    1"));

  // The standby is killed and comes back: its collector starts empty and
  // takes its peer's ads.
  pool.kill_cm(1);
  const int heard = pool.had(1, ") is reachable");
  pool.restart_cm(1);
  REQUIRE(await([&] { return pool.had(1, ") is reachable") > heard; }, 60));
  REQUIRE(await(
      [&] {
        auto slots = pool.status(1, {"-af", "Name"});
        auto schedds = pool.status(1, {"-schedd", "-af", "Name"});
        return slots.out.find("slot1@ep1.pool") != std::string::npos &&
               schedds.out.find("ap.pool") != std::string::npos && active_on(1, "cm1.pool", 1);
      },
      30));
  CHECK_THAT(pool.log("cm2", "CollectorLog"), Catch::Contains("ads from a peer collector"));
  // The slot table and its totals, as condor_status prints them.
  auto slots = pool.status(1, {});
  CHECK_THAT(slots.out, Catch::Contains("Name "));
  CHECK_THAT(slots.out, Catch::Contains("X86_64/LINUX"));

  // The active one dies: the new one's ad says so on its own collector.
  pool.kill_cm(0);
  REQUIRE(await([&] { return pool.had(1, "active in term 2") == 1; }, 30));
  REQUIRE(await([&] { return active_on(1, "cm2.pool", 2); }, 30));
  CHECK(pool.status(1, {"-negotiator", "-af", "Name"}).out == "cm2.pool\n");  // the old one's ad is gone
}
