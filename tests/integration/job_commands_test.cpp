// The HTCondor commands a site's scripts call, against a running pool
// (issue 23): cara q's tables, cara hold / release / rm on a running job
// (which leaves its slot at once, retirement or not), cara history, and
// the exit codes and messages of the error paths.
#include <pwd.h>

#include <algorithm>

#include "integration/pool_support.h"

using namespace cara::test;

TEST_CASE("cara q, hold, release, rm and history against a running pool", "[integration][pool][commands]") {
  Pool pool;
  // Retirement would let a released claim's job run on for an hour: a
  // held or removed job must not wait for it.
  const fs::path ap = pool.start_all("NUM_CPUS = 1\nMAXJOBRETIREMENTTIME = 3600\n");
  auto tool = [&](std::vector<std::string> args) { return pool.tool(ap, std::move(args)); };
  // Who submits: nobody when the test runs as root (pool.tool), else us.
  const std::string me = ::geteuid() == 0 ? "nobody" : ::getpwuid(::geteuid())->pw_name;

  const fs::path sub = pool.dir / "long.sub";
  const std::string pids = pool.dir.string() + "/pid";
  std::ofstream(sub) << "executable = /bin/sh\narguments = \"-c 'echo $$ >> " << pids
                     << "; exec sleep 300'\"\nlog = " << pool.dir.string() << "/long.log\nqueue 1\n";
  REQUIRE(tool({"submit", sub.string()}).exit_code == 0);
  const fs::path log = pool.dir / "long.log";
  auto last_pid = [&] {
    std::istringstream in(read(pids));
    pid_t p = -1;
    for (pid_t x; in >> x;) p = x;
    return p;
  };
  REQUIRE(await([&] { return count(read(log), "Job executing") == 1 && last_pid() > 0; }, 60));
  const pid_t first = last_pid();

  // condor_q's batch table, -nobatch, -run and the totals.
  auto q = tool({"q"});
  REQUIRE(q.exit_code == 0);
  CHECK_THAT(q.out, Catch::Contains("OWNER") && Catch::Contains("BATCH_NAME") && Catch::Contains("ID: 1") &&
                        Catch::Contains("-- Schedd: ap.pool @ ") &&
                        Catch::Contains("Total for query: 1 jobs; 0 completed, 0 removed, 0 idle, 1 running, "
                                        "0 held, 0 suspended") &&
                        Catch::Contains("Total for " + me + ": 1 jobs;") &&
                        Catch::Contains("Total for all users: 1 jobs;"));
  // The nodes `cara master` started run with malloc on huge pages
  // (os/heap_tunables.h): the schedd's read-back of a large queue.
  for (const Node& n : pool.nodes) {
    std::string env = read("/proc/" + std::to_string(n.pid) + "/environ");
    std::replace(env.begin(), env.end(), '\0', '\n');
    CHECK_THAT(env, Catch::Contains("GLIBC_TUNABLES=") && Catch::Contains("glibc.malloc.hugetlb="));
  }
  CHECK_THAT(tool({"q", "-nobatch"}).out,
             Catch::Contains("1.0") && Catch::Contains(" R ") && Catch::Contains("sh -c 'echo"));
  CHECK_THAT(tool({"q", "-run"}).out, Catch::Contains("HOST(S)") && Catch::Contains("@ep"));
  CHECK_THAT(tool({"q", "-json", "1.0"}).out, Catch::Contains("\"JobStatus\": 2"));
  CHECK(tool({"q", "-af", "ClusterId", "ProcId", "JobStatus"}).out == "1 0 2\n");
  CHECK(tool({"q", "-format", "%d.", "ClusterId", "-format", "%d\\n", "ProcId"}).out == "1.0\n");

  // Another user may not touch it; a queue super user (root) may.
  if (::geteuid() == 0) {
    // "My jobs" are the ones the schedd gave this uid's name: another
    // user's cara q lists none of nobody's, and counts them in the total.
    auto theirs = pool.tool(ap, {"q"}, "daemon");
    CHECK(theirs.exit_code == 0);
    CHECK_THAT(theirs.out, Catch::Contains("Total for query: 0 jobs;") &&
                               Catch::Contains("Total for daemon: 0 jobs;") &&
                               Catch::Contains("Total for all users: 1 jobs;"));
    auto other = pool.tool(ap, {"hold", "1.0"}, "daemon");
    CHECK(other.exit_code == 1);
    CHECK_THAT(other.err, Catch::Contains("Job 1.0 not held: permission denied: it belongs to nobody"));
  }

  // Hold: the job leaves its slot now, not after its retirement.
  auto held = tool({"hold", "1.0", "-reason", "input not staged yet"});
  INFO(held.err);
  REQUIRE(held.exit_code == 0);
  CHECK(held.out == "Job 1.0 held\n");
  CHECK(await_end(first, std::chrono::seconds(30)));
  REQUIRE(await([&] { return read(log).find("Job was held.") != std::string::npos; }, 30));
  CHECK_THAT(read(log), Catch::Contains("input not staged yet"));
  CHECK_THAT(tool({"q", "-hold"}).out,
             Catch::Contains("HOLD_REASON") && Catch::Contains("input not staged yet"));
  CHECK(tool({"q", "-af", "JobStatus", "HoldReasonCode"}).out == "5 1\n");

  // -better-analyze (as this process's user, with a client certificate):
  // a held job says why; a job no slot matches names the clause.
  const std::string reader = pool.client("reader", ap);
  auto analyze = [&](const std::string& job) {
    return run_process({CARA_BINARY, "q", "--config", reader, "-better-analyze", job});
  };
  auto why_held = analyze("1.0");
  INFO(why_held.err);
  CHECK(why_held.exit_code == 0);
  CHECK_THAT(why_held.out, Catch::Contains("Job 1.0 is held: input not staged yet (code 1)"));
  std::ofstream(pool.dir / "solaris.sub")
      << "executable = /bin/true\nrequirements = TARGET.OpSys == \"SOLARIS\"\n"
      << "queue 1\n";
  REQUIRE(tool({"submit", (pool.dir / "solaris.sub").string()}).exit_code == 0);
  auto why_idle = analyze("2");
  INFO(why_idle.err);
  CHECK(why_idle.exit_code == 0);
  CHECK_THAT(why_idle.out, Catch::Contains("The Requirements expression for job 2.0 is") &&
                               Catch::Contains("       0  TARGET.OpSys == \"SOLARIS\"") &&
                               Catch::Contains("Of 2 slots,\n  2 are rejected by your job's requirements") &&
                               Catch::Contains("WARNING: no slot of the pool matches"));
  CHECK(analyze("77.0").exit_code == 1);
  REQUIRE(tool({"rm", "2"}).exit_code == 0);

  // Holding it again is refused with its state; release: it runs again.
  auto twice = tool({"hold", "1"});
  CHECK(twice.exit_code == 1);
  CHECK_THAT(twice.err,
             Catch::Contains("Job 1.0 not held: job 1.0 is Held; hold applies only to a job that is"));
  auto released = tool({"release", "1"});
  REQUIRE(released.exit_code == 0);
  CHECK(released.out == "All jobs in cluster 1 have been released (1 job)\n");
  REQUIRE(await([&] { return count(read(log), "Job executing") == 2 && last_pid() != first; }, 60));
  const pid_t second = last_pid();

  // condor_vacate (ADMINISTRATOR): the job leaves its slot and runs again.
  const std::string admin = pool.client("admin", ap);
  std::string host = tool({"q", "-af", "RemoteHost"}).out;
  REQUIRE(host.size() > 1);
  host.pop_back();  // the newline
  auto refused = run_process({CARA_BINARY, "vacate", "--config", reader, host});
  CHECK(refused.exit_code == 1);
  CHECK_THAT(refused.err, Catch::Contains("ADMINISTRATOR access refused to reader@pool"));
  auto vacated = run_process({CARA_BINARY, "vacate", "--config", admin, host});
  INFO(vacated.err);
  CHECK(vacated.exit_code == 0);
  CHECK(vacated.out == "Sent vacate command to " + host + "\n");
  CHECK(await_end(second, std::chrono::seconds(30)));
  REQUIRE(await([&] { return count(read(log), "Job executing") == 3 && last_pid() != second; }, 60));
  CHECK_THAT(read(log), Catch::Contains("Job was evicted."));
  const pid_t third = last_pid();

  // Remove: gone from the queue and its slot, kept in the history.
  auto removed = tool({"rm", "-constraint", "ClusterId == 1"});
  REQUIRE(removed.exit_code == 0);
  CHECK(removed.out == "Jobs matching constraint (ClusterId == 1) have been marked for removal (1 job)\n");
  CHECK(await_end(third, std::chrono::seconds(30)));
  REQUIRE(await([&] { return queue_of(pool, ap) && queue_of(pool, ap)->empty(); }, 30));
  CHECK(tool({"history", "-af", "ClusterId", "ProcId", "JobStatus", "NumJobStarts", "-constraint",
              "ClusterId == 1"})
            .out == "1 0 3 3\n");
  CHECK_THAT(tool({"history"}).out, Catch::Contains("COMPLETED") && Catch::Contains(" X "));
  CHECK_THAT(tool({"history", "-l", "1.0"}).out, Catch::Contains("RemoveReason = \"via condor_rm (by user"));

  // The slot is free again: a new job runs.
  std::ofstream(pool.dir / "quick.sub")
      << "executable = /bin/true\nlog = " << pool.dir.string() << "/quick.log\nqueue 1\n";
  REQUIRE(tool({"submit", (pool.dir / "quick.sub").string()}).exit_code == 0);
  REQUIRE(
      await([&] { return read(pool.dir / "quick.log").find("Job terminated.") != std::string::npos; }, 60));

  // condor_ping: what each identity may do on a node.
  auto ping =
      run_process({CARA_BINARY, "ping", "--config", reader, "-table", "cm.pool", "READ", "ADMINISTRATOR"});
  CHECK(ping.exit_code == 1);  // ADMINISTRATOR is refused to reader
  CHECK_THAT(ping.out,
             Catch::Contains("Destination:  cm.pool (MASTER COLLECTOR NEGOTIATOR)") &&
                 Catch::Contains("READ            SSL        TLS       TLS    ALLOW reader@pool/") &&
                 Catch::Contains("ADMINISTRATOR            SSL        TLS       TLS     DENY reader@pool/"));
  auto admin_ping = run_process({CARA_BINARY, "ping", "--config", admin, "ep1.pool", "ADMINISTRATOR"});
  CHECK(admin_ping.exit_code == 0);
  CHECK_THAT(admin_ping.out, Catch::StartsWith("ADMINISTRATOR command using (TLS) succeeded as admin@pool/"));

  // condor_userprio: the submitter's usage in the default table; changes
  // by an administrator, checked names.
  const std::string submitter = me + "@pool";
  auto userprio = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {CARA_BINARY, "userprio", "--config", admin});
    return run_process(args);
  };
  REQUIRE(await([&] { return userprio({}).out.find(submitter) != std::string::npos; }, 60));
  auto table = userprio({});
  CHECK_THAT(table.out, Catch::Contains("Last Priority Update: ") && Catch::Contains("(wghted-hrs)") &&
                            Catch::Contains("Number of users: 1"));
  auto set = userprio({"-setfactor", submitter, "2000", "-setceil", submitter, "3", "-duration", "600"});
  INFO(set.err);
  CHECK(set.exit_code == 0);
  CHECK(set.out == "The priority factor of " + submitter + " was set to 2000.00\nThe ceiling of " +
                       submitter + " was set to 3 for 600 seconds\n");
  CHECK(userprio({"-af", "Name", "PriorityFactor", "Ceiling"}).out == submitter + " 2000.0 3.0\n");
  auto ghost = userprio({"-setfactor", "ghost", "5"});
  CHECK(ghost.exit_code == 1);
  CHECK_THAT(ghost.err, Catch::Contains("no submitter or group named ghost"));
  CHECK_THAT(userprio({"-quotas"}).out, Catch::Contains("Number of users: 0") && Catch::Contains("Subtree"));
  // The quick job's claim is charged until the next cycle sees it gone.
  auto reslist = userprio({"-getreslist", submitter});
  CHECK_THAT(reslist.out, Catch::StartsWith(submitter + ": "));
  CHECK(reslist.out.find('#') == std::string::npos);  // no claim's secret
  CHECK(reslist.out.find("<never>") == std::string::npos);

  // condor_off / on / restart -daemon: the access point's schedd stops and
  // starts again; the node stays up, and the queue is kept.
  auto node_admin = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {CARA_BINARY});
    args.insert(args.begin() + 2, {"--config", admin});
    return run_process(args);
  };
  auto off = node_admin({"off", "-daemon", "SCHEDD", "ap.pool"});
  INFO(off.err);
  CHECK(off.exit_code == 0);
  CHECK_THAT(off.out, Catch::Contains("Sent off to ap.pool: off SCHEDD"));
  REQUIRE(await([&] { return tool({"q"}).exit_code != 0; }, 30));
  CHECK_THAT(read(pool.dir / "ap/log/MasterLog"), Catch::Contains("SCHEDD stopped: off until `cara on`"));
  CHECK(node_admin({"on", "-daemon", "schedd", "ap.pool"}).exit_code == 0);
  REQUIRE(await([&] { return tool({"q"}).exit_code == 0; }, 30));
  CHECK(node_admin({"restart", "-daemon", "SCHEDD", "ap.pool"}).exit_code == 0);
  REQUIRE(await(
      [&] {
        return read(pool.dir / "ap/log/MasterLog").find("SCHEDD stopped; starting it again") !=
                   std::string::npos &&
               tool({"q"}).exit_code == 0;
      },
      30));
  CHECK(tool({"history", "-af", "ClusterId", "-constraint", "ClusterId == 1"}).out == "1\n");
  // Tools that name the schedd (-name) find it through the collector: the
  // restarted one once its first ad is in.
  REQUIRE(await(
      [&] {
        return run_process({CARA_BINARY, "q", "--config", reader, "-name", "ap.pool"}).exit_code == 0;
      },
      30));
  auto no_such = node_admin({"off", "-daemon", "GRIDMANAGER", "ap.pool"});
  CHECK(no_such.exit_code == 1);
  CHECK_THAT(no_such.err, Catch::Contains("this node runs no GRIDMANAGER; it runs SCHEDD"));
  CHECK(run_process({CARA_BINARY, "on", "--config", admin, "ap.pool"}).exit_code == 1);  // -daemon needed

  // A second node that takes ep1's name is refused at start: `cara off
  // ep1.pool` must reach one node only.
  const fs::path twin =
      pool.config("twin", "DAEMON_LIST = MASTER STARTD\nSHARED_PORT_PORT = " +
                              std::to_string(cara::scratch::free_port()) + "\nFULL_HOSTNAME = ep1.pool\n");
  Node& second_ep1 = pool.start(twin);
  auto refused_twin = Pool::exit_within(second_ep1, 30);
  REQUIRE(refused_twin);
  CHECK(refused_twin->second == 2);
  CHECK_THAT(read(second_ep1.err), Catch::Contains("another node already advertises the name ep1.pool (its "
                                                   "master at <127.0.0.1:") &&
                                       Catch::Contains("give each node its own FULL_HOSTNAME"));

  // -name SCHEDD: the schedd over TLS, from anywhere with a certificate of
  // the pool's CA; the schedd knows the asker by it (reader@pool).
  auto remote = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {CARA_BINARY});
    args.insert(args.begin() + 2, {"--config", reader, "-name", "ap.pool"});
    return run_process(args);
  };
  std::ofstream(pool.dir / "remote.sub") << "executable = /bin/true\nhold = true\nqueue 2\n";
  auto sent = remote({"submit", (pool.dir / "remote.sub").string()});
  INFO(sent.err);
  REQUIRE(sent.exit_code == 0);
  CHECK_THAT(sent.out, Catch::Contains("2 job(s) submitted to cluster"));
  CHECK(remote({"q", "-allusers", "-af", "Owner", "JobStatus", "-constraint", "Owner == \"reader\""}).out ==
        "reader 5\nreader 5\n");
  CHECK_THAT(remote({"q", "-allusers"}).out, Catch::Contains("-- Schedd: ap.pool @ "));
  // Another user may not remove reader's jobs; reader may.
  auto not_theirs = run_process(
      {CARA_BINARY, "rm", "--config", admin, "-name", "ap.pool", "-constraint", "Owner == \"reader\""});
  CHECK(not_theirs.exit_code == 1);
  CHECK_THAT(not_theirs.err, Catch::Contains("permission denied: it belongs to reader"));
  auto removed_remote = remote({"rm", "-constraint", "Owner == \"reader\""});
  CHECK(removed_remote.exit_code == 0);
  CHECK_THAT(removed_remote.out, Catch::Contains("(2 jobs)"));
  CHECK_THAT(remote({"history", "-af", "Owner", "JobStatus", "-constraint", "Owner == \"reader\""}).out,
             Catch::Contains("reader 3\n"));
  auto nowhere = run_process({CARA_BINARY, "q", "--config", reader, "-name", "nosuch.pool"});
  CHECK(nowhere.exit_code == 1);
  CHECK_THAT(nowhere.err, Catch::Contains("nosuch.pool"));

  // Error paths: what is wrong, and exit 1 for the user's mistakes.
  auto missing = tool({"rm", "99.0"});
  CHECK(missing.exit_code == 1);
  CHECK(missing.err == "Job 99.0 not found\n");
  auto bad = tool({"hold", "-constraint", "ClusterId =="});
  CHECK(bad.exit_code == 1);
  CHECK_THAT(bad.err, Catch::Contains("cara hold: -constraint:"));
  auto none = tool({"release"});
  CHECK(none.exit_code == 1);
  CHECK_THAT(none.err, Catch::Contains("name the jobs") && Catch::Contains("usage: cara release"));
  auto option = tool({"q", "-bogus"});
  CHECK(option.exit_code == 1);
  CHECK_THAT(option.err, Catch::Contains("cara q: unknown option -bogus"));
}

TEST_CASE("the tools say where the schedd was not found, and answer -help", "[integration][commands]") {
  cara::scratch::TempDir dir{"tools"};
  const fs::path conf = dir.path / "none.conf";
  std::ofstream(conf) << "SCHEDD_SOCKET = " << (dir.path / "no.sock").string() << "\n";
  for (const char* command : {"q", "history", "rm"}) {
    std::vector<std::string> args{CARA_BINARY, command, "--config", conf.string()};
    if (std::string(command) == "rm") args.push_back("-all");
    auto r = run_process(args);
    INFO(command);
    CHECK(r.exit_code == 2);  // unreachable
    CHECK_THAT(r.err, Catch::Contains((dir.path / "no.sock").string() + ": no schedd listens here") &&
                          Catch::Contains("CARA_CONFIG"));
  }
  for (const char* command :
       {"master",  "keygen",  "userprio", "stats",      "status",    "drain",   "reconfig", "off",
        "on",      "restart", "vacate",   "ping",       "q",         "history", "rm",       "hold",
        "release", "submit",  "eval",     "config-val", "negotiate", "demo"}) {
    INFO(command);
    auto r = run_process({CARA_BINARY, command, "-help"});
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains(std::string("usage: cara ") + command));
    CHECK(run_process({CARA_BINARY, command, "--help"}).exit_code == 0);
  }
  auto unknown = run_process({CARA_BINARY, "frobnicate"});
  CHECK(unknown.exit_code == 1);
  CHECK_THAT(unknown.err, Catch::Contains("unknown command 'frobnicate'") && Catch::Contains(" rm ") &&
                              Catch::Contains(" status"));
}

// The thesis's submission script (figure 22), its lines verbatim with
// `cara submit` in place of condor_submit: 10,004 jobs of seven groups.
// The users it names do not exist here: `sudo -u USER` is made to run the
// line as the test's user (nobody when root).
TEST_CASE("the thesis's job-submission script runs with cara in place of condor_",
          "[integration][commands]") {
  Pool pool;
  const fs::path ap = pool.start_access_point();
  const fs::path dir = pool.dir / "thesis";
  fs::create_directories(dir);
  fs::copy_file(std::string(CARA_FIXTURES) + "/thesis/testjob.submit", dir / "submitfile");
  std::ofstream(dir / "testjob.sh") << "#!/bin/sh\nexec python3 exp.py \"$@\"\n";
  fs::permissions(dir / "testjob.sh", fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                          fs::perms::others_read | fs::perms::others_exec);
  if (::geteuid() == 0) REQUIRE(::chown(dir.c_str(), 65534, 65534) == 0);
  const fs::path script = dir / "submit.sh";
  std::ofstream(script)
      << "set -e\ncd " << dir.string() << "\nsudo() { shift 2; \"$@\"; }\n"
      << "sudo -u cms001 cara submit -append \"accounting_group=group_cms.cms\" submitfile -queue 2500\n"
         "sudo -u dcms001 cara submit -append \"accounting_group=group_cms.dcms\" submitfile -queue 5000\n"
         "sudo -u aug001 cara submit -append \"accounting_group=group_auger\" submitfile -queue 1250\n"
         "sudo -u ice001 cara submit -append \"accounting_group=group_icecube\" submitfile -queue 1250\n"
         "sudo -u cmsp014 cara submit -append \"accounting_group=group_cms.cms\" submitfile -queue 1\n"
         "sudo -u ops001 cara submit -append \"accounting_group=group_ops\" submitfile -queue 1\n"
         "sudo -u dte001 cara submit -append \"accounting_group=group_dteam\" submitfile -queue 1\n"
         "sudo -u dcms001 cara submit -append \"accounting_group=group_cms.dcms\" -append "
         "\"+CreamQueue=\\\"short\\\"\" submitfile -queue 1\n";
  const std::string bin = fs::path(CARA_BINARY).parent_path().string();
  std::vector<std::string> argv{"/usr/bin/env", "CARA_CONFIG=" + ap.string(),
                                "PATH=" + bin + ":/usr/bin:/bin", "/bin/sh", script.string()};
  if (::geteuid() == 0)
    argv.insert(argv.begin(), {"/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--init-groups"});
  auto ran = run_process(argv, "", 300000);
  INFO(ran.err);
  REQUIRE(ran.exit_code == 0);
  CHECK(count(ran.out, "job(s) submitted to cluster") == 8);
  CHECK_THAT(ran.out, Catch::Contains("5000 job(s) submitted to cluster 2."));

  auto totals = pool.tool(ap, {"q", "-allusers", "-totals"});
  REQUIRE(totals.exit_code == 0);
  CHECK_THAT(totals.out, Catch::Contains("Total for query: 10004 jobs; 0 completed, 0 removed, 10004 idle, 0 "
                                         "running, 0 held, 0 suspended"));
  std::map<std::string, int> groups;
  std::istringstream lines(pool.tool(ap, {"q", "-allusers", "-af", "AcctGroup"}).out);
  for (std::string g; lines >> g;) ++groups[g];
  CHECK(groups == std::map<std::string, int>{{"group_auger", 1250},
                                             {"group_cms.cms", 2501},
                                             {"group_cms.dcms", 5001},
                                             {"group_dteam", 1},
                                             {"group_icecube", 1250},
                                             {"group_ops", 1}});
  CHECK(pool.tool(ap, {"q", "-allusers", "-af", "ClusterId", "CreamQueue", "-constraint",
                       "CreamQueue =?= \"short\""})
            .out == "8 short\n");
}

// A large submission draws a progress bar when standard output is a
// terminal (here a pseudo-terminal, through script(1)), from the schedd's
// own progress; into a pipe it prints condor_submit's lines only.
TEST_CASE("cara submit draws a progress bar on a terminal, and only there",
          "[integration][commands][submit]") {
  Pool pool;
  const fs::path ap = pool.start_access_point();
  const fs::path sub = pool.dir / "many.sub";
  std::ofstream(sub) << "executable = /bin/true\narguments = $(Process)\nqueue 5000\n";
  auto piped = pool.tool(ap, {"submit", sub.string()});
  REQUIRE(piped.exit_code == 0);
  CHECK(piped.out == "Submitting job(s).\n5000 job(s) submitted to cluster 1.\n");
  std::vector<std::string> argv{
      "/usr/bin/script", "-qec",
      "/usr/bin/env CARA_CONFIG=" + ap.string() + " " + CARA_BINARY + " submit " + sub.string(), "/dev/null"};
  if (::geteuid() == 0)
    argv.insert(argv.begin(), {"/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--init-groups"});
  auto tty = run_process(argv, "", 60000);
  INFO(tty.out << tty.err);
  REQUIRE(tty.exit_code == 0);
  CHECK_THAT(tty.out, Catch::Contains("\rSubmitting job(s) [#"));
  CHECK_THAT(tty.out, Catch::Contains("100% 5000/5000"));
  CHECK_THAT(tty.out,
             Catch::Contains("\r\x1b[KSubmitting job(s).\r\n5000 job(s) submitted to cluster 2.\r\n"));
}
