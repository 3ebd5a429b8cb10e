// Scratch resources for tests and benchmarks that start real processes:
// a temporary directory removed afterwards, and a free TCP port on
// 127.0.0.1 (ground rules: temp dirs, free ports, 127.0.0.1 only).
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <set>
#include <stdexcept>
#include <string>

namespace cara::scratch {

// A fresh directory /tmp/cara-<what>-XXXXXX, removed with everything in it
// when this goes, unless CARA_KEEP_TEST_DIR is set (to look at logs after a
// failure).
class TempDir {
 public:
  explicit TempDir(const std::string& what) {
    std::string tmpl = "/tmp/cara-" + what + "-XXXXXX";  // mkdtemp's pattern
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp " + tmpl + " failed");
    path = tmpl;
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ignored;
    if (!std::getenv("CARA_KEEP_TEST_DIR")) std::filesystem::remove_all(path, ignored);
  }
  // The path of `name` in the directory, as a string.
  std::string operator/(const std::string& name) const { return (path / name).string(); }

  std::filesystem::path path;
};

// A TCP port on 127.0.0.1 that is free now, picked at random below the
// ephemeral range (STACK-NOTES.md) so that tests running side by side
// rarely try the same one. Never the same port twice in one process: a
// test picks several before its processes bind them, and two picks that
// fell on one port made a pool's view collector find the central
// manager's port taken.
inline int free_port() {
  static std::mt19937 rng(std::random_device{}());
  static std::set<int> given;
  if (given.size() > 8000) given.clear();  // most of the range: start over rather than spin
  for (;;) {
    const int port = std::uniform_int_distribution<int>(20000, 32000)(rng);
    if (!given.insert(port).second) continue;
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    ::close(fd);
    if (ok) return port;
  }
}

}  // namespace cara::scratch
