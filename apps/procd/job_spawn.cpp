#include "apps/procd/job_spawn.h"

#include <fcntl.h>
#include <grp.h>
#include <linux/close_range.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace cara::procd {
namespace {

// In the child: reports `what` and errno to the keeper through `fd`, and
// ends. Only async-signal-safe calls (the keeper has one thread, but the
// report must not allocate for a child that failed half-way).
[[noreturn]] void fail(int fd, const char* what, const std::string* path) {
  const int e = errno;
  char buf[1024];
  std::size_t n = 0;
  auto put = [&](const char* s) {
    for (; *s && n < sizeof buf - 1; ++s) buf[n++] = *s;
  };
  put(what);
  if (path) {
    put(" ");
    put(path->c_str());
  }
  put(": ");
  put(strerror(e));
  [[maybe_unused]] ssize_t w = ::write(fd, buf, n);
  _exit(127);
}

int open_as(const std::string& path, int flags, int report, const char* what) {
  const int fd = ::open(path.c_str(), flags, 0644);
  if (fd < 0) fail(report, what, &path);
  return fd;
}

// The job's process, after fork. Never returns.
[[noreturn]] void become_job(const JobSpec& s, const std::string& sandbox, pid_t keeper, char* const* argv,
                             char* const* envp, int report) {
  // Default signal handling and nothing blocked: the keeper's own settings
  // are not the job's.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) ::sigaction(sig, &dfl, nullptr);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  // Its own process group: a signal reaches the job and all it started.
  if (::setpgid(0, 0) != 0) fail(report, "setpgid", nullptr);
  if (s.switch_user) {
    std::vector<gid_t> groups(s.groups.begin(), s.groups.end());
    if (::setgroups(groups.size(), groups.data()) != 0) fail(report, "setgroups for", &s.user);
    if (::setgid(s.gid) != 0) fail(report, "setgid for", &s.user);
    if (::setuid(s.uid) != 0) fail(report, "setuid for", &s.user);
    // The change must be for good: a job that could become root again
    // would own the machine.
    if (s.uid != 0 && (::setuid(0) == 0 || ::geteuid() == 0)) {
      errno = EPERM;
      fail(report, "dropping root for", &s.user);
    }
  }
  // Set after the user change, which clears it. The job dies with its
  // keeper; the keeper kills the rest of the family.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != keeper) _exit(127);  // the keeper is already gone
  // The directory, then the files (relative ones are under it), as the
  // job's user: a job cannot make its keeper open what its user may not.
  const std::string& dir = s.iwd.empty() ? sandbox : s.iwd;
  if (!dir.empty() && ::chdir(dir.c_str()) != 0) fail(report, "cannot enter directory", &dir);
  const int in = open_as(s.in.empty() ? "/dev/null" : s.in, O_RDONLY, report, "cannot open input file");
  const std::string out_path = s.out.empty() ? "/dev/null" : s.out;
  const std::string err_path = s.err.empty() ? "/dev/null" : s.err;
  const int out = open_as(out_path, O_WRONLY | O_CREAT | O_TRUNC, report, "cannot open output file");
  const int err = err_path == out_path
                      ? -1
                      : open_as(err_path, O_WRONLY | O_CREAT | O_TRUNC, report, "cannot open error file");
  if (::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err < 0 ? out : err, 2) < 0)
    fail(report, "dup2", nullptr);
  // Nothing else of the keeper's reaches the job (the report pipe closes
  // at exec, telling the keeper that exec worked).
  ::syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC);
  ::execve(s.cmd.c_str(), argv, envp);
  fail(report, "cannot execute", &s.cmd);
}

}  // namespace

Result<Launched> launch_job(const JobSpec& s, const std::string& sandbox) {
  // Everything the child needs is made before fork.
  std::vector<std::string> env = s.env;
  env.push_back(std::string(kFamilyVariable) + "=" + std::to_string(::getpid()) + "." + std::to_string(s.id));
  if (!sandbox.empty()) {
    // HTCondor's names for the job's scratch directory.
    env.push_back("_CONDOR_SCRATCH_DIR=" + sandbox);
    env.push_back("TMPDIR=" + sandbox);
  }
  std::vector<char*> argv, envp;
  argv.push_back(const_cast<char*>(s.cmd.c_str()));
  for (const std::string& a : s.args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const std::string& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);

  int report[2];
  if (::pipe2(report, O_CLOEXEC) != 0) return Error{std::string("pipe: ") + std::strerror(errno)};
  const pid_t keeper = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int e = errno;
    ::close(report[0]);
    ::close(report[1]);
    return Error{std::string("fork: ") + std::strerror(e)};
  }
  if (pid == 0) {
    ::close(report[0]);
    become_job(s, sandbox, keeper, argv.data(), envp.data(), report[1]);
  }
  ::close(report[1]);
  ::fcntl(report[0], F_SETFL, O_NONBLOCK);
  return Launched{pid, report[0]};
}

std::optional<std::string> read_report(int fd, bool& done) {
  std::string got;
  char buf[512];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      got.append(buf, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    done = n == 0 || errno != EAGAIN;  // end of file: the report is complete
    break;
  }
  if (got.empty()) return std::nullopt;
  done = true;  // a failing child writes its report in one piece, then exits
  return got;
}

}  // namespace cara::procd
