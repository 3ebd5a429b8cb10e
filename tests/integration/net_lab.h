// Hosts of their own for integration tests: each in a network namespace
// with its own address on one bridge, which the test process (in the
// machine's namespace) reaches too. A link between two hosts can be cut
// (each routes the other into a blackhole: a partition, while both still
// reach every other host) and healed. Needs root and iproute2; where the
// machine does not permit it, `unavailable()` says why and the test skips.
// Everything made is removed when the lab goes.
#pragma once

#include <unistd.h>

#include <optional>
#include <string>
#include <vector>

#include "integration/process.h"

namespace cara::test {

class NetLab {
 public:
  // Why namespaces cannot be made here, or nullopt when they can.
  static std::optional<std::string> unavailable() {
    if (::geteuid() != 0) return "not root: network namespaces cannot be made";
    if (::access(kIp, X_OK) != 0) return std::string(kIp) + " is missing (Debian's iproute2)";
    const std::string probe = "caraprobe" + std::to_string(::getpid());
    auto made = run_process({kIp, "netns", "add", probe});
    if (made.exit_code != 0) return "ip netns add is not permitted: " + made.err;
    run_process({kIp, "netns", "del", probe});
    return std::nullopt;
  }

  explicit NetLab(int hosts) : tag_(std::to_string(::getpid() % 100000)) {
    const int pid = static_cast<int>(::getpid());
    subnet_ = "10." + std::to_string(100 + pid / 250 % 100) + "." + std::to_string(pid % 250) + ".";
    bridge_ = "cb" + tag_;
    ok_ = ip({"link", "add", bridge_, "type", "bridge"}) &&
          ip({"addr", "add", subnet_ + "254/24", "dev", bridge_}) && ip({"link", "set", bridge_, "up"});
    for (int i = 0; ok_ && i < hosts; ++i) {
      const std::string ns = "cara" + tag_ + "n" + std::to_string(i);
      const std::string outer = "v" + tag_ + "h" + std::to_string(i),
                        inner = "v" + tag_ + "n" + std::to_string(i);
      namespaces_.push_back(ns);
      ok_ = ip({"netns", "add", ns}) && ip({"link", "add", outer, "type", "veth", "peer", "name", inner}) &&
            ip({"link", "set", inner, "netns", ns}) && ip({"link", "set", outer, "master", bridge_, "up"}) &&
            ip({"-n", ns, "addr", "add", address(i) + "/24", "dev", inner}) &&
            ip({"-n", ns, "link", "set", inner, "up"}) && ip({"-n", ns, "link", "set", "lo", "up"});
    }
  }
  ~NetLab() {
    for (const std::string& ns : namespaces_) ip({"netns", "del", ns});  // its veth goes with it
    ip({"link", "del", bridge_});
  }
  NetLab(const NetLab&) = delete;
  NetLab& operator=(const NetLab&) = delete;

  // Whether every host was made; `error()` says what failed otherwise.
  bool ok() const { return ok_; }
  const std::string& error() const { return error_; }

  std::string address(int host) const { return subnet_ + std::to_string(host + 1); }
  // What runs a command inside `host`'s namespace: the command follows.
  std::vector<std::string> inside(int host) const {
    return {kIp, "netns", "exec", namespaces_[static_cast<std::size_t>(host)]};
  }

  // Hosts `a` and `b` no longer reach each other (both ways); heal() undoes it.
  bool cut(int a, int b) { return route("add", a, b) && route("add", b, a); }
  bool heal(int a, int b) { return route("del", a, b) && route("del", b, a); }

 private:
  static constexpr const char* kIp = "/usr/sbin/ip";

  bool ip(std::vector<std::string> args) {
    args.insert(args.begin(), kIp);
    auto r = run_process(args);
    if (r.exit_code == 0) return true;
    std::string cmd;
    for (const std::string& a : args) cmd += (cmd.empty() ? "" : " ") + a;
    error_ = cmd + ": " + r.err;
    return false;
  }
  bool route(const char* verb, int from, int to) {
    return ip(
        {"-n", namespaces_[static_cast<std::size_t>(from)], "route", verb, "blackhole", address(to) + "/32"});
  }

  std::string tag_, subnet_, bridge_;
  std::vector<std::string> namespaces_;
  bool ok_ = false;
  std::string error_;
};

}  // namespace cara::test
