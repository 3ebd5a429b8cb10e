// Waiting for what other processes do, without sleeping: a file written
// (inotify) or a process ended (pidfd). Shared by the tests that start
// real processes.
#pragma once

#include <poll.h>
#include <sys/inotify.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <system_error>
#include <vector>

namespace cara::test {

namespace fs = std::filesystem;

// The directories whose files other processes write (an integration
// pool's, registered when it starts): FileEvents() watches them all.
inline std::vector<fs::path>& watched_dirs() {
  static std::vector<fs::path> dirs;
  return dirs;
}

// Blocks until a file under the watched directories changes (inotify),
// or `limit` passes; says whether something changed.
class FileEvents {
 public:
  // In `dir` itself only (not its subdirectories).
  explicit FileEvents(const fs::path& dir)
      : fd_(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC)), recursive_(false) {
    REQUIRE(fd_ >= 0);
    watch(dir);
  }
  // Anywhere under the watched directories.
  FileEvents() : fd_(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {
    REQUIRE(fd_ >= 0);
    for (const fs::path& root : watched_dirs()) {
      std::error_code ec;
      watch(root);
      for (auto it = fs::recursive_directory_iterator(root, ec);
           !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
        if (it->is_directory(ec)) watch(it->path());
    }
  }
  ~FileEvents() { ::close(fd_); }
  FileEvents(const FileEvents&) = delete;
  FileEvents& operator=(const FileEvents&) = delete;

  // Until `done` holds, checked again after each change, or at the latest
  // after `recheck` (for what no file shows); false once `limit` passed.
  bool until(const std::function<bool()>& done, std::chrono::milliseconds limit,
             std::chrono::milliseconds recheck = std::chrono::milliseconds::max()) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (!done()) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
      if (left.count() <= 0) return false;
      wait(std::min(left, recheck));
    }
    return true;
  }

  bool wait(std::chrono::milliseconds limit) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(limit.count())) <= 0) return false;
    alignas(inotify_event) char buf[16384];
    while (true) {
      const ssize_t n = ::read(fd_, buf, sizeof buf);
      if (n <= 0) break;
      // A directory made since (a node's log directory): watched from now on.
      for (ssize_t off = 0; off < n;) {
        const auto* e = reinterpret_cast<const inotify_event*>(buf + off);
        if (recursive_ && (e->mask & IN_ISDIR) && (e->mask & IN_CREATE) && e->len > 0) {
          auto it = dirs_.find(e->wd);
          if (it != dirs_.end()) watch(it->second / e->name);
        }
        off += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
      }
    }
    return true;
  }

 private:
  void watch(const fs::path& dir) {
    const int wd = ::inotify_add_watch(
        fd_, dir.c_str(), IN_MODIFY | IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE | IN_ATTRIB);
    if (wd >= 0) dirs_[wd] = dir;
  }
  int fd_;
  bool recursive_ = true;
  std::map<int, fs::path> dirs_;
};

// Blocks until process `pid` has ended (the kernel says so through a
// pidfd; a zombie has ended) or `limit` passes; whether it has ended.
inline bool await_end(pid_t pid, std::chrono::milliseconds limit) {
  const int fd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (fd < 0) return errno == ESRCH;  // already gone (and reaped)
  pollfd p{fd, POLLIN, 0};
  const int ready = ::poll(&p, 1, static_cast<int>(limit.count()));
  ::close(fd);
  return ready > 0;
}

}  // namespace cara::test
