// Nothing acknowledged is lost (issue 21): a full disk or a damaged store
// is refused with the reason, a central manager killed with kill -9 keeps
// its priorities, the history survives, a whole pool restarts as it was.
// Real `cara master` processes on 127.0.0.1, ended by PID; every wait
// bounded. (The kill -9 test with 16 clients: submit_kill_test.cpp.)
#include <signal.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "integration/pool_support.h"
#include "persistence/queue_store.h"
#include "persistence/store.h"

namespace fs = std::filesystem;
using namespace cara::test;

TEST_CASE("a full disk or a damaged store: the access point refuses, saying why, and loses nothing",
          "[integration][durability]") {
  Pool pool;
  const fs::path ap = pool.start_access_point();
  auto ap_answers = [&] { return queue_of(pool, ap).has_value(); };
  const fs::path sub = pool.dir / "job.sub";
  std::ofstream(sub) << "executable = /bin/true\nqueue 2\n";
  for (int i = 0; i < 3; ++i) REQUIRE(pool.tool(ap, {"submit", sub.string()}).exit_code == 0);
  const auto stored = queue_of(pool, ap);
  REQUIRE(stored);
  REQUIRE(stored->size() == 3);
  Pool::stop(pool.nodes.back());
  std::string saved_2_1;  // a record as it was stored, to put back
  {
    auto raw = cara::persistence::Store::open((pool.dir / "ap/spool/job_queue.db").string(), "job queue",
                                              cara::persistence::QueueStore::kSchema);
    REQUIRE(raw);
    auto v = raw->get("job/2.1");
    REQUIRE(v);
    REQUIRE(*v);
    saved_2_1 = **v;
  }

  auto log_of = [&](const Node& n) { return read(n.err) + read(pool.dir / "ap/log/SchedLog"); };

  SECTION("a file size limit too small to open the store: the node does not start") {
    Node& limited = pool.start(ap, {"/usr/bin/prlimit", "--fsize=65536", "--"});
    auto ended = Pool::exit_within(limited, 30);
    REQUIRE(ended);
    CHECK(ended->second != 0);
    CHECK_THAT(read(limited.err),
               Catch::Contains("store job queue (" + (pool.dir / "ap/spool/job_queue.db").string() +
                               "): cannot open: the file size limit (RLIMIT_FSIZE"));
  }
  SECTION("files that stop growing while it serves: the schedd stops, nothing is acknowledged") {
    pool.start(ap, {"/usr/bin/prlimit", "--fsize=2097152", "--"});
    REQUIRE(await(ap_answers, 60));
    // More than the files may take in one commit.
    const fs::path big = pool.dir / "big.sub";
    std::ofstream(big) << "executable = /bin/true\nqueue 4000\n";
    auto r = pool.tool(ap, {"submit", big.string()});
    INFO(r.out << r.err);
    CHECK(r.exit_code != 0);
    CHECK_THAT(r.out, !Catch::Contains("submitted"));
    REQUIRE(await(
        [&] {
          return log_of(pool.nodes.back()).find("stopping: the queue cannot be stored") != std::string::npos;
        },
        30));
    CHECK_THAT(log_of(pool.nodes.back()), Catch::Contains("File too large"));
    Pool::stop(pool.nodes.back());
  }
  SECTION("a damaged record: the node does not start, naming the store and the key") {
    {
      auto raw = cara::persistence::Store::open((pool.dir / "ap/spool/job_queue.db").string(), "job queue",
                                                cara::persistence::QueueStore::kSchema);
      REQUIRE(raw);
      cara::persistence::Batch b;
      b.put("job/2.1", "not a record");
      REQUIRE(raw->write(b));
    }
    Node& damaged = pool.start(ap);
    auto ended = Pool::exit_within(damaged, 30);
    REQUIRE(ended);
    CHECK(ended->second != 0);
    CHECK_THAT(read(damaged.err), Catch::Contains("store job queue, key 'job/2.1': "));
    // Put back as it was: every acknowledged job is there again.
    auto raw = cara::persistence::Store::open((pool.dir / "ap/spool/job_queue.db").string(), "job queue",
                                              cara::persistence::QueueStore::kSchema);
    REQUIRE(raw);
    cara::persistence::Batch b;
    b.put("job/2.1", saved_2_1);
    REQUIRE(raw->write(b));
  }
  // Started as usual again, the access point has every job it acknowledged.
  pool.start(ap);
  REQUIRE(await(ap_answers, 60));
  CHECK(queue_of(pool, ap) == stored);
}

namespace {

// `cara userprio`'s table: name → (priority, factor).

}  // namespace

TEST_CASE("a central manager killed with kill -9 comes back with the priorities it had committed",
          "[integration][durability]") {
  Pool pool;
  const fs::path ap = pool.start_all("", "PRIORITY_HALFLIFE = 86400\n");
  const std::string admin = pool.client("admin", ap);
  const fs::path sub = pool.dir / "work.sub";
  std::ofstream(sub) << "executable = /bin/sh\narguments = \"-c 'sleep 1'\"\nqueue 4\n";
  REQUIRE(pool.tool(ap, {"submit", sub.string()}).exit_code == 0);
  // The jobs ran and were charged; no claim is left to change the usage
  // once a cycle has seen their slots free again.
  REQUIRE(await([&] { return queue_of(pool, ap) && queue_of(pool, ap)->empty(); }, 120));
  const auto cycles = [&] { return count(read(pool.dir / "cm/log/NegotiatorLog"), "INFO NEGOTIATOR cycle"); };
  const int seen = cycles();
  REQUIRE(await([&] { return cycles() > seen; }, 60));
  // The submitter (nobody@pool when this test runs as root) used the slots.
  // The next cycle charges the usage.
  std::string user;
  REQUIRE(await(
      [&] {
        for (const auto& [name, p] : priorities(admin))
          if (p.first > 0.5) user = name;
        return !user.empty();
      },
      60));
  REQUIRE(run_process({CARA_BINARY, "userprio", "--config", admin, "-setfactor", user, "250"}).exit_code ==
          0);
  REQUIRE(
      run_process({CARA_BINARY, "userprio", "--config", admin, "-setfactor", "carol@pool", "7"}).exit_code ==
      0);
  const auto before = priorities(admin);
  REQUIRE(before.at(user).second == 250);
  REQUIRE(before.at("carol@pool").second == 7);

  const fs::path cm = pool.nodes.front().conf;
  Pool::stop(pool.nodes.front(), SIGKILL);
  pool.start(cm);
  std::map<std::string, std::pair<double, double>> after;
  REQUIRE(await(
      [&] {
        after = priorities(admin);
        return !after.empty();
      },
      60));
  REQUIRE(after.size() == before.size());
  check_kept_priorities(before, after);  // decayed at most for the seconds the restart took

  // The whole pool stopped and started again: the same queue (jobs that
  // match no slot wait in it) and the same priorities.
  const fs::path idle = pool.dir / "idle.sub";
  std::ofstream(idle) << "executable = /bin/true\nrequirements = false\nqueue 3\n";
  REQUIRE(pool.tool(ap, {"submit", idle.string()}).exit_code == 0);
  const auto queued = queue_of(pool, ap);
  REQUIRE(queued);
  REQUIRE(queued->size() == 1);
  std::vector<fs::path> confs;
  for (Node& n : pool.nodes)
    if (n.pid > 0) confs.push_back(n.conf);
  for (Node& n : pool.nodes) Pool::stop(n);
  for (const fs::path& c : confs) pool.start(c);
  REQUIRE(await([&] { return queue_of(pool, ap).has_value() && !priorities(admin).empty(); }, 60));
  CHECK(queue_of(pool, ap) == queued);
  const auto again = priorities(admin);
  for (const auto& [name, was] : before) {
    INFO(name);
    REQUIRE(again.count(name));
    CHECK(again.at(name).second == was.second);
    CHECK(again.at(name).first >= was.first * 0.999);
  }
}

TEST_CASE("cara history lists the finished jobs newest first, within MAX_HISTORY_JOBS, across a kill -9",
          "[integration][durability][history]") {
  Pool pool;
  const auto cm = pool.config("cm", "DAEMON_LIST = MASTER COLLECTOR NEGOTIATOR\n");
  const auto ep =
      pool.config("ep1", "DAEMON_LIST = MASTER STARTD\nSHARED_PORT_PORT = " + std::to_string(free_port()) +
                             "\nSTART = true\nNUM_CPUS = 2\n");
  const auto ap =
      pool.config("ap", "DAEMON_LIST = MASTER SCHEDD\nSHARED_PORT_PORT = " + std::to_string(free_port()) +
                            "\nMAX_HISTORY_JOBS = 4\n");
  pool.start(cm);
  pool.start(ep);
  pool.start(ap);
  REQUIRE(await([&] { return queue_of(pool, ap).has_value(); }, 60));
  const fs::path sub = pool.dir / "done.sub";
  std::ofstream(sub) << "executable = /bin/true\nqueue 6\n";
  REQUIRE(pool.tool(ap, {"submit", sub.string()}).exit_code == 0);
  REQUIRE(await([&] { return queue_of(pool, ap) && queue_of(pool, ap)->empty(); }, 120));

  auto listed = [&](std::vector<std::string> extra) {
    std::vector<std::string> args{"history", "-af", "ClusterId,ProcId,JobStatus,CompletionDate"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = pool.tool(ap, args);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    std::vector<std::pair<long, long>> out;  // (proc, completion date)
    std::istringstream lines(r.out);
    long cluster = 0, proc = 0, status = 0, done = 0;
    while (lines >> cluster >> proc >> status >> done) {
      CHECK(cluster == 1);
      CHECK(status == 4);
      out.emplace_back(proc, done);
    }
    return out;
  };
  // Six jobs finished, four are kept, the newest first.
  const auto kept = listed({});
  REQUIRE(kept.size() == 4);
  for (std::size_t i = 1; i < kept.size(); ++i) CHECK(kept[i - 1].second >= kept[i].second);
  CHECK(listed({"-limit", "2"}) == std::vector<std::pair<long, long>>(kept.begin(), kept.begin() + 2));
  const long one = kept[1].first;
  CHECK(listed({"-constraint", "ProcId == " + std::to_string(one)}).size() == 1);
  auto table = pool.tool(ap, {"history"});
  CHECK_THAT(table.out, Catch::Contains("COMPLETED"));
  CHECK(count(table.out, "\n") == 5);  // the header and the four jobs
  auto bad = pool.tool(ap, {"history", "-limit", "0"});
  CHECK(bad.exit_code == 1);  // the user's error
  CHECK_THAT(bad.err, Catch::Contains("-limit expects a positive number of jobs, not '0'"));

  // The history is in the store: a killed access point still has it.
  Pool::stop(pool.nodes.back(), SIGKILL);
  pool.start(ap);
  REQUIRE(await([&] { return queue_of(pool, ap).has_value(); }, 60));
  CHECK(listed({}) == kept);
}

TEST_CASE("a central manager killed with kill -9 still knows the machines that went away, and its history",
          "[integration][durability][history]") {
  Pool pool;
  const fs::path ap = pool.start_all(
      "", "ABSENT_REQUIREMENTS = True\nKEEP_POOL_HISTORY = True\nPOOL_HISTORY_SAMPLING_INTERVAL = 1\n");
  const std::string admin = pool.client("admin", ap);
  auto stats = [&](std::vector<std::string> args) {
    std::vector<std::string> argv{CARA_BINARY, "stats", "--config", admin};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_process(argv, "", 60000);
  };
  REQUIRE(await(
      [&] {
        const auto r = stats({"-resourcelist"});
        return r.exit_code == 0 && r.out == "ep1.pool\nep2.pool\n";
      },
      60));
  // ep1 dies: its slot is kept as absent (ABSENT_REQUIREMENTS).
  Pool::stop(pool.nodes[1], SIGKILL);
  REQUIRE(await(
      [&] { return pool.collector_log().find("left the pool: slot1@ep1.pool") != std::string::npos; }, 30));
  // The central manager dies too, and comes back from its stores.
  const fs::path cm = pool.nodes.front().conf;
  Pool::stop(pool.nodes.front(), SIGKILL);
  fs::rename(pool.dir / "cm/log/CollectorLog", pool.dir / "cm/log/CollectorLog.old");
  pool.start(cm);
  REQUIRE(await(
      [&] { return pool.collector_log().find("absent and offline ads read from ") != std::string::npos; },
      60));
  CHECK_THAT(pool.collector_log(), Catch::Contains("/cm/spool/collector_ads.db: 1\n"));
  // The history from before the restart is there, and grows again.
  const auto before = stats({"-resourcequery", "ep1.pool", "-lasthours", "1", "-af", "Time,Slots"});
  REQUIRE(before.exit_code == 0);
  CHECK(count(before.out, " 1\n") >= 1);
  REQUIRE(await(
      [&] {
        const auto r = stats({"-resourcequery", "ep2.pool", "-af", "Time"});
        return r.exit_code == 0 && count(r.out, "\n") > count(before.out, "\n") + 1;
      },
      60));
  const auto table = stats({"-userlist"});
  CHECK(table.exit_code == 0);
  // The default table: one line per sample of the machine, its time in UTC.
  const auto rows = stats({"-resourcequery", "ep2.pool", "-lasthours", "1"});
  REQUIRE(rows.exit_code == 0);
  CHECK(std::regex_search(
      rows.out,
      std::regex(
          R"(^20\d\d-\d\d-\d\d \d\d:\d\d:\d\d +machine +ep2\.pool +slots 1 claimed 0 unclaimed 1 busy 0 cpus 0\.0/)")));
  // -json: the samples as one JSON document, for scripts.
  const auto json = stats({"-resourcequery", "ep2.pool", "-lasthours", "1", "-json"});
  REQUIRE(json.exit_code == 0);
  CHECK_THAT(json.out, Catch::StartsWith("[") && Catch::Contains("\"Name\": \"ep2.pool\""));
  // Bad input: a clear message and exit code 1 (the user's to fix).
  const auto bad = stats({"-lasthours", "soon"});
  CHECK(bad.exit_code == 1);
  CHECK_THAT(bad.err, Catch::Contains("-lasthours expects a positive number of hours, not 'soon'"));
}
