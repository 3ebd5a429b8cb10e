// The starter's process launch (actors/job_process.h) with real processes:
// files, environment, exit codes and signals, and no inherited descriptors.
#include "actors/job_process.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>

#include "tests/support/scratch.h"

namespace fs = std::filesystem;
using namespace cara::actors;
using cara::scratch::TempDir;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

ProcessExit run(const JobLaunch& l) {
  std::promise<ProcessExit> done;
  auto exited = done.get_future();
  auto pid = launch_job(l, [&done](ProcessExit e) { done.set_value(e); });
  REQUIRE(pid.ok());
  REQUIRE(exited.wait_for(std::chrono::seconds(20)) == std::future_status::ready);
  return exited.get();
}

}  // namespace

TEST_CASE("a job gets its files, arguments, environment and directory", "[starter][process]") {
  TempDir dir("job");
  std::ofstream(dir.path / "in") << "from stdin\n";
  JobLaunch l;
  l.cmd = "/bin/sh";
  l.args = {"-c", "cat; echo \"$GREETING $1\"; pwd; echo oops >&2; exit 7", "sh", "world"};
  l.environment = {"GREETING=hello"};
  l.iwd = dir.path.string();
  l.in = (dir.path / "in").string();
  l.out = (dir.path / "out").string();
  l.err = (dir.path / "err").string();
  const ProcessExit e = run(l);
  CHECK_FALSE(e.by_signal);
  CHECK(e.code == 7);
  CHECK(read(dir.path / "out") == "from stdin\nhello world\n" + dir.path.string() + "\n");
  CHECK(read(dir.path / "err") == "oops\n");
}

TEST_CASE("a job inherits no descriptor of the daemon beyond stdin, stdout and stderr",
          "[starter][process]") {
  TempDir dir("job");
  // A descriptor without FD_CLOEXEC, as a daemon's log or socket may be.
  const int leaky = ::open((dir.path / "daemon.log").c_str(), O_WRONLY | O_CREAT, 0644);
  REQUIRE(leaky > 2);
  JobLaunch l;
  // ls lists its own descriptors: the three standard ones and the
  // directory it reads (no shell, whose pipes would come and go).
  l.cmd = "/bin/ls";
  l.args = {"/proc/self/fd"};
  l.out = (dir.path / "fds").string();
  const ProcessExit e = run(l);
  ::close(leaky);
  CHECK(e.code == 0);
  CHECK(read(dir.path / "fds") == "0\n1\n2\n3\n");
}

TEST_CASE("a job killed by a signal reports the signal", "[starter][process]") {
  JobLaunch l;
  l.cmd = "/bin/sh";
  l.args = {"-c", "kill -TERM $$"};
  const ProcessExit e = run(l);
  CHECK(e.by_signal);
  CHECK(e.code == SIGTERM);
}
