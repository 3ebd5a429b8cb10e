// A pool of `cara master` processes on 127.0.0.1 for integration tests:
// a pool CA made by `cara keygen`, a certificate and a configuration per
// node, nodes started as processes and ended by PID, tools run against the
// access point as a user (nobody, when the test runs as root), and bounded
// waits on what the nodes write.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "integration/process.h"
#include "tests/support/events.h"
#include "tests/support/scratch.h"

extern char** environ;

namespace cara::test {

namespace fs = std::filesystem;
using cara::scratch::free_port;

inline std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The last `lines` lines of `text`.
inline std::string last_lines(const std::string& text, std::size_t lines) {
  std::size_t from = text.size();
  for (std::size_t n = 0; n <= lines && from != 0; ++n) {
    const std::size_t newline = text.rfind('\n', from - 1);
    from = newline == std::string::npos ? 0 : newline;
  }
  return text.substr(from == 0 ? 0 : from + 1);
}

// Waits until `done` holds or `seconds` pass, checking it again whenever a
// file the nodes write changes: the events are in other processes' files
// (user logs, daemon logs, job output). What no file shows (a process
// ending, a queue state read with `cara q` between log lines) is checked
// again at least every half second.
inline bool await(const std::function<bool()>& done, int seconds) {
  return FileEvents().until(done, std::chrono::seconds(seconds), std::chrono::milliseconds(500));
}

struct Node {
  pid_t pid = -1;
  fs::path conf, err;
};

struct Pool {
  cara::scratch::TempDir scratch{"pool"};  // kept with CARA_KEEP_TEST_DIR set
  fs::path dir = scratch.path;
  int cm_port = free_port();
  int view_port = free_port();  // a view collector, started by the test that wants one
  std::vector<Node> nodes;

  Pool() {
    watched_dirs().push_back(dir);
    // Users submit, never root (the schedd refuses root): as root, this
    // test submits as nobody, whose jobs write into this directory.
    if (::geteuid() == 0) {
      REQUIRE(::chown(dir.c_str(), 65534, 65534) == 0);
      REQUIRE(::chmod(dir.c_str(), 0755) == 0);
    }
    REQUIRE(run_process({CARA_BINARY, "keygen", "ca", (dir / "ca").string()}).exit_code == 0);
    REQUIRE(run_process({CARA_BINARY, "keygen", "ca", (dir / "evil").string(), "--name", "another pool"})
                .exit_code == 0);
  }
  ~Pool() {
    // A failed REQUIRE unwinds through here: the nodes' last lines go to
    // the test's output before their directory goes (a failure seen once
    // on a loaded CI machine can then be read).
    if (std::uncaught_exceptions() > 0) std::cerr << story(20);
    for (Node& n : nodes) stop(n);  // before the directory goes
    auto& w = watched_dirs();
    w.erase(std::remove(w.begin(), w.end(), dir), w.end());
  }

  std::string cert(const std::string& name, const std::string& user, const std::string& ca = "ca") {
    auto r = run_process({CARA_BINARY, "keygen", "cert", (dir / ca).string(), (dir / name).string(), "--host",
                          "127.0.0.1", "--user", user});
    REQUIRE(r.exit_code == 0);
    return (dir / name).string();
  }

  fs::path config(const std::string& name, const std::string& extra, const std::string& ca = "ca") {
    const std::string c = cert(name, "condor@pool", ca);
    fs::path conf = dir / (name + ".conf");
    std::ofstream(conf) << "CONDOR_HOST = 127.0.0.1:" << cm_port << "\n"
                        << "NETWORK_INTERFACE = 127.0.0.1\nUID_DOMAIN = pool\nFULL_HOSTNAME = " << name
                        << ".pool\nLOCAL_DIR = " << (dir / name).string()
                        << "\nAUTH_SSL_SERVER_CERTFILE = " << c << ".pem\nAUTH_SSL_SERVER_KEYFILE = " << c
                        << ".key\nAUTH_SSL_SERVER_CAFILE = " << (dir / "ca/ca.pem").string()
                        << "\nAUTH_SSL_CLIENT_CAFILE = " << (dir / "ca/ca.pem").string()
                        << "\nALLOW_ADMINISTRATOR = admin@pool\nNEGOTIATOR_INTERVAL = 20\n"
                           "NEGOTIATOR_MIN_INTERVAL = 0\nNEGOTIATOR_CYCLE_DELAY = 0\n"
                           "NODE_CONNECTION_TIMEOUT = 2\nNODE_COLLECTOR_CHECK_INTERVAL = 0.5\n"
                        << extra;
    return conf;
  }

  // Starts `cara master` with `conf`, run through `wrapper` when given
  // (`prlimit --fsize=...`, ending in "--").
  Node& start(const fs::path& conf, std::vector<std::string> wrapper = {}) {
    Node n{-1, conf, fs::path(conf).replace_extension(".err")};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, n.err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<std::string> args = std::move(wrapper);
    for (std::string a :
         {std::string(CARA_BINARY), std::string("master"), std::string("--config"), conf.string()})
      args.push_back(std::move(a));
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    REQUIRE(posix_spawn(&n.pid, argv[0], &fa, nullptr, argv.data(), environ) == 0);
    posix_spawn_file_actions_destroy(&fa);
    nodes.push_back(n);
    return nodes.back();
  }

  // A tool's configuration (`base`'s) with a client certificate of `user`@pool.
  std::string client(const std::string& user, const fs::path& base) {
    const std::string c = cert(user, user + "@pool");
    fs::path conf = dir / (user + ".conf");
    std::ofstream(conf) << read(base) << "AUTH_SSL_CLIENT_CERTFILE = " << c
                        << ".pem\nAUTH_SSL_CLIENT_KEYFILE = " << c << ".key\n";
    return conf.string();
  }

  // Waits up to `seconds` for `n` to exit by itself: how long it took and
  // its exit status, or nullopt (it is still running).
  static std::optional<std::pair<double, int>> exit_within(Node& n, int seconds) {
    const auto t0 = std::chrono::steady_clock::now();
    if (!await_end(n.pid, std::chrono::seconds(seconds))) return std::nullopt;
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    int status = 0;
    REQUIRE(::waitpid(n.pid, &status, 0) == n.pid);
    n.pid = -1;
    return std::pair{took, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status)};
  }

  static void stop(Node& n, int sig = SIGTERM) {
    if (n.pid <= 0) return;
    ::kill(n.pid, sig);
    if (!await_end(n.pid, std::chrono::seconds(5))) ::kill(n.pid, SIGKILL);
    int status = 0;
    ::waitpid(n.pid, &status, 0);
    n.pid = -1;
  }

  std::string collector_log() { return read(dir / "cm/log/CollectorLog"); }

  // The last lines of every node's logs and standard error: what a failed
  // wait prints, so that a failure seen once (a loaded CI machine, whose
  // test directories are gone afterwards) can be read.
  std::string story(std::size_t lines = 12) const {
    std::vector<fs::path> files;
    for (const auto& node : fs::directory_iterator(dir)) {
      if (node.path().extension() == ".err") files.push_back(node.path());
      if (fs::is_directory(node.path() / "log"))
        for (const auto& log : fs::directory_iterator(node.path() / "log")) files.push_back(log.path());
    }
    std::sort(files.begin(), files.end());
    std::string out;
    for (const fs::path& f : files) {
      const std::string text = last_lines(read(f), lines);
      if (!text.empty()) out += "--- " + fs::relative(f, dir).string() + " (last lines)\n" + text;
    }
    return out;
  }

  // A central manager (`cm_extra` added to its configuration), two
  // execution points (`ep_extra` added to theirs) and an access point
  // (`ap_extra`); returns the access point's configuration once the
  // collector has all their ads.
  fs::path start_all(const std::string& ep_extra, const std::string& cm_extra = "",
                     const std::string& ap_extra = "") {
    const auto cm = config("cm", "DAEMON_LIST = MASTER COLLECTOR NEGOTIATOR\nCONDOR_VIEW_HOST = 127.0.0.1:" +
                                     std::to_string(view_port) + "\n" + cm_extra);
    const auto ep = [&](const std::string& name) {
      return config(name, "DAEMON_LIST = MASTER STARTD\nSHARED_PORT_PORT = " + std::to_string(free_port()) +
                              "\nSTART = true\nCLAIM_WORKLIFE = 0\n" + ep_extra);
    };
    const auto ap =
        config("ap", "DAEMON_LIST = MASTER SCHEDD\nSHARED_PORT_PORT = " + std::to_string(free_port()) + "\n" +
                         ap_extra);
    start(cm);
    start(ep("ep1"));
    start(ep("ep2"));
    start(ap);
    REQUIRE(await(
        [&] {
          const std::string log = collector_log();
          return log.find("slot1@ep1.pool") != std::string::npos &&
                 log.find("slot1@ep2.pool") != std::string::npos &&
                 log.find("Scheduler ad ap.pool") != std::string::npos;
        },
        60));
    return ap;
  }

  // A central manager and an access point (no execution point: jobs stay
  // queued); returns the access point's configuration once its schedd
  // answers `cara q`.
  fs::path start_access_point(const std::string& ap_extra = "") {
    start(config("cm", "DAEMON_LIST = MASTER COLLECTOR NEGOTIATOR\n"));
    const fs::path ap =
        config("ap", "DAEMON_LIST = MASTER SCHEDD\nSHARED_PORT_PORT = " + std::to_string(free_port()) + "\n" +
                         ap_extra);
    start(ap);
    REQUIRE(await([&] { return tool(ap, {"q"}).exit_code == 0; }, 60));
    return ap;
  }

  // A `cara` command run against the access point's local socket, as a
  // user: nobody when this test runs as root.
  cara::test::ProcessResult tool(const fs::path& ap, std::vector<std::string> args,
                                 const std::string& user = "nobody") {
    std::vector<std::string> argv{"/usr/bin/env", "CARA_CONFIG=" + ap.string(), CARA_BINARY};
    if (::geteuid() == 0)
      argv.insert(argv.begin(), {"/usr/bin/setpriv", "--reuid=" + user, "--regid=nogroup", "--init-groups"});
    argv.insert(argv.end(), args.begin(), args.end());
    return run_process(argv, "", 60000);
  }
};

// The access point's queue as `cara q` prints it: cluster → its proc ids;
// nullopt while its schedd does not answer.
inline std::optional<std::map<long, std::vector<long>>> queue_of(Pool& pool, const fs::path& ap) {
  auto q = pool.tool(ap, {"q", "-af", "ClusterId,ProcId"});
  if (q.exit_code != 0) return std::nullopt;
  std::map<long, std::vector<long>> out;
  std::istringstream lines(q.out);
  long cluster = 0, proc = 0;
  while (lines >> cluster >> proc) out[cluster].push_back(proc);
  return out;
}

// Requires `done` within `seconds`; a failure says `what` and prints the
// last lines of every node's logs (Pool::story).
inline void require_within(const Pool& pool, const std::string& what, const std::function<bool()>& done,
                           int seconds) {
  if (await(done, seconds)) return;
  FAIL(what << ": not within " << seconds << " s\n" << pool.story());
}

// Whether `pid` runs (a zombie does not).
// `cara userprio` as the tool configuration `conf` sees it: each
// submitter's priority and factor; empty when the tool failed.
inline std::map<std::string, std::pair<double, double>> priorities(const std::string& conf) {
  auto r = run_process(
      {CARA_BINARY, "userprio", "--config", conf, "-allusers", "-af", "Name", "Priority", "PriorityFactor"});
  std::map<std::string, std::pair<double, double>> out;
  if (r.exit_code != 0) return out;
  std::istringstream lines(r.out);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string name;
    double priority = 0, factor = 0;
    if (fields >> name >> priority >> factor) out[name] = {priority, factor};
  }
  return out;
}

// `after` holds every submitter of `before` with the same factor and the
// same real priority within a thousandth: lower by the decay of the
// seconds that passed (half-life one day), higher by what a claim still
// being charged added meanwhile. A priority reset or lost is far outside.
inline void check_kept_priorities(const std::map<std::string, std::pair<double, double>>& before,
                                  const std::map<std::string, std::pair<double, double>>& after) {
  for (const auto& [name, was] : before) {
    INFO(name);
    REQUIRE(after.count(name));
    CHECK(after.at(name).second == was.second);
    CHECK(after.at(name).first <= was.first * 1.001);
    CHECK(after.at(name).first >= was.first * 0.999);
  }
}

inline bool alive(pid_t pid) {
  const std::string stat = read("/proc/" + std::to_string(pid) + "/stat");
  const auto close = stat.rfind(')');
  return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z';
}

inline int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

}  // namespace cara::test
