#include "apps/procd/job_spawn.h"

#include <fcntl.h>
#include <grp.h>
#include <linux/close_range.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace cara::procd {
namespace {

// The child runs on child_stack (below), which AddressSanitizer does not
// know as a stack, and never returns from its frames: instrumented, they
// would leave their red zones poisoned in the keeper's shadow memory for
// the next child to trip over. The child's few steps go uninstrumented.
#define CARA_CHILD_STEP __attribute__((no_sanitize("address")))

// In the child: reports `what` and errno to the keeper through `fd`, and
// ends. Only async-signal-safe calls (the keeper has one thread, but the
// report must not allocate for a child that failed half-way).
[[noreturn]] CARA_CHILD_STEP void fail(int fd, const char* what, const char* path) {
  const int e = errno;
  char buf[1024];
  std::size_t n = 0;
  auto put = [&](const char* s) {
    for (; *s && n < sizeof buf - 1; ++s) buf[n++] = *s;
  };
  put(what);
  if (path) {
    put(" ");
    put(path);
  }
  put(": ");
  put(strerror(e));
  [[maybe_unused]] ssize_t w = ::write(fd, buf, n);
  _exit(127);
}

// Opens one of the job's standard files. Without waiting for a FIFO's
// other end (O_NONBLOCK, cleared once open): the keeper is suspended until
// the child execs, so nothing here may wait on anyone else. A FIFO as
// output with no reader fails the start ("No such device or address").
CARA_CHILD_STEP int open_as(const char* path, int flags, int report, const char* what) {
  const int fd = ::open(path, flags | O_NONBLOCK, 0644);
  if (fd < 0) fail(report, what, path);
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

// Everything the child reads, made before the clone: the child shares the
// keeper's memory, so it must not allocate (malloc's state is the keeper's).
struct ChildPlan {
  const JobSpec* spec = nullptr;
  std::vector<gid_t> groups;
  const char* dir = nullptr;  // nullptr: stay where the keeper is
  const char* in = nullptr;
  const char* out = nullptr;
  const char* err = nullptr;  // nullptr: the same file as out
  pid_t keeper = 0;
  char* const* argv = nullptr;
  char* const* envp = nullptr;
  int report = -1;
};

// The job's process, from the clone to its exec. Never returns.
[[noreturn]] CARA_CHILD_STEP void become_job(const ChildPlan& p) {
  const JobSpec& s = *p.spec;
  // Default signal handling and nothing blocked: the keeper's own settings
  // are not the job's. (The child has its own copy of the handler table:
  // no CLONE_SIGHAND.)
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) ::sigaction(sig, &dfl, nullptr);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  // Its own process group: a signal reaches the job and all it started.
  if (::setpgid(0, 0) != 0) fail(p.report, "setpgid", nullptr);
  if (s.switch_user) {
    // Credentials are per task: these change the child only.
    if (::setgroups(p.groups.size(), p.groups.data()) != 0) fail(p.report, "setgroups for", s.user.c_str());
    if (::setgid(s.gid) != 0) fail(p.report, "setgid for", s.user.c_str());
    if (::setuid(s.uid) != 0) fail(p.report, "setuid for", s.user.c_str());
    // The change must be for good: a job that could become root again
    // would own the machine.
    if (s.uid != 0 && (::setuid(0) == 0 || ::geteuid() == 0)) {
      errno = EPERM;
      fail(p.report, "dropping root for", s.user.c_str());
    }
  }
  // Set after the user change, which clears it. The job dies with its
  // keeper; the keeper kills the rest of the family.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != p.keeper) _exit(127);  // the keeper is already gone
  // The directory, then the files (relative ones are under it), as the
  // job's user: a job cannot make its keeper open what its user may not.
  if (p.dir && ::chdir(p.dir) != 0) fail(p.report, "cannot enter directory", p.dir);
  const int in = open_as(p.in, O_RDONLY, p.report, "cannot open input file");
  const int out = open_as(p.out, O_WRONLY | O_CREAT | O_TRUNC, p.report, "cannot open output file");
  const int err =
      p.err ? open_as(p.err, O_WRONLY | O_CREAT | O_TRUNC, p.report, "cannot open error file") : -1;
  if (::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err < 0 ? out : err, 2) < 0)
    fail(p.report, "dup2", nullptr);
  // Nothing else of the keeper's reaches the job (the report pipe closes
  // at exec, telling the keeper that exec worked).
  ::syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC);
  ::execve(s.cmd.c_str(), p.argv, p.envp);
  fail(p.report, "cannot execute", s.cmd.c_str());
}

CARA_CHILD_STEP int child_main(void* plan) {
  become_job(*static_cast<const ChildPlan*>(plan));
}

// The child's stack. One is enough: the keeper has one thread and is
// suspended while its child uses it (CLONE_VFORK).
alignas(64) char child_stack[256 * 1024];

}  // namespace

Result<Launched> launch_job(const JobSpec& s, const std::string& sandbox) {
  // Everything the child needs is made before the clone.
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

  const std::string out_path = s.out.empty() ? "/dev/null" : s.out;
  const std::string err_path = s.err.empty() ? "/dev/null" : s.err;
  const std::string& dir = s.iwd.empty() ? sandbox : s.iwd;
  ChildPlan plan;
  plan.spec = &s;
  plan.groups.assign(s.groups.begin(), s.groups.end());
  plan.dir = dir.empty() ? nullptr : dir.c_str();
  plan.in = s.in.empty() ? "/dev/null" : s.in.c_str();
  plan.out = out_path.c_str();
  plan.err = err_path == out_path ? nullptr : err_path.c_str();
  plan.keeper = ::getpid();
  plan.argv = argv.data();
  plan.envp = envp.data();

  int report[2];
  if (::pipe2(report, O_CLOEXEC) != 0) return Error{std::string("pipe: ") + std::strerror(errno)};
  plan.report = report[1];
  // The child shares the keeper's memory until it execs (CLONE_VM), and the
  // keeper waits for that (CLONE_VFORK): no page tables copied, no
  // copy-on-write faults on either side, which a fork of the keeper costs
  // per job. Its own file table and signal handlers, as after fork.
  const pid_t pid =
      ::clone(child_main, child_stack + sizeof child_stack, CLONE_VM | CLONE_VFORK | SIGCHLD, &plan);
  if (pid < 0) {
    const int e = errno;
    ::close(report[0]);
    ::close(report[1]);
    return Error{std::string("clone: ") + std::strerror(e)};
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
