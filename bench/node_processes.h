// What the bench programs that run real `cara` processes share: a pool CA
// with one certificate for 127.0.0.1, starting a process with its output
// in a log file, and waiting for one to end.
#pragma once

#include <fcntl.h>
#include <spawn.h>
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
