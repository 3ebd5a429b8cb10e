// A node's life as an administrator sees it (issue 19): start-up checks
// that come before the node listens or joins anyone and name every
// problem; a reconfiguration that is all or nothing and lists every error;
// a stop that is bounded in time whatever the node did before, graceful
// (SIGTERM, `cara off`) or fast (SIGQUIT, `cara off -fast`).
#include <netinet/in.h>
#include <sys/socket.h>

#include <memory>
#include <regex>

#include "integration/pool_support.h"

namespace fs = std::filesystem;
using namespace cara::test;

namespace {

// A node's configuration that fails its start-up checks: `cara master`
// must end at once with every problem.
ProcessResult start_failing(const fs::path& conf) {
  return run_process({CARA_BINARY, "master", "--config", conf.string()}, "", 30000);
}

}  // namespace

TEST_CASE("start-up checks come first and name every problem: knob, file and line, the system's reason",
          "[integration][node][startup]") {
  Pool pool;
  SECTION("bad knobs of two daemons and a missing CA file") {
    // The pool's ports were free when it chose them, but a test running
    // beside this one may take one before the check, which then rightly
    // names a fourth problem: such a run is made again with new ports.
    std::unique_ptr<Pool> fresh;
    Pool* p = &pool;
    fs::path conf;
    ProcessResult r;
    for (int attempt = 0; attempt < 5; ++attempt) {
      conf = p->config("bad",
                       "DAEMON_LIST = MASTER COLLECTOR NEGOTIATOR STARTD\n"
                       "NUM_CPUS = eight\nPRIORITY_HALFLIFE = soon\n"
                       "AUTH_SSL_SERVER_CAFILE = /no/such/dir/ca.pem\n");
      r = start_failing(conf);
      if (r.err.find("Address already in use") == std::string::npos) break;
      fresh = std::make_unique<Pool>();
      p = fresh.get();
    }
    CHECK(r.exit_code == 2);
    const std::string where = conf.string() + ", line ";
    CHECK_THAT(r.err, Catch::Contains("3 problems"));
    CHECK_THAT(r.err, Catch::Contains("NUM_CPUS = eight (set at " + where));
    CHECK_THAT(r.err, Catch::Contains("PRIORITY_HALFLIFE = soon (set at " + where));
    CHECK_THAT(r.err, Catch::Contains("AUTH_SSL_SERVER_CAFILE = /no/such/dir/ca.pem (set at " + where) &&
                          Catch::Contains("No such file or directory"));
    // Nothing listened, nobody was joined.
    CHECK(read(p->dir / "bad/log/MasterLog").find("listening") == std::string::npos);
  }
  SECTION("a port in use: the knob that chose it and the system's reason") {
    const int taken = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const int port = free_port();
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    REQUIRE(::bind(taken, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    REQUIRE(::listen(taken, 1) == 0);
    const fs::path conf =
        pool.config("busy", "DAEMON_LIST = MASTER STARTD\nSHARED_PORT_PORT = " + std::to_string(port) + "\n");
    const auto r = start_failing(conf);
    ::close(taken);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("bind: Address already in use") &&
                          Catch::Contains("SHARED_PORT_PORT = " + std::to_string(port) + " (set at " +
                                          conf.string()));
  }
  SECTION("a dedicated slot user that does not exist") {
    if (::geteuid() != 0) {
      WARN("skipped: slot users count only for a startd that is root");
      return;
    }
    const fs::path conf =
        pool.config("ghost", "DAEMON_LIST = MASTER STARTD\nSLOT1_USER = no-such-user-here\n");
    const auto r = start_failing(conf);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("SLOT1_USER = no-such-user-here: no such user"));
  }
}

TEST_CASE("reconfiguration is all or nothing, and lists every error with its file and line",
          "[integration][node][reconfig]") {
  Pool pool;
  const fs::path cm = pool.config("cm", "DAEMON_LIST = MASTER COLLECTOR NEGOTIATOR\n");
  pool.start(cm);
  REQUIRE(
      await([&] { return read(pool.dir / "cm/log/MasterLog").find("node ready") != std::string::npos; }, 30));
  const std::string admin = pool.client("admin", cm), alice = pool.client("alice", cm);
  auto reconfig = [&] {
    return run_process({CARA_BINARY, "reconfig", "--config", admin, "cm.pool"}, "", 60000);
  };
  auto alice_may_set = [&] {
    return run_process({CARA_BINARY, "userprio", "--config", alice, "-setfactor", "alice@pool", "10"}, "",
                       60000)
               .exit_code == 0;
  };
  REQUIRE(await([&] { return pool.collector_log().find("new DaemonMaster ad cm.pool") != std::string::npos; },
                30));
  CHECK_FALSE(alice_may_set());
  const int lines = count(read(cm), "\n");
  // One bad knob beside a good change: refused, the good change not applied.
  std::ofstream(cm, std::ios::app)
      << "ALLOW_ADMINISTRATOR = admin@pool, alice@pool\nPRIORITY_HALFLIFE = soon\n";
  auto one = reconfig();
  CHECK(one.exit_code == 1);
  CHECK_THAT(one.err, Catch::Contains("nothing changed") &&
                          Catch::Contains("PRIORITY_HALFLIFE = soon (set at " + cm.string() + ", line " +
                                          std::to_string(lines + 2) + ")"));
  CHECK_FALSE(alice_may_set());
  // Two more, of two daemons: every one is listed.
  std::ofstream(cm, std::ios::app) << "NEGOTIATOR_INTERVAL = often\nCLASSAD_LIFETIME = forever\n";
  auto three = reconfig();
  CHECK(three.exit_code == 1);
  CHECK_THAT(three.err, Catch::Contains("3 problems") && Catch::Contains("PRIORITY_HALFLIFE = soon") &&
                            Catch::Contains("NEGOTIATOR_INTERVAL = often") &&
                            Catch::Contains("CLASSAD_LIFETIME = forever") &&
                            Catch::Contains("line " + std::to_string(lines + 4)));
  CHECK_FALSE(alice_may_set());
  CHECK(read(pool.dir / "cm/log/NegotiatorLog").find("reconfigured") == std::string::npos);
  // Mended: all of it applies.
  std::ofstream(cm, std::ios::app)
      << "PRIORITY_HALFLIFE = 3600\nNEGOTIATOR_INTERVAL = 30\nCLASSAD_LIFETIME = 600\n";
  auto fixed = reconfig();
  CHECK(fixed.exit_code == 0);
  CHECK_THAT(fixed.out, Catch::Contains("reconfigured MASTER COLLECTOR NEGOTIATOR"));
  CHECK(alice_may_set());
}

// Each stop is timed: SHUTDOWN_GRACEFUL_TIMEOUT is 3 s on the execution
// points, they vacate gracefully (WANT_VACATE) and their jobs ignore the
// soft kill, so a graceful stop must turn fast after 3 s. The bound checked
// is the configured one plus slack for a Debug build on 2 shared cores,
// not a speed figure.
TEST_CASE("a node stops within a bounded time, whatever it did before", "[integration][node][stop]") {
  Pool pool;
  const fs::path ap = pool.start_all("NUM_CPUS = 1\nSHUTDOWN_GRACEFUL_TIMEOUT = 3\nWANT_VACATE = True\n");
  const std::string admin = pool.client("admin", ap);
  auto tool = [&](std::vector<std::string> args) {
    args.insert(args.begin() + 1, {"--config", admin});
    args.insert(args.begin(), CARA_BINARY);
    return run_process(args, "", 60000);
  };
  // ep1 is drained and taken back, reconfigured, and loses its central
  // manager, which comes back: it joins it again.
  REQUIRE(await(
      [&] { return pool.collector_log().find("new DaemonMaster ad ep1.pool") != std::string::npos; }, 30));
  CHECK(tool({"drain", "-graceful", "ep1.pool"}).exit_code == 0);
  CHECK(tool({"drain", "-cancel", "ep1.pool"}).exit_code == 0);
  CHECK(tool({"reconfig", "ep1.pool"}).exit_code == 0);
  const fs::path cm_conf = pool.nodes[0].conf;
  Pool::stop(pool.nodes[0], SIGKILL);
  pool.start(cm_conf);
  REQUIRE(await(
      [&] {
        return read(pool.dir / "ep1/log/MasterLog")
                   .find("central manager 127.0.0.1:" + std::to_string(pool.cm_port) + " again") !=
               std::string::npos;
      },
      60));

  // Then a job on each execution point that ignores the soft kill (and
  // so does its child, which inherits the ignored signal).
  const fs::path script = pool.dir / "ignores_term.sh";
  const std::string pids = pool.dir.string() + "/pid";
  // The pid is written to a temporary file and renamed, so the file the
  // test reads is never one the shell has created but not yet written.
  std::ofstream(script) << "#!/bin/sh\ntrap '' TERM\necho $$ > " << pids << ".$1.tmp\nmv " << pids
                        << ".$1.tmp " << pids << ".$1\nsleep 120\n";
  ::chmod(script.c_str(), 0755);
  const fs::path sub = pool.dir / "ignores_term.sub";
  std::ofstream(sub) << "executable = " << script.string()
                     << "\narguments = $(Process)\nlog = " << pool.dir.string()
                     << "/ignores_term.log\nqueue 2\n";
  REQUIRE(pool.tool(ap, {"submit", sub.string()}).exit_code == 0);
  REQUIRE(await([&] { return count(read(pool.dir / "ignores_term.log"), "Job executing") == 2; }, 90));
  REQUIRE(await([&] { return fs::exists(pids + ".0") && fs::exists(pids + ".1"); }, 30));
  std::vector<pid_t> jobs;
  for (const char* n : {".0", ".1"}) {
    pid_t p = 0;
    std::ifstream(pids + n) >> p;
    REQUIRE(p > 0);
    jobs.push_back(p);
  }

  // SIGTERM: graceful; the soft kill is ignored, so after 3 s the stop
  // turns fast, the job is killed, and the node ends.
  ::kill(pool.nodes[1].pid, SIGTERM);
  auto graceful = Pool::exit_within(pool.nodes[1], 60);
  REQUIRE(graceful);
  INFO("graceful stop of ep1 took " << graceful->first << " s");
  CHECK(graceful->second == 0);
  CHECK(graceful->first >= 2.5);  // it let the job vacate as long as allowed
  CHECK(graceful->first < 3.0 + 10.0);
  const std::string ep1_log = read(pool.dir / "ep1/log/MasterLog");
  CHECK_THAT(ep1_log, Catch::Contains("stopping gracefully (SIGTERM)") &&
                          Catch::Contains("SHUTDOWN_GRACEFUL_TIMEOUT (3 s) passed") &&
                          Catch::Contains("stopped (SIGTERM)"));
  CHECK(ep1_log.find("did not finish stopping") == std::string::npos);

  // cara off -fast on ep2: its job is killed at once, the node ends.
  auto off = tool({"off", "-fast", "ep2.pool"});
  CHECK(off.exit_code == 0);
  CHECK_THAT(off.out, Catch::Contains("Sent off to ep2.pool: stopping fast"));
  auto fast = Pool::exit_within(pool.nodes[2], 30);
  REQUIRE(fast);
  INFO("fast stop of ep2 took " << fast->first << " s");
  CHECK(fast->first < 10.0);
  CHECK_THAT(read(pool.dir / "ep2/log/MasterLog"), Catch::Contains("off (fast) by admin@pool"));
  // No job process is left behind, and the access point heard: both jobs
  // were evicted, to run again.
  for (pid_t p : jobs) CHECK(await_end(p, std::chrono::seconds(10)));
  CHECK(await([&] { return count(read(pool.dir / "ignores_term.log"), "Job was evicted") == 2; }, 30));

  // SIGQUIT stops the access point fast.
  ::kill(pool.nodes[3].pid, SIGQUIT);
  auto quit = Pool::exit_within(pool.nodes[3], 30);
  REQUIRE(quit);
  CHECK(quit->first < 10.0);
  CHECK_THAT(read(pool.dir / "ap/log/MasterLog"), Catch::Contains("stopping fast (SIGQUIT)"));
  // cara off needs ADMINISTRATOR.
  auto refused =
      run_process({CARA_BINARY, "off", "--config", pool.client("mallory", ap), "cm.pool"}, "", 60000);
  CHECK(refused.exit_code == 1);
  CHECK_THAT(refused.err, Catch::Contains("ADMINISTRATOR access refused to mallory@pool"));
}
