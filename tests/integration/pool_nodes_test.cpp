// A pool of separate `cara master` processes over TLS on 127.0.0.1 (issue
// 6, "Tests"): a central manager, two execution points and an access point,
// each with its own certificate of a pool CA made by `cara keygen`. Real
// /bin/sh jobs; processes ended by PID; every wait bounded.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <thread>

#include "integration/pool_support.h"

namespace fs = std::filesystem;
using cara::scratch::free_port;
using namespace cara::test;

namespace {

// A central manager, two execution points of four cpus and an access point,
// started anew for each test case below. (They were sections of one test
// case: nine pools one after another took 230 - 263 s of CTest's 300.)
struct RunningPool {
  Pool pool;
  const fs::path ap = pool.start_all("NUM_CPUS = 4\n");
  ProcessResult tool(std::vector<std::string> args) { return pool.tool(ap, std::move(args)); }
  std::string client(const std::string& user) { return pool.client(user, ap); }
};

}  // namespace

TEST_CASE_METHOD(
    RunningPool,
    "a pool of cara master processes over TLS: 200 jobs complete with their exit codes and output files",
    "[integration][pool]") {
  fs::create_directories(pool.dir / "out");
  if (::geteuid() == 0) REQUIRE(::chown((pool.dir / "out").c_str(), 65534, 65534) == 0);
  const fs::path sub = pool.dir / "many.sub";
  std::ofstream(sub) << "executable = /bin/sh\narguments = \"-c 'echo out $(Process); exit $(Process)'\"\n"
                     << "output = " << (pool.dir / "out").string() << "/$(Process).out\n"
                     << "error = " << (pool.dir / "out").string() << "/$(Process).err\n"
                     << "log = " << (pool.dir / "out").string() << "/jobs.log\nrequest_cpus = 1\nqueue 200\n";
  auto submitted = tool({"submit", sub.string()});
  REQUIRE(submitted.exit_code == 0);
  CHECK_THAT(submitted.out, Catch::Contains("200 job(s) submitted to cluster 1"));
  const fs::path log = pool.dir / "out/jobs.log";
  REQUIRE(await([&] { return count(read(log), "Job terminated.") == 200; }, 180));
  const std::string events = read(log);
  for (int i = 0; i < 200; ++i) {
    CHECK(read(pool.dir / "out" / (std::to_string(i) + ".out")) == "out " + std::to_string(i) + "\n");
    char id[32];
    std::snprintf(id, sizeof id, "005 (001.%03d.000)", i);
    const auto at = events.find(id);
    REQUIRE(at != std::string::npos);
    CHECK(events.substr(at, 200).find("(return value " + std::to_string(i) + ")") != std::string::npos);
  }
  // Both execution points ran some.
  CHECK(events.find("@ep1.pool") != std::string::npos);
  CHECK(events.find("@ep2.pool") != std::string::npos);
  auto q = tool({"q"});
  REQUIRE(q.exit_code == 0);
  CHECK_THAT(q.out, Catch::Contains("0 jobs"));
}

TEST_CASE_METHOD(RunningPool,
                 "a pool of cara master processes over TLS: kill -9 of an execution point mid-job: its jobs "
                 "die with it, and run again elsewhere once",
                 "[integration][pool]") {
  // Each run of a job notes its start, the pids of its shell and of a
  // background child, and its end; the first runs outlive the kill only
  // if the node's jobs survive it.
  const fs::path sub = pool.dir / "long.sub";
  const std::string runs = pool.dir.string() + "/runs";
  std::ofstream(sub) << "executable = /bin/sh\narguments = \"-c 'sleep 30 & echo $$ $! >> " << runs
                     << ".$(Process); sleep 3; echo done >> " << runs
                     << ".$(Process); echo done $(Process)'\"\n"
                     << "output = " << pool.dir.string() << "/long.$(Process).out\n"
                     << "log = " << pool.dir.string() << "/long.log\nrequest_cpus = 4\nqueue 2\n";
  REQUIRE(tool({"submit", sub.string()}).exit_code == 0);
  const fs::path log = pool.dir / "long.log";
  // Each job needs a whole EP (4 cpus), so one runs on each.
  REQUIRE(await([&] { return count(read(log), "Job executing") == 2; }, 60));
  REQUIRE(await([&] { return fs::exists(runs + ".0") && fs::exists(runs + ".1"); }, 30));
  const std::string events = read(log);
  const auto first = events.find("Job executing on host: ");
  REQUIRE(first != std::string::npos);
  const bool on_ep1 =
      events.substr(first, events.find('\n', first) - first).find("@ep1.pool") != std::string::npos;
  // The job of the first event runs on the node to kill: its processes.
  const std::string first_job = events.substr(events.rfind("001 (001.", first) + 9, 3);
  const std::string victim_runs = runs + "." + std::to_string(std::stoi(first_job));
  std::vector<pid_t> victims;
  {
    std::istringstream in(read(victim_runs));
    for (pid_t p; in >> p;) victims.push_back(p);
  }
  REQUIRE(victims.size() == 2);
  Pool::stop(pool.nodes[on_ep1 ? 1 : 2], SIGKILL);
  // No process of the killed node's job runs on (the keeper, its child
  // subreaper, kills the family when its node's lifeline closes).
  for (pid_t p : victims) CHECK(await_end(p, std::chrono::seconds(10)));
  REQUIRE(await([&] { return count(read(log), "Job terminated.") == 2; }, 90));
  CHECK(count(read(log), "Job executing") == 3);
  CHECK_THAT(read(pool.dir / "ap/log/SchedLog"), Catch::Contains("runs again"));
  CHECK(read(pool.dir / "long.0.out") == "done 0\n");
  CHECK(read(pool.dir / "long.1.out") == "done 1\n");
  // Side effects once per run: the killed run started and never ended;
  // every job ended exactly once.
  CHECK(count(read(victim_runs), "done") == 1);
  CHECK(count(read(runs + ".0"), "done") == 1);
  CHECK(count(read(runs + ".1"), "done") == 1);
  CHECK(count(read(victim_runs), "\n") == 3);  // two starts, one end
}

TEST_CASE_METHOD(RunningPool,
                 "a pool of cara master processes over TLS: a node killed or stopped leaves matchmaking at "
                 "once, and a stopped one comes back",
                 "[integration][pool]") {
  // The collector drops a daemon's ads when its connection goes: at once
  // for kill -9 (the kernel closes it), after NODE_CONNECTION_TIMEOUT (2 s
  // here) of silent heartbeats for a stopped node.
  // Until the collector says the slots of `machine` left the pool.
  auto time_until = [&](const std::string& machine) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::regex slots_left("left the pool: [^\n]*slot1@" + machine);
    REQUIRE(await([&] { return std::regex_search(pool.collector_log(), slots_left); }, 30));
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  Pool::stop(pool.nodes[1], SIGKILL);
  const double killed = time_until("ep1");
  ::kill(pool.nodes[2].pid, SIGSTOP);
  const double stopped = time_until("ep2");
  ::kill(pool.nodes[2].pid, SIGCONT);
  INFO("out of the negotiator's view after kill -9: " << killed << " s; after SIGSTOP: " << stopped << " s");
  CHECK(killed < 2.0);
  CHECK(stopped < 4.0);
  // The stopped node, running again, joins again and takes jobs; the
  // killed one is matched with nothing.
  const fs::path sub = pool.dir / "after.sub";
  std::ofstream(sub) << "executable = /bin/true\nlog = " << pool.dir.string() << "/after.log\nqueue 2\n";
  REQUIRE(tool({"submit", sub.string()}).exit_code == 0);
  REQUIRE(await([&] { return count(read(pool.dir / "after.log"), "Job terminated.") == 2; }, 90));
  CHECK(read(pool.dir / "after.log").find("@ep1.pool") == std::string::npos);
  CHECK(count(read(pool.dir / "after.log"), "@ep2.pool") >= 2);
}

TEST_CASE_METHOD(RunningPool,
                 "a pool of cara master processes over TLS: the central manager forwards its ads to a "
                 "CONDOR_VIEW_HOST collector",
                 "[integration][pool]") {
  // Started after the pool: the central manager keeps trying, then hands
  // over what it has and every update after.
  Node& view = pool.start(pool.config("view", "DAEMON_LIST = MASTER COLLECTOR\nCOLLECTOR_HOST = 127.0.0.1:" +
                                                  std::to_string(pool.view_port) + "\n"));
  const fs::path log = pool.dir / "view/log/CollectorLog";
  REQUIRE(await(
      [&] {
        const std::string text = read(log);
        return text.find("slot1@ep1.pool") != std::string::npos &&
               text.find("slot1@ep2.pool") != std::string::npos &&
               text.find("Scheduler ad ap.pool") != std::string::npos;
      },
      90));
  CHECK_THAT(read(pool.dir / "cm/log/CollectorLog"),
             Catch::Contains("forwarding updates to 1 view collector"));
  // The view collector dies and comes back: it is reached again and
  // gets everything again.
  const fs::path view_conf = view.conf;
  Pool::stop(view, SIGKILL);
  fs::rename(log, pool.dir / "view/log/CollectorLog.old");
  pool.start(view_conf);
  REQUIRE(await(
      [&] {
        const std::string text = read(log);
        return text.find("slot1@ep1.pool") != std::string::npos &&
               text.find("Scheduler ad ap.pool") != std::string::npos;
      },
      60));
  CHECK_THAT(read(pool.dir / "cm/log/CollectorLog"), Catch::Contains("joined the view collector"));
}

TEST_CASE_METHOD(RunningPool,
                 "a pool of cara master processes over TLS: kill -9 of the central manager: started again, "
                 "the pool carries on",
                 "[integration][pool]") {
  // Node 0 is the central manager. Its new collector and negotiator are
  // other actors on another node: the EPs and the AP find them again.
  const fs::path cm_conf = pool.nodes[0].conf;
  Pool::stop(pool.nodes[0], SIGKILL);
  fs::rename(pool.dir / "cm/log/CollectorLog", pool.dir / "cm/log/CollectorLog.old");
  pool.start(cm_conf);
  REQUIRE(await(
      [&] {
        const std::string log = pool.collector_log();
        return log.find("slot1@ep1.pool") != std::string::npos &&
               log.find("slot1@ep2.pool") != std::string::npos &&
               log.find("Scheduler ad ap.pool") != std::string::npos;
      },
      60));
  const fs::path sub = pool.dir / "after.sub";
  std::ofstream(sub) << "executable = /bin/sh\narguments = \"-c 'exit 3'\"\nlog = " << pool.dir.string()
                     << "/after.log\nqueue\n";
  REQUIRE(tool({"submit", sub.string()}).exit_code == 0);
  REQUIRE(await([&] { return count(read(pool.dir / "after.log"), "Job terminated.") == 1; }, 60));
  CHECK_THAT(read(pool.dir / "after.log"), Catch::Contains("(return value 3)"));
  CHECK_THAT(
      read(pool.dir / "ep1/log/MasterLog"),
      Catch::Contains("joined the central manager 127.0.0.1:" + std::to_string(pool.cm_port) + " again"));
}

TEST_CASE_METHOD(
    RunningPool,
    "a pool of cara master processes over TLS: a node with a certificate of another CA is refused",
    "[integration][pool]") {
  const auto evil = pool.config(
      "evil",
      "DAEMON_LIST = MASTER STARTD\nSHARED_PORT_PORT = " + std::to_string(free_port()) + "\nSTART = true\n",
      "evil");
  Node& n = pool.start(evil);
  // The node does not retry forever: a certificate the central manager
  // does not trust is a start-up error, with the reason.
  auto ended = Pool::exit_within(n, 30);
  REQUIRE(ended);
  CHECK(ended->second == 2);
  CHECK_THAT(read(n.err), Catch::Contains("cannot connect over TLS") &&
                              Catch::Contains("does not trust this node's certificate") &&
                              Catch::Contains("AUTH_SSL_SERVER_CAFILE"));
  CHECK(pool.collector_log().find("evil.pool") == std::string::npos);
  // The refusing side says whom it refused, and why.
  CHECK(await(
      [&] {
        const std::string log = read(pool.dir / "cm/log/MasterLog");
        return log.find("refused a TLS connection from 127.0.0.1:") != std::string::npos &&
               log.find("its certificate is not the pool CA's") != std::string::npos;
      },
      10));
}

TEST_CASE_METHOD(
    RunningPool,
    "a pool of cara master processes over TLS: drain needs ADMINISTRATOR, and the execution point "
    "drains and takes it back",
    "[integration][pool]") {
  auto refused = run_process({CARA_BINARY, "drain", "--config", client("alice"), "ep1.pool"});
  CHECK(refused.exit_code == 1);
  CHECK_THAT(refused.err, Catch::Contains("ADMINISTRATOR access refused to alice@pool"));
  CHECK_THAT(read(pool.dir / "ep1/log/StartLog"), Catch::Contains("refused to alice@pool"));
  auto unknown = run_process({CARA_BINARY, "drain", "--config", client("admin"), "nowhere.pool"});
  CHECK(unknown.exit_code == 1);
  CHECK_THAT(unknown.err, Catch::Contains("no execution point nowhere.pool"));
  auto drained = run_process({CARA_BINARY, "drain", "--config", client("admin"), "-fast", "ep1.pool"});
  CHECK(drained.exit_code == 0);
  CHECK_THAT(drained.out, Catch::Contains("Sent request to drain ep1.pool"));
  CHECK_THAT(read(pool.dir / "ep1/log/StartLog"), Catch::Contains("drain (fast) by admin@pool"));
  // A drained machine starts nothing: new jobs run on ep2 only.
  const fs::path sub = pool.dir / "drained.sub";
  std::ofstream(sub) << "executable = /bin/true\nlog = " << pool.dir.string() << "/drained.log\nqueue 3\n";
  REQUIRE(tool({"submit", sub.string()}).exit_code == 0);
  REQUIRE(await([&] { return count(read(pool.dir / "drained.log"), "Job terminated.") == 3; }, 60));
  CHECK(read(pool.dir / "drained.log").find("@ep1.pool") == std::string::npos);
  auto back = run_process({CARA_BINARY, "drain", "--config", client("admin"), "-cancel", "ep1.pool"});
  CHECK(back.exit_code == 0);
  CHECK_THAT(read(pool.dir / "ep1/log/StartLog"), Catch::Contains("drain cancelled by admin@pool"));
  auto usage = run_process({CARA_BINARY, "drain", "--config", client("admin")});
  CHECK(usage.exit_code == 1);
}

TEST_CASE_METHOD(
    RunningPool,
    "a pool of cara master processes over TLS: reconfig needs ADMINISTRATOR, and nodes apply a new "
    "configuration in place",
    "[integration][pool]") {
  const std::string alice = client("alice"), admin = client("admin");
  REQUIRE(await(
      [&] { return pool.collector_log().find("new DaemonMaster ad ep1.pool") != std::string::npos; }, 30));
  auto refused = run_process({CARA_BINARY, "reconfig", "--config", alice, "cm.pool"});
  CHECK(refused.exit_code == 1);
  CHECK_THAT(refused.err, Catch::Contains("ADMINISTRATOR access refused to alice@pool"));
  CHECK_THAT(read(pool.dir / "cm/log/MasterLog"), Catch::Contains("refused to alice@pool"));
  // The central manager makes alice an administrator, without a restart.
  const fs::path cm = pool.nodes[0].conf;
  std::ofstream(cm, std::ios::app)
      << "ALLOW_ADMINISTRATOR = admin@pool, alice@pool\nNEGOTIATOR_INTERVAL = 30\n";
  auto done = run_process({CARA_BINARY, "reconfig", "--config", admin, "cm.pool"});
  REQUIRE(done.exit_code == 0);
  CHECK_THAT(done.out, Catch::Contains("Sent reconfig to cm.pool: reconfigured MASTER COLLECTOR NEGOTIATOR"));
  CHECK_THAT(read(pool.dir / "cm/log/NegotiatorLog"), Catch::Contains("reconfigured"));
  CHECK(
      run_process({CARA_BINARY, "userprio", "--config", alice, "-setfactor", "alice@pool", "10"}).exit_code ==
      0);
  // A broken configuration is refused, naming the line; nothing changes.
  std::ofstream(cm, std::ios::app) << "this is not a line\n";
  auto broken = run_process({CARA_BINARY, "reconfig", "--config", admin, "cm.pool"});
  CHECK(broken.exit_code == 1);
  CHECK_THAT(broken.err, Catch::Contains("nothing changed") && Catch::Contains("line"));
  CHECK(
      run_process({CARA_BINARY, "userprio", "--config", alice, "-setfactor", "alice@pool", "20"}).exit_code ==
      0);
  // An execution point takes a new START: ep1 runs no more jobs.
  std::ofstream(pool.nodes[1].conf, std::ios::app) << "START = false\n";
  auto ep = run_process({CARA_BINARY, "reconfig", "--config", admin, "ep1.pool"});
  REQUIRE(ep.exit_code == 0);
  CHECK_THAT(ep.out, Catch::Contains("reconfigured MASTER STARTD"));
  const fs::path sub = pool.dir / "closed.sub";
  std::ofstream(sub) << "executable = /bin/true\nlog = " << pool.dir.string() << "/closed.log\nqueue 3\n";
  REQUIRE(tool({"submit", sub.string()}).exit_code == 0);
  REQUIRE(await([&] { return count(read(pool.dir / "closed.log"), "Job terminated.") == 3; }, 60));
  CHECK(read(pool.dir / "closed.log").find("@ep1.pool") == std::string::npos);
  // A slot layout cannot change under running jobs: refused, said why.
  std::ofstream(pool.nodes[1].conf, std::ios::app) << "NUM_SLOTS = 2\n";
  auto layout = run_process({CARA_BINARY, "reconfig", "--config", admin, "ep1.pool"});
  CHECK(layout.exit_code == 1);
  CHECK_THAT(layout.err, Catch::Contains("STARTD kept its configuration: the slot layout changed"));
  auto unknown = run_process({CARA_BINARY, "reconfig", "--config", admin, "nowhere.pool"});
  CHECK(unknown.exit_code == 1);
  CHECK_THAT(unknown.err, Catch::Contains("no master nowhere.pool"));
}

TEST_CASE_METHOD(RunningPool, "a pool of cara master processes over TLS: setfactor needs ADMINISTRATOR",
                 "[integration][pool]") {
  auto refused =
      run_process({CARA_BINARY, "userprio", "--config", client("alice"), "-setfactor", "alice@pool", "10"});
  CHECK(refused.exit_code == 1);
  CHECK_THAT(refused.err, Catch::Contains("ADMINISTRATOR access refused to alice@pool"));
  // Logged by the daemon that refused, in its own log.
  CHECK_THAT(read(pool.dir / "cm/log/NegotiatorLog"), Catch::Contains("refused to alice@pool"));
  // The tool is gone: the central manager's gate forgets who it was.
  CHECK(await(
      [&] {
        return read(pool.dir / "cm/log/MasterLog").find("(alice@pool/127.0.0.1) left") != std::string::npos;
      },
      30));
  auto allowed =
      run_process({CARA_BINARY, "userprio", "--config", client("admin"), "-setfactor", "alice@pool", "10"});
  CHECK(allowed.exit_code == 0);
  // alice has no usage yet: -allusers lists her too.
  auto listed = run_process({CARA_BINARY, "userprio", "--config", client("bob"), "-allusers"});
  REQUIRE(listed.exit_code == 0);
  CHECK_THAT(listed.out, Catch::Contains("alice@pool") && Catch::Contains("    10.00 "));
  CHECK_THAT(allowed.err, Catch::Contains("note: alice@pool has no record yet"));
}

// A job the execution point ranks higher preempts a running one across
// processes (policy-configuration, RANK): the preempting claim waits for the
// slot, the evicted job goes back to Idle and runs again.
TEST_CASE("a job the slot ranks higher preempts across processes, the evicted job runs again",
          "[integration][pool][preemption]") {
  Pool pool;
  const fs::path ap = pool.start_all("NUM_CPUS = 1\nRANK = TARGET.AcctGroupUser =?= \"bob\"\n");
  auto submit = [&](const std::string& user, const std::string& seconds, int jobs) {
    const fs::path sub = pool.dir / (user + ".sub");
    std::ofstream(sub) << "executable = /bin/sleep\narguments = " << seconds
                       << "\naccounting_group = physics\naccounting_group_user = " << user
                       << "\nlog = " << (pool.dir / (user + ".log")).string() << "\nqueue " << jobs << "\n";
    REQUIRE(pool.tool(ap, {"submit", sub.string()}).exit_code == 0);
  };
  const fs::path alice = pool.dir / "alice.log", bob = pool.dir / "bob.log";
  submit("alice", "60", 2);
  REQUIRE(await([&] { return count(read(alice), "Job executing") == 2; }, 60));  // both slots
  submit("bob", "1", 1);
  REQUIRE(await([&] { return count(read(bob), "Job terminated.") == 1; }, 60));
  CHECK(count(read(alice), "Job was evicted") == 1);
  // The evicted job is queued again (Idle, or already running again on the
  // slot bob's job left): both of alice's jobs are still in the queue.
  auto q = pool.tool(ap, {"q", "-af", "AcctGroupUser,JobStatus"});
  REQUIRE(q.exit_code == 0);
  CHECK(count(q.out, "alice") == 2);
  REQUIRE(await([&] { return count(read(alice), "Job executing") == 3; }, 60));
  // The preempting claim was answered once, when the evicted job had left.
  CHECK_THAT(read(pool.dir / "ep1/log/StartLog") + read(pool.dir / "ep2/log/StartLog"),
             Catch::Contains("claim waits for the slot's jobs to leave"));
}

// Two users with equal priority factors share the pool equally (pie slices of
// user-priorities, "Negotiation"): B arrives while A holds every slot and
// gets half of them as A's jobs end (CLAIM_WORKLIFE = 0: each freed slot is
// negotiated again). Small and tolerant: 8 slots, 2 s jobs, a Debug build
// on 2 shared cores. The full-size figures are bench/ work (TARGETS.md).
TEST_CASE("two users' fair share converges to equal halves across processes",
          "[integration][pool][fairshare]") {
  Pool pool;
  const fs::path ap = pool.start_all("NUM_CPUS = 4\nNUM_SLOTS = 4\n");
  // Each job's start and end is a line in its user's log: the samples
  // below are taken as those lines are written.
  auto submit = [&](const std::string& user, int jobs) {
    const fs::path sub = pool.dir / (user + ".sub");
    std::ofstream(sub) << "executable = /bin/sleep\narguments = 2\naccounting_group = physics\n"
                       << "log = " << (pool.dir / (user + ".log")).string() << "\n"
                       << "accounting_group_user = " << user << "\nqueue " << jobs << "\n";
    REQUIRE(pool.tool(ap, {"submit", sub.string()}).exit_code == 0);
  };
  // Running and idle jobs per user, from the queue.
  struct Counts {
    std::map<std::string, int> running, idle;
  };
  auto counts = [&] {
    Counts c;
    auto q = pool.tool(ap, {"q", "-af", "AcctGroupUser,JobStatus"});
    REQUIRE(q.exit_code == 0);
    std::istringstream lines(q.out);
    std::string user;
    int status = 0;
    while (lines >> user >> status) {
      if (status == 2) ++c.running[user];
      if (status == 1) ++c.idle[user];
    }
    return c;
  };
  submit("alice", 40);
  REQUIRE(await([&] { return counts().running["alice"] == 8; }, 60));
  submit("bob", 40);
  const auto arrived = std::chrono::steady_clock::now();
  // Samples while both users still have idle jobs, after B's first two job
  // lengths (the slots A held free up as A's jobs end).
  // The pool's busy fraction is weighed by how long each sample held:
  // samples come at job ends too, when a fast build sees the freed slots
  // before the next cycle fills them (a moment, not the pool's state).
  std::vector<double> bob_share;
  double busy_time = 0, sampled_time = 0;
  std::optional<std::pair<std::chrono::steady_clock::time_point, double>> last_busy;
  FileEvents user_logs(pool.dir);
  for (bool first = true;; first = false) {
    if (!first) user_logs.wait(std::chrono::seconds(5));  // the next job starts or ends
    const Counts c = counts();
    const auto now = std::chrono::steady_clock::now();
    if (c.idle.count("alice") == 0 || c.idle.count("bob") == 0) break;
    REQUIRE(now - arrived < std::chrono::seconds(120));
    if (now - arrived < std::chrono::seconds(5)) continue;
    const int running = c.running.count("alice") ? c.running.at("alice") : 0;
    const int bob = c.running.count("bob") ? c.running.at("bob") : 0;
    if (last_busy) {
      const double held = std::chrono::duration<double>(now - last_busy->first).count();
      busy_time += held * last_busy->second;
      sampled_time += held;
    }
    last_busy.emplace(now, (running + bob) / 8.0);
    if (running + bob > 0) bob_share.push_back(bob / double(running + bob));
  }
  REQUIRE(bob_share.size() >= 5);
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  INFO("bob's share, median of " << bob_share.size() << " samples: " << median(bob_share));
  CHECK(median(bob_share) >= 0.35);
  CHECK(median(bob_share) <= 0.65);
  // A freed slot is negotiated again promptly (reschedule on a freed slot).
  REQUIRE(sampled_time > 0);
  INFO("pool busy, mean over " << sampled_time << " s: " << busy_time / sampled_time);
  CHECK(busy_time / sampled_time >= 0.6);
}

// A user and a group of this machine's, made for a test (root only) and
// removed after it.
struct TestUser {
  std::string name, group;
  bool made = false;
  explicit TestUser(const std::string& tag) {
    name = "cara-" + tag + "-" + std::to_string(::getpid() % 100000);
    group = name + "-g";
    made = run_process({"/usr/sbin/groupadd", group}).exit_code == 0 &&
           run_process({"/usr/sbin/useradd", "-M", "-N", "-g", "nogroup", "-G", group, "-s", "/bin/sh", name})
                   .exit_code == 0;
  }
  ~TestUser() {
    run_process({"/usr/sbin/userdel", name});
    run_process({"/usr/sbin/groupdel", group});
  }
};

// Jobs run as their owners (issue 19), never as root: a job from a user of
// the UID domain runs with that user's uid, gid and groups where the
// execution point trusts the domain (TRUST_UID_DOMAIN; 127.0.0.1 is not a
// name in it), and as nobody where it does not; its files are the user's.
TEST_CASE("jobs run as their owners, with their groups, files are theirs", "[integration][pool][run_as]") {
  if (::geteuid() != 0) {
    WARN("skipped: running jobs as other users needs root");
    return;
  }
  TestUser user("owner");
  if (!user.made) {
    WARN("skipped: groupadd/useradd failed");
    return;
  }
  Pool pool;
  const fs::path ap = pool.start_all("NUM_CPUS = 1\n");
  // ep1 trusts the access point's UID domain; ep2 does not.
  std::ofstream(pool.nodes[1].conf, std::ios::app) << "TRUST_UID_DOMAIN = True\n";
  const std::string admin_conf = [&] {
    const std::string c = pool.cert("admin", "admin@pool");
    const fs::path conf = pool.dir / "admin.conf";
    std::ofstream(conf) << read(ap) << "AUTH_SSL_CLIENT_CERTFILE = " << c
                        << ".pem\nAUTH_SSL_CLIENT_KEYFILE = " << c << ".key\n";
    return conf.string();
  }();
  REQUIRE(await(
      [&] { return pool.collector_log().find("new DaemonMaster ad ep1.pool") != std::string::npos; }, 30));
  REQUIRE(run_process({CARA_BINARY, "reconfig", "--config", admin_conf, "ep1.pool"}).exit_code == 0);
  const fs::path home = pool.dir / "home";
  fs::create_directories(home);
  REQUIRE(run_process({"/bin/chown", user.name + ":nogroup", home.string()}).exit_code == 0);
  auto submit = [&](const std::string& machine) {
    const fs::path sub = pool.dir / (machine + ".sub");
    std::ofstream(sub) << "executable = /bin/sh\narguments = \"-c 'id -un; id -Gn; touch made.$(Cluster)'\"\n"
                       << "initialdir = " << home.string() << "\noutput = id.$(Cluster).out\n"
                       << "log = jobs.log\nrequirements = Machine == \"" << machine << "\"\nqueue\n";
    ::chmod(sub.c_str(), 0644);
    auto r = pool.tool(ap, {"submit", sub.string()}, user.name);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
  };
  submit("ep1.pool");
  REQUIRE(await([&] { return count(read(home / "jobs.log"), "Job terminated.") == 1; }, 60));
  const std::string trusted = read(home / "id.1.out");
  CHECK_THAT(trusted, Catch::StartsWith(user.name + "\n"));
  CHECK_THAT(trusted, Catch::Contains(user.group));  // its supplementary group
  CHECK(trusted.find("root") == std::string::npos);
  struct stat st {};
  REQUIRE(::stat((home / "made.1").c_str(), &st) == 0);
  const std::string uid = run_process({"/usr/bin/id", "-u", user.name}).out;
  CHECK(std::to_string(st.st_uid) + "\n" == uid);
  REQUIRE(::stat((home / "id.1.out").c_str(), &st) == 0);
  CHECK(std::to_string(st.st_uid) + "\n" == uid);
  REQUIRE(::stat((home / "jobs.log").c_str(), &st) == 0);  // the user log too
  CHECK(std::to_string(st.st_uid) + "\n" == uid);
  CHECK_THAT(read(pool.dir / "ep1/log/StartLog"), Catch::Contains("runs as " + user.name + " (owner)"));

  // ep2 does not believe the access point is in the domain: nobody. The
  // job's directory is the user's, so nobody cannot write there: held,
  // saying so, never run as root.
  submit("ep2.pool");
  REQUIRE(await(
      [&] { return read(pool.dir / "ep2/log/StartLog").find("runs as nobody") != std::string::npos; }, 60));
  CHECK_THAT(read(pool.dir / "ep2/log/StartLog"), Catch::Contains("TRUST_UID_DOMAIN is False"));
  REQUIRE(await(
      [&] {
        auto q = pool.tool(ap, {"q", "-af", "JobStatus,HoldReason"}, user.name);
        return q.out.find("5 ") != std::string::npos;
      },
      60));
  auto held = pool.tool(ap, {"q", "-af", "HoldReason"}, user.name);
  CHECK_THAT(held.out, Catch::Contains("cannot open output file") && Catch::Contains("Permission denied"));
  CHECK_FALSE(fs::exists(home / "made.2"));
}

// The access point refuses root: a submission whose owner would be root
// queues nothing.
TEST_CASE("the access point refuses to queue jobs for root", "[integration][pool][run_as]") {
  if (::geteuid() != 0) {
    WARN("skipped: needs root to submit as root");
    return;
  }
  Pool pool;
  const fs::path ap = pool.start_all("");
  const fs::path sub = pool.dir / "root.sub";
  std::ofstream(sub) << "executable = /bin/true\nqueue\n";
  auto r = run_process({"/usr/bin/env", "CARA_CONFIG=" + ap.string(), CARA_BINARY, "submit", sub.string()});
  CHECK(r.exit_code != 0);
  CHECK_THAT(r.err, Catch::Contains("submitting jobs as root"));
  CHECK_THAT(pool.tool(ap, {"q"}).out, Catch::Contains("0 jobs"));
}
