// What the bench programs that run real `cara` processes share: a pool CA
// with one certificate for 127.0.0.1, starting a process with its output
// in a log file, and waiting for one to end.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "net/pki.h"

namespace cara::bench {

// A pool CA and one certificate for 127.0.0.1 in `dir` (node.pem,
// node.key, ca/ca.pem); the program ends when they cannot be made.
inline void make_pki(const std::filesystem::path& dir) {
  if (!net::create_ca((dir / "ca").string(), "bench pool", 1).ok() ||
      !net::issue_certificate((dir / "ca").string(), (dir / "node").string(),
                              {"127.0.0.1", "condor@bench", 1})
           .ok()) {
    std::cerr << "bench: cannot make certificates in " << dir << "\n";
    std::exit(1);
  }
}

// Starts `args` with stdout and stderr appended to `log`; -1 when it
// cannot be started.
inline pid_t spawn(const std::vector<std::string>& args, const std::filesystem::path& log) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  return rc == 0 ? pid : -1;
}

// Who a spawned client runs as: as root, the bench's clients run as an
// ordinary user (the schedd refuses root's jobs).
struct RunAs {
  uid_t uid = 0;
  gid_t gid = 0;
  bool switch_user = false;
  // nobody/nogroup when the bench runs as root, else no switch.
  static RunAs unprivileged() {
    RunAs r;
    if (::geteuid() != 0) return r;
    r.switch_user = true;
    r.uid = 65534;
    r.gid = 65534;
    return r;
  }
};

// Starts `args` as `who`, with `extra_env` added to the environment and
// its output appended to `log`, in one fork and one exec: what a user's
// shell does, so a timed client is not also timed through setpriv and env.
// The child of vfork only makes system calls before its exec.
inline pid_t spawn_as(const std::vector<std::string>& args, const std::filesystem::path& log,
                      const std::vector<std::string>& extra_env, const RunAs& who) {
  std::vector<char*> argv, envp;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const std::string& e : extra_env) envp.push_back(const_cast<char*>(e.c_str()));  // first: they win
  for (char** e = environ; *e; ++e) envp.push_back(*e);
  envp.push_back(nullptr);
  const std::string log_path = log.string();
  const pid_t pid = ::vfork();
  if (pid != 0) return pid;  // the parent (or -1)
  const long fd = ::syscall(SYS_openat, AT_FDCWD, log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd >= 0) {
    ::syscall(SYS_dup2, fd, 1);
    ::syscall(SYS_dup2, fd, 2);
  }
  if (who.switch_user && (::syscall(SYS_setgroups, 0, nullptr) != 0 ||
                          ::syscall(SYS_setresgid, who.gid, who.gid, who.gid) != 0 ||
                          ::syscall(SYS_setresuid, who.uid, who.uid, who.uid) != 0))
    ::_exit(126);
  ::execve(argv[0], argv.data(), envp.data());
  ::_exit(127);
}

// The exit code of `pid` once it ended (-1: killed by a signal).
inline int wait_exit(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The resident memory of process `pid`, in bytes.
inline std::int64_t resident_bytes_of(pid_t pid) {
  std::ifstream statm("/proc/" + std::to_string(pid) + "/statm");
  std::int64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * sysconf(_SC_PAGESIZE);
}

// Polls `done` every `every` until it holds (true) or `limit` passed (false).
template <class F>
bool until(F&& done, std::chrono::seconds limit,
           std::chrono::milliseconds every = std::chrono::milliseconds(20)) {
  const auto start = std::chrono::steady_clock::now();
  while (!done()) {
    if (std::chrono::steady_clock::now() - start > limit) return false;
    std::this_thread::sleep_for(every);
  }
  return true;
}

}  // namespace cara::bench
