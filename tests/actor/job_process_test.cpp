// Jobs as real processes through the process keeper (actors/job_runner.h,
// actors/procd_client.h, apps/procd/): files, environment, exit codes and
// signals, no inherited descriptors, the job's user (as root), the sandbox,
// and a job's family killed when its main process ends or its daemon goes.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>

#include "actors/job_runner.h"
#include "actors/system_accounts.h"
#include "model/classad/parser.h"
#include "model/classad/unparse.h"
#include "tests/support/events.h"
#include "tests/support/scratch.h"

namespace fs = std::filesystem;
using namespace cara;
using namespace cara::actors;
using cara::scratch::TempDir;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string quoted(const std::string& s) {
  return classad::unparse(classad::Value::string(s));
}

// A job ad from attribute lines ("Cmd = ..." with values already quoted).
classad::ClassAd job(const std::string& attrs) {
  auto ad = classad::parse_classad("[" + attrs + "]");
  REQUIRE(ad);
  return *ad;
}

startd::RunAs as_daemon() {
  startd::RunAs r;
  r.ok = true;
  r.account = current_account();
  return r;
}

// Runs `ad` to its end.
ProcessExit run(ProcessRunner& runner, const classad::ClassAd& ad, const startd::RunAs& as = as_daemon()) {
  auto done = std::make_shared<std::promise<ProcessExit>>();
  auto ended = done->get_future();
  auto handle = runner.start(ad, as, [done](ProcessExit e) { done->set_value(e); });
  REQUIRE(handle.ok());
  REQUIRE(ended.wait_for(std::chrono::seconds(30)) == std::future_status::ready);
  return ended.get();
}

// Until `done` holds, checked again as files in `dir` change (what the
// job's processes and the keeper write or remove there).
bool await_files(const fs::path& dir, const std::function<bool()>& done) {
  return cara::test::FileEvents(dir).until(done, std::chrono::seconds(20));
}

bool ends(pid_t pid) {
  return cara::test::await_end(pid, std::chrono::seconds(20));
}

bool process_alive(pid_t pid) {
  // A zombie is not alive: look at its state.
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(stat, text)) return false;
  const auto close = text.rfind(')');
  return close != std::string::npos && close + 2 < text.size() && text[close + 2] != 'Z';
}

pid_t read_pid(const fs::path& file) {
  pid_t pid = 0;
  std::ifstream(file) >> pid;
  return pid;
}

ProcessRunner::Options keeper(const fs::path& execute = {}) {
  return ProcessRunner::Options{CARA_PROCD_BINARY, execute.string()};
}

}  // namespace

TEST_CASE("a job gets its files, arguments, environment and directory", "[starter][process]") {
  TempDir dir("job");
  std::ofstream(dir.path / "in") << "from stdin\n";
  ProcessRunner runner(keeper());
  const ProcessExit e = run(
      runner, job("Cmd = \"/bin/sh\"; Arguments = \"-c 'cat; echo \\\"$GREETING $1\\\"; pwd; echo oops >&2; "
                  "exit 7' sh world\"; Environment = \"GREETING=hello\"; Iwd = " +
                  quoted(dir.path.string()) + "; In = \"in\"; Out = \"out\"; Err = \"err\""));
  CHECK_FALSE(e.by_signal);
  CHECK(e.error.empty());
  CHECK(e.code == 7);
  CHECK(read(dir.path / "out") == "from stdin\nhello world\n" + dir.path.string() + "\n");
  CHECK(read(dir.path / "err") == "oops\n");
}

TEST_CASE("a job's arguments and environment may hold any bytes, not only UTF-8", "[starter][process]") {
  TempDir dir("job");
  ProcessRunner runner(keeper());
  classad::ClassAd ad = job("Cmd = \"/bin/sh\"; Arguments = \"-c 'printf %s \\\"$NAME\\\"'\"; Out = " +
                            quoted((dir.path / "out").string()));
  ad.set("Environment", std::string("NAME=caf\xe9"));  // Latin-1, not valid UTF-8
  const ProcessExit e = run(runner, ad);
  CHECK(e.error.empty());
  CHECK(e.code == 0);
  CHECK(read(dir.path / "out") == "caf\xe9");
}

TEST_CASE("a job inherits no descriptor of the daemon beyond stdin, stdout and stderr",
          "[starter][process]") {
  TempDir dir("job");
  // A descriptor without FD_CLOEXEC, as a daemon's log or socket may be.
  const int leaky = ::open((dir.path / "daemon.log").c_str(), O_WRONLY | O_CREAT, 0644);
  REQUIRE(leaky > 2);
  ProcessRunner runner(keeper());
  // ls lists its own descriptors: the three standard ones and the
  // directory it reads (no shell, whose pipes would come and go).
  const ProcessExit e = run(runner, job("Cmd = \"/bin/ls\"; Arguments = \"/proc/self/fd\"; Out = " +
                                        quoted((dir.path / "fds").string())));
  ::close(leaky);
  CHECK(e.code == 0);
  CHECK(read(dir.path / "fds") == "0\n1\n2\n3\n");
}

TEST_CASE("a job killed by a signal reports the signal, a signal reaches its whole group",
          "[starter][process]") {
  ProcessRunner runner(keeper());
  const ProcessExit self_killed = run(runner, job("Cmd = \"/bin/sh\"; Arguments = \"-c 'kill -TERM $$'\""));
  CHECK(self_killed.by_signal);
  CHECK(self_killed.code == SIGTERM);

  TempDir dir("job");
  auto done = std::make_shared<std::promise<ProcessExit>>();
  auto ended = done->get_future();
  const std::string ready = (dir.path / "ready").string();
  auto handle = runner.start(job("Cmd = \"/bin/sh\"; Arguments = \"-c 'touch " + ready + "; sleep 60'\""),
                             as_daemon(), [done](ProcessExit e) { done->set_value(e); });
  REQUIRE(handle.ok());
  REQUIRE(await_files(dir.path, [&] { return fs::exists(ready); }));
  runner.signal(*handle, SIGKILL);
  REQUIRE(ended.wait_for(std::chrono::seconds(20)) == std::future_status::ready);
  const ProcessExit killed = ended.get();
  CHECK(killed.by_signal);
  CHECK(killed.code == SIGKILL);
}

TEST_CASE("a job that cannot start says why", "[starter][process]") {
  TempDir dir("job");
  ProcessRunner runner(keeper());
  const ProcessExit missing = run(runner, job("Cmd = \"/no/such/program\""));
  CHECK_THAT(missing.error, Catch::Contains("cannot execute /no/such/program: No such file or directory"));
  const ProcessExit no_dir =
      run(runner, job("Cmd = \"/bin/true\"; Iwd = " + quoted((dir.path / "missing").string())));
  CHECK_THAT(no_dir.error, Catch::Contains("cannot enter directory") && Catch::Contains("No such file"));
  ProcessRunner broken(ProcessRunner::Options{"/no/such/cara-procd", ""});
  auto prepared = broken.prepare();
  REQUIRE_FALSE(prepared.ok());
  CHECK_THAT(prepared.error(), Catch::Contains("/no/such/cara-procd") && Catch::Contains("No such file"));
}

TEST_CASE("a FIFO as a job's file never makes the keeper wait for its other end", "[starter][process]") {
  // The keeper waits for each child until it execs (apps/procd/job_spawn.h):
  // a blocking open there would stop every job of the execution point.
  TempDir dir("job");
  const fs::path fifo = dir.path / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  ProcessRunner runner(keeper());
  const ProcessExit no_reader = run(runner, job("Cmd = \"/bin/true\"; Out = " + quoted(fifo.string())));
  CHECK_THAT(no_reader.error, Catch::Contains("cannot open output file " + fifo.string()) &&
                                  Catch::Contains("No such device"));
  // With no writer, the input reads as empty at once.
  const ProcessExit input = run(runner, job("Cmd = \"/bin/cat\"; In = " + quoted(fifo.string()) +
                                            "; Out = " + quoted((dir.path / "out").string())));
  CHECK(input.error.empty());
  CHECK(input.code == 0);
  CHECK(read(dir.path / "out").empty());
  // The keeper goes on starting jobs.
  CHECK(run(runner, job("Cmd = \"/bin/true\"")).code == 0);
}

TEST_CASE("what a job leaves behind dies with it, even a process that left its group", "[starter][process]") {
  TempDir dir("job");
  ProcessRunner runner(keeper());
  const fs::path child = dir.path / "child.pid", escaped = dir.path / "escaped.pid";
  // A background child in the job's group, and one that left it (setsid)
  // after its parent exited: the keeper, a subreaper, still finds it.
  const ProcessExit e = run(runner, job("Cmd = \"/bin/sh\"; Arguments = \"-c '(sleep 60 & echo $! > " +
                                        child.string() + "); setsid sh -c \\\"echo \\\\$\\\\$ > " +
                                        escaped.string() + "; exec sleep 60\\\" & sleep 0.3; exit 0'\""));
  CHECK(e.code == 0);
  REQUIRE(await_files(dir.path, [&] { return read_pid(child) > 0 && read_pid(escaped) > 0; }));
  CHECK(ends(read_pid(child)));
  CHECK(ends(read_pid(escaped)));
}

TEST_CASE("jobs do not outlive their daemon: the keeper kills them when its lifeline closes",
          "[starter][process]") {
  TempDir dir("job");
  const fs::path pids = dir.path / "pids";
  auto runner = std::make_unique<ProcessRunner>(keeper());
  auto handle = runner->start(job("Cmd = \"/bin/sh\"; Arguments = \"-c 'sleep 60 & echo $! >> " +
                                  pids.string() + "; echo $$ >> " + pids.string() + "; wait'\""),
                              as_daemon(), [](ProcessExit) {});
  REQUIRE(handle.ok());
  REQUIRE(await_files(dir.path, [&] {
    const std::string text = read(pids);
    return std::count(text.begin(), text.end(), '\n') == 2;
  }));
  std::vector<pid_t> procs;
  std::istringstream in(read(pids));
  for (pid_t p; in >> p;) procs.push_back(p);
  REQUIRE(procs.size() == 2);
  for (pid_t p : procs) CHECK(process_alive(p));
  runner.reset();  // the daemon's end of the socket closes, as when its process dies
  for (pid_t p : procs) CHECK(ends(p));
}

TEST_CASE("a job runs in a sandbox of its own, removed when it ends", "[starter][process]") {
  TempDir dir("job");
  const fs::path execute = dir.path / "execute";
  ProcessRunner runner(keeper(execute));
  const fs::path out = dir.path / "out";
  const ProcessExit e =
      run(runner, job("Cmd = \"/bin/sh\"; Arguments = \"-c 'echo $_CONDOR_SCRATCH_DIR; pwd; "
                      "echo data > file; mkdir sub; chmod 500 sub'\"; Out = " +
                      quoted(out.string())));
  CHECK(e.code == 0);
  std::istringstream lines(read(out));
  std::string scratch, pwd;
  std::getline(lines, scratch);
  std::getline(lines, pwd);
  CHECK(scratch.rfind(execute.string() + "/dir_", 0) == 0);
  CHECK(pwd == scratch);  // no Iwd: the job starts in its sandbox
  CHECK(await_files(execute, [&] { return !fs::exists(scratch); }));
}

TEST_CASE("as root, a job runs as its account: uid, gid, groups, files and sandbox are the user's",
          "[starter][process][root]") {
  if (::geteuid() != 0) {
    WARN("skipped: switching users needs root");
    return;
  }
  auto nobody = SystemAccounts().find("nobody");
  if (!nobody) {
    WARN("skipped: this machine has no user nobody");
    return;
  }
  TempDir dir("job");
  // The user's own directory for its files (a temp directory is root's).
  const fs::path home = dir.path / "home";
  fs::create_directories(home);
  REQUIRE(::chown(home.c_str(), nobody->uid, nobody->gid) == 0);
  ::chmod(dir.path.c_str(), 0755);
  const fs::path execute = dir.path / "execute";
  ProcessRunner runner(keeper(execute));
  startd::RunAs as;
  as.ok = true;
  as.switch_user = true;
  as.account = *nobody;
  const fs::path out = home / "id.out";
  const ProcessExit e = run(runner,
                            job("Cmd = \"/bin/sh\"; Arguments = \"-c 'id -u; id -g; id -G; stat -c %u "
                                "$_CONDOR_SCRATCH_DIR; touch made'\"; Iwd = " +
                                quoted(home.string()) + "; Out = \"id.out\""),
                            as);
  REQUIRE(e.error.empty());
  CHECK(e.code == 0);
  std::istringstream lines(read(out));
  std::string uid, gid, groups, sandbox_owner;
  std::getline(lines, uid);
  std::getline(lines, gid);
  std::getline(lines, groups);
  std::getline(lines, sandbox_owner);
  CHECK(uid == std::to_string(nobody->uid));
  CHECK(gid == std::to_string(nobody->gid));
  CHECK(groups == std::to_string(nobody->gid));  // no group of root's
  CHECK(sandbox_owner == std::to_string(nobody->uid));
  struct stat st {};
  REQUIRE(::stat(out.c_str(), &st) == 0);
  CHECK(st.st_uid == nobody->uid);
  REQUIRE(::stat((home / "made").c_str(), &st) == 0);
  CHECK(st.st_uid == nobody->uid);
  // Its files open with its rights: root's directory is not writable to it.
  const ProcessExit refused =
      run(runner, job("Cmd = \"/bin/true\"; Out = " + quoted((dir.path / "root-only.out").string())), as);
  CHECK_THAT(refused.error,
             Catch::Contains("cannot open output file") && Catch::Contains("Permission denied"));
  CHECK_FALSE(fs::exists(dir.path / "root-only.out"));
}
