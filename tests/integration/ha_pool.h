// A pool of several central managers for the high-availability tests
// (issue 22): `n` central managers (cm1, cm2, ...) with a had each, an
// execution point and an access point reporting to all of them. On
// 127.0.0.1, or with a NetLab each node on a host of its own (its own
// address in its own network namespace), so that a test can cut the link
// between two central managers.
#pragma once

#include <signal.h>

#include <fstream>

#include "integration/net_lab.h"
#include "integration/pool_support.h"

namespace cara::test {

struct HaPool : Pool {
  std::vector<int> ports;
  std::vector<fs::path> cms;
  std::vector<std::size_t> cm_nodes;  // each central manager's index in `nodes`
  fs::path ap;
  std::string admin;      // a tool configuration with an administrator's certificate
  NetLab* lab = nullptr;  // hosts: the central managers, then ep1, then ap
  int cm_count = 0;

  // `node_extra` goes into the execution and access points' configuration.
  explicit HaPool(int n, const std::string& cm_extra = "", const std::string& node_extra = "",
                  NetLab* net = nullptr)
      : lab(net), cm_count(n) {
    ports.push_back(cm_port);
    for (int i = 1; i < n; ++i) ports.push_back(free_port());
    for (int i = 0; i < n; ++i) {
      cms.push_back(config("cm" + std::to_string(i + 1),
                           "DAEMON_LIST = MASTER COLLECTOR NEGOTIATOR HAD\nCONDOR_HOST = " + hosts() +
                               "\nSHARED_PORT_PORT = " + std::to_string(ports[i]) + "\nHAD_LIST = " +
                               hosts() + "\nHAD_CONNECTION_TIMEOUT = 1\n" + interface(i) + cm_extra));
      cm_nodes.push_back(nodes.size());
      start(cms.back(), wrapper(i));
    }
    // The central managers have found each other before the other nodes
    // join them (fewer TLS handshakes at once; see the note of issue 22).
    for (int i = 1; i < n; ++i) REQUIRE(await([&] { return had(i, ") is reachable") >= i; }, 60));
    const std::string others = node_extra + "CONDOR_HOST = " + hosts() + "\nSHARED_PORT_PORT = ";
    start(config("ep1", "DAEMON_LIST = MASTER STARTD\n" + others + std::to_string(free_port()) +
                            "\nSTART = true\nCLAIM_WORKLIFE = 0\nNUM_CPUS = 2\n" + interface(n)),
          wrapper(n));
    ap = config("ap", "DAEMON_LIST = MASTER SCHEDD\n" + others + std::to_string(free_port()) + "\n" +
                          interface(n + 1));
    start(ap, wrapper(n + 1));
    REQUIRE(await([&] { return tool(ap, {"q"}).exit_code == 0; }, 60));
    admin = client("admin", ap);
  }
  // Host `h`'s address: 127.0.0.1, or its own in the lab.
  std::string address(int h) const { return lab ? lab->address(h) : "127.0.0.1"; }
  std::string interface(int h) const { return lab ? "NETWORK_INTERFACE = " + address(h) + "\n" : ""; }
  std::vector<std::string> wrapper(int h) const { return lab ? lab->inside(h) : std::vector<std::string>{}; }
  std::string hosts() const {
    std::string out;
    for (std::size_t i = 0; i < ports.size(); ++i)
      out += (out.empty() ? "" : ", ") + address(static_cast<int>(i)) + ":" + std::to_string(ports[i]);
    return out;
  }
  std::string log(const std::string& node, const std::string& file) {
    return read(dir / node / "log" / file);
  }
  // The last lines of each central manager's HADLog and MasterLog: what a
  // failed wait prints, so that a failure seen once (a loaded CI machine)
  // can be read afterwards.
  std::string story(std::size_t lines = 25) {
    std::string out;
    for (int i = 0; i < cm_count; ++i)
      for (const char* file : {"HADLog", "MasterLog"}) {
        out += "--- cm" + std::to_string(i + 1) + " " + file + " (last lines)\n" +
               last_lines(log("cm" + std::to_string(i + 1), file), lines);
      }
    return out;
  }
  // How often `what` is in central manager `i`'s (0-based) HADLog.
  int had(int i, const std::string& what) { return count(log("cm" + std::to_string(i + 1), "HADLog"), what); }
  Node& cm(int i) { return nodes[cm_nodes[static_cast<std::size_t>(i)]]; }
  void kill_cm(int i, int sig = SIGKILL) { Pool::stop(cm(i), sig); }
  void restart_cm(int i) {
    cm_nodes[static_cast<std::size_t>(i)] = nodes.size();
    start(cms[static_cast<std::size_t>(i)], wrapper(i));
  }
  // `cara status ARGS` against central manager `i`'s collector (-pool).
  ProcessResult status(int i, std::vector<std::string> args) {
    std::vector<std::string> argv{
        CARA_BINARY, "status", "--config",
        admin,       "-pool",  address(i) + ":" + std::to_string(ports[static_cast<std::size_t>(i)])};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_process(argv, "", 60000);
  }
  // Whether central manager `i`'s collector shows `cm`'s negotiator as the
  // active one, in `term`.
  bool shows_active(int i, const std::string& cm, int term) {
    auto r = status(i, {"-negotiator", "-af", "Name", "HadActive", "HadTerm"});
    return r.exit_code == 0 && r.out.find(cm + " true " + std::to_string(term) + "\n") != std::string::npos;
  }
  // A one-job cluster submitted, run and gone from the queue.
  bool job_runs() {
    const fs::path sub = dir / "one.sub";
    std::ofstream(sub) << "executable = /bin/true\nqueue\n";
    if (tool(ap, {"submit", sub.string()}).exit_code != 0) return false;
    return await([&] { return queue_of(*this, ap) && queue_of(*this, ap)->empty(); }, 60);
  }
};

}  // namespace cara::test
