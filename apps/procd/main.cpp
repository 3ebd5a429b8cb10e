// cara-procd: an execution point's process keeper (HTCondor's condor_procd
// and the starter's part in running a job). The startd's process starts it
// once, with one end of a SOCK_SEQPACKET socket pair as descriptor 3, and
// asks it to start and signal jobs (actors/procd_protocol.h). It starts each
// job as the job's user — between clone and exec, so it must be a process
// of one thread, not the multi-threaded daemon — and reports each exit.
//
// Jobs never outlive the node: the keeper is a child subreaper, each job's
// main process has the keeper's death as its own (PR_SET_PDEATHSIG), and
// when the socket reads end-of-file (the daemon's process ended, even by
// kill -9) the keeper kills every family and exits.
//
// Usage: cara-procd EXECUTE_DIR     (not meant to be run by hand)
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "actors/procd_protocol.h"
#include "apps/procd/families.h"
#include "apps/procd/job_spawn.h"

namespace {

using cara::procd::Families;
using cara::procd::JobSpec;
using nlohmann::json;

constexpr int kSocket = 3;

void send(const json& message) {
  const std::string text = cara::procd::encode(message);
  while (::send(kSocket, text.data(), text.size(), MSG_NOSIGNAL) < 0 && errno == EINTR) {
  }
}

// A job started but not yet known to have exec'd (its report pipe open).
struct Pending {
  cara::procd::Family family;
  int report = -1;
};

void start(Families& families, std::vector<Pending>& pending, const json& request) {
  JobSpec spec;
  try {
    spec = request.get<JobSpec>();
  } catch (const std::exception& e) {
    send({{"op", "failed"},
          {"id", request.value("id", std::int64_t{-1})},
          {"error", std::string("a malformed start request: ") + e.what()}});
    return;
  }
  std::string error;
  std::string sandbox;
  if (spec.sandbox) {
    sandbox = families.make_sandbox(spec.id, spec.switch_user, spec.uid, spec.gid, error);
    if (!error.empty()) {
      send({{"op", "failed"}, {"id", spec.id}, {"error", error}});
      return;
    }
  }
  auto launched = cara::procd::launch_job(spec, sandbox);
  if (!launched) {
    if (!sandbox.empty()) ::rmdir(sandbox.c_str());
    send({{"op", "failed"}, {"id", spec.id}, {"error", launched.error()}});
    return;
  }
  pending.push_back(
      Pending{cara::procd::Family{spec.id, launched->pid, sandbox, spec.uid, spec.gid, spec.switch_user},
              launched->report});
}

// The report of pending launch `i` says how its exec went: a job that
// started is a family from now on; one that failed is collected (it has
// exited or is about to), unless `reaped` says it already was.
void settle(Families& families, std::vector<Pending>& pending, std::size_t i, bool reaped) {
  bool done = false;
  auto failure = cara::procd::read_report(pending[i].report, done);
  if (!done && !reaped) return;  // nothing yet
  Pending p = std::move(pending[i]);
  pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(i));
  ::close(p.report);
  if (!failure) {
    families.add(p.family);
    send({{"op", "started"}, {"id", p.family.id}, {"pid", p.family.pid}});
    return;
  }
  if (!reaped) {
    int status = 0;
    while (::waitpid(p.family.pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  if (!p.family.sandbox.empty()) ::rmdir(p.family.sandbox.c_str());
  send({{"op", "failed"}, {"id", p.family.id}, {"error", *failure}});
}

// Signals a job's process group, also one still starting (its child has
// its own group from the first step after fork).
void signal_job(const Families& families, const std::vector<Pending>& pending, const json& request) {
  const std::int64_t id = request.value("id", std::int64_t{-1});
  const int sig = request.value("sig", 0);
  if (sig <= 0 || sig >= NSIG) return;
  if (const cara::procd::Family* f = families.by_id(id)) return void(::kill(-f->pid, sig));
  for (const Pending& p : pending)
    if (p.family.id == id) ::kill(-p.family.pid, sig);
}

// Reaps every child that ended: a job's main process is reported and its
// family killed; a stray re-parented to the keeper is simply collected.
void reap(Families& families, std::vector<Pending>& pending) {
  for (;;) {
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid <= 0) break;
    // Ended before its report was read: the report (complete now) says
    // whether it ran; if it did, its exit is reported below.
    for (std::size_t i = 0; i < pending.size(); ++i)
      if (pending[i].family.pid == pid) {
        settle(families, pending, i, true);
        break;
      }
    if (const cara::procd::Family* f = families.by_pid(pid)) {
      const bool signaled = WIFSIGNALED(status);
      send({{"op", "exited"},
            {"id", f->id},
            {"signaled", signaled},
            {"code", signaled ? WTERMSIG(status) : WEXITSTATUS(status)}});
      families.ended(pid);
    }
  }
  families.sweep();
}

// The daemon is gone: nothing it started may run on. Every family is
// killed and collected (bounded: a process stuck in the kernel is left).
void stop(Families& families) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < until) {
    families.kill_all();
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid < 0 && errno == ECHILD) break;
    if (pid > 0) {
      if (families.by_pid(pid)) families.ended(pid);
      continue;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 || ::fcntl(kSocket, F_GETFD) < 0) {
    std::cerr << "usage: cara-procd EXECUTE_DIR (started by a startd, with its socket as descriptor 3)\n";
    return 2;
  }
  ::fcntl(kSocket, F_SETFD, FD_CLOEXEC);
  // Not the terminal's: Ctrl-C at a master started by hand is for the
  // master, which then closes the socket.
  ::setsid();
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2}) ::signal(sig, SIG_IGN);
  if (::prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) {
    send({{"op", "fatal"},
          {"error", std::string("cannot become a child subreaper: ") + std::strerror(errno)}});
    return 1;
  }
  const std::string execute = argv[1];
  if (!execute.empty()) {
    ::mkdir(execute.c_str(), 0755);
    struct stat st {};
    if (::stat(execute.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
      send(
          {{"op", "fatal"}, {"error", "EXECUTE " + execute + ": " + std::strerror(errno ? errno : ENOTDIR)}});
      return 1;
    }
  }
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  ::sigprocmask(SIG_BLOCK, &chld, nullptr);
  const int children = ::signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);

  Families families(execute);
  families.clean_stale_sandboxes();
  send({{"op", "ready"}, {"pid", ::getpid()}});

  std::vector<char> packet(cara::procd::kMaxPacket);
  std::vector<Pending> pending;  // started, exec not confirmed yet
  std::vector<pollfd> fds;
  for (;;) {
    // The daemon's requests, children that ended, and the report of each
    // job being started: a start waits only until the exec, so the next
    // job is started while the last one still loads.
    fds.assign({{kSocket, POLLIN, 0}, {children, POLLIN, 0}});
    for (const Pending& p : pending) fds.push_back({p.report, POLLIN, 0});
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds[1].revents & POLLIN) {
      signalfd_siginfo info;
      while (::read(children, &info, sizeof info) == sizeof info) {
      }
      reap(families, pending);
    }
    for (std::size_t k = fds.size(); k-- > 2;) {
      if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      for (std::size_t i = 0; i < pending.size(); ++i)
        if (pending[i].report == fds[k].fd) {
          settle(families, pending, i, false);
          break;
        }
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      const ssize_t n = ::recv(kSocket, packet.data(), packet.size(), 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;  // the daemon is gone
      json request = cara::procd::decode(packet.begin(), packet.begin() + n);
      if (request.is_discarded() || !request.is_object()) continue;
      const std::string op = request.value("op", "");
      if (op == "start") start(families, pending, request);
      if (op == "signal") signal_job(families, pending, request);
    }
  }
  stop(families);
  return 0;
}
