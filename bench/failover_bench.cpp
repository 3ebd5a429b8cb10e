// bench/failover_bench: central-manager failover with real `cara master`
// processes on 127.0.0.1 (TARGETS.md: kill -9 of the active CM → first new
// match by the standby, ≤ 2 × HAD_CONNECTION_TIMEOUT and ≤ 2 s with
// HAD_CONNECTION_TIMEOUT = 1). Two central managers with a had each, an
// access point with a long queue of short jobs, an execution point that
// frees a slot after every job (CLAIM_WORKLIFE = 0), so that there is
// always something to match. The active central manager is killed with
// kill -9, the standby's first cycle with matches is found in its log,
// the killed one is started again (it comes back as a standby), and so on
// `--kills` times. Prints one JSON object: the times from the kill to the
// standby's "active" log line and to its first match (min, median, max),
// and the negotiation cycles' durations with synchronous replication,
// asynchronous replication and a single central manager (the cost of
// waiting for the standby's acknowledgement).
//
//   failover_bench [--kills N] [--cara PATH]
#include <signal.h>

#include <chrono>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <sstream>
#include <thread>

#include "bench/log_lines.h"
#include "bench/node_processes.h"
#include "bench/timing.h"
#include "tests/support/scratch.h"

namespace {

namespace fs = std::filesystem;
using namespace cara::bench;
using cara::scratch::free_port;
using cara::scratch::TempDir;

struct Spread {
  double min = -1, median = -1, max = -1;
};
Spread spread(std::vector<double> v) {
  if (v.empty()) return {};
  std::sort(v.begin(), v.end());
  return {v.front(), median(v), v.back()};
}

// Cycle durations (ms) logged by `log` since `since`, of cycles with matches.
std::vector<double> cycle_ms(const fs::path& log, Wall::time_point since) {
  static const std::regex line("cycle [0-9]+: .* [1-9][0-9]* matches \\(([0-9]+) ms\\)");
  std::vector<double> out;
  std::istringstream lines(read_file(log));
  std::string l;
  std::smatch m;
  while (std::getline(lines, l)) {
    auto t = line_time(l);
    if (t && *t >= since && std::regex_search(l, m, line)) out.push_back(std::stod(m[1]));
  }
  return out;
}

// One pool: `mode` "sync" (two central managers, HAD_REPLICATION_SYNC),
// "async" (two, asynchronous replication) or "single" (one central
// manager, no HAD). Its cycle durations over a few seconds of steady work
// and, with `kills`, the failovers. The figures go into `out` under `mode`.
int run_pool(const std::string& mode, int kills, const std::string& cara, nlohmann::json& out) {
  TempDir dir("failover-bench");
  make_pki(dir.path);
  const bool ha = mode != "single";
  const int ports[2] = {free_port(), free_port()};
  const std::string hosts =
      ha ? "127.0.0.1:" + std::to_string(ports[0]) + ", 127.0.0.1:" + std::to_string(ports[1])
         : "127.0.0.1:" + std::to_string(ports[0]);
  auto config = [&](const std::string& name, const std::string& extra) {
    const fs::path conf = dir.path / (name + ".conf");
    std::ofstream(conf)
        << "CONDOR_HOST = " << hosts << "\nNETWORK_INTERFACE = 127.0.0.1\nUID_DOMAIN = bench\n"
        << "FULL_HOSTNAME = " << name << ".bench\nLOCAL_DIR = " << (dir.path / name).string()
        << "\nAUTH_SSL_SERVER_CERTFILE = " << (dir.path / "node.pem").string()
        << "\nAUTH_SSL_SERVER_KEYFILE = " << (dir.path / "node.key").string()
        << "\nAUTH_SSL_SERVER_CAFILE = " << (dir.path / "ca/ca.pem").string()
        << "\nNEGOTIATOR_INTERVAL = 60\nNEGOTIATOR_MIN_INTERVAL = 0\nNEGOTIATOR_CYCLE_DELAY = 0\n"
        << "NODE_CONNECTION_TIMEOUT = 2\nNODE_COLLECTOR_CHECK_INTERVAL = 0.5\n"
        << extra;
    return conf;
  };
  const fs::path log = dir.path / "bench.log";
  fs::path cm_conf[2];
  pid_t cm[2] = {-1, -1};
  for (int i = 0; i < (ha ? 2 : 1); ++i) {
    cm_conf[i] = config(
        "cm" + std::to_string(i + 1),
        ha ? "DAEMON_LIST = MASTER COLLECTOR NEGOTIATOR HAD\nSHARED_PORT_PORT = " + std::to_string(ports[i]) +
                 "\nHAD_LIST = " + hosts + "\nHAD_CONNECTION_TIMEOUT = 1\nHAD_REPLICATION_SYNC = " +
                 (mode == "sync" ? "True" : "False") + "\n"
           : "DAEMON_LIST = MASTER COLLECTOR NEGOTIATOR\nSHARED_PORT_PORT = " + std::to_string(ports[i]) +
                 "\n");
    cm[i] = spawn({cara, "master", "--config", cm_conf[i].string()}, log);
  }
  const fs::path ep =
      config("ep", "DAEMON_LIST = MASTER STARTD\nSHARED_PORT_PORT = " + std::to_string(free_port()) +
                       "\nSTART = true\nCLAIM_WORKLIFE = 0\nNUM_CPUS = 4\n");
  const fs::path ap =
      config("ap", "DAEMON_LIST = MASTER SCHEDD\nSHARED_PORT_PORT = " + std::to_string(free_port()) + "\n");
  const pid_t others[2] = {spawn({cara, "master", "--config", ep.string()}, log),
                           spawn({cara, "master", "--config", ap.string()}, log)};
  auto had_log = [&](int i) { return dir.path / ("cm" + std::to_string(i + 1)) / "log/HADLog"; };
  auto negotiator_log = [&](int i) {
    return dir.path / ("cm" + std::to_string(i + 1)) / "log/NegotiatorLog";
  };
  auto stop_all = [&](int sig) {
    for (pid_t p : {cm[0], cm[1], others[0], others[1]})
      if (p > 0) ::kill(p, sig), wait_exit(p);
  };
  auto fail = [&](const std::string& why) {
    out[mode]["error"] = why;
    stop_all(SIGKILL);
    return 1;
  };
  const std::regex active_line("active in term");
  const std::regex matched_line("cycle [0-9]+: .* [1-9][0-9]* matches");
  const Wall::time_point t0 = Wall::now() - std::chrono::seconds(1);
  if (ha &&
      !until([&] { return first_after(had_log(0), active_line, t0).has_value(); }, std::chrono::seconds(60)))
    return fail("the first central manager did not become active");
  // A queue that outlasts the run: each job frees its slot for the next.
  std::vector<std::string> as_user;
  if (::geteuid() == 0) {
    as_user = {"/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"};
    fs::permissions(dir.path, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                  fs::perms::others_read | fs::perms::others_exec);
  }
  std::ofstream(dir.path / "work.sub") << "executable = /bin/sleep\narguments = 0.2\nqueue 20000\n";
  std::vector<std::string> submit = as_user;
  for (std::string a : {std::string("/usr/bin/env"), "CARA_CONFIG=" + ap.string(), cara,
                        std::string("submit"), (dir.path / "work.sub").string()})
    submit.push_back(a);
  if (!until([&] { return wait_exit(spawn(submit, log)) == 0; }, std::chrono::seconds(60)))
    return fail("the access point did not take the jobs");
  if (!until([&] { return first_after(negotiator_log(0), matched_line, t0).has_value(); },
             std::chrono::seconds(60)))
    return fail("nothing was matched");
  // Steady work: the cycles' durations, replication included.
  const Wall::time_point steady = Wall::now();
  std::this_thread::sleep_for(std::chrono::seconds(8));
  const Spread c = spread(cycle_ms(negotiator_log(0), steady));
  out[mode]["cycle_ms"] = {{"min", c.min}, {"median", c.median}, {"max", c.max}};

  std::vector<double> to_active, to_match;
  int active = 0;
  for (int k = 0; ha && k < kills; ++k) {
    const int standby = 1 - active;
    // The standby holds the active one's accountant after the active's
    // next cycle.
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    const Wall::time_point killed = Wall::now();
    ::kill(cm[active], SIGKILL);
    wait_exit(cm[active]);
    std::optional<LogLine> up, first;
    if (!until(
            [&] {
              up = first_after(had_log(standby), active_line, killed);
              first = first_after(negotiator_log(standby), matched_line, killed);
              return up && first;
            },
            std::chrono::seconds(30)))
      return fail("kill " + std::to_string(k + 1) + ": the standby did not take over and match");
    to_active.push_back(std::chrono::duration<double, std::milli>(up->time - killed).count());
    to_match.push_back(std::chrono::duration<double, std::milli>(first->time - killed).count());
    // The killed one comes back as a standby.
    const Wall::time_point restarted = Wall::now();
    cm[active] = spawn({cara, "master", "--config", cm_conf[active].string()}, log);
    // It is a standby again once the active one hears it and the access
    // and execution points joined it again (its collector holds the
    // pool's ads from its peer at once; what a failover needs is that the
    // points reach it).
    const std::regex rejoined("joined the central manager 127\\.0\\.0\\.1:" + std::to_string(ports[active]) +
                              " again");
    if (!until(
            [&] {
              return first_after(had_log(standby), std::regex("is reachable"), restarted).has_value() &&
                     first_after(dir.path / "ap/log/MasterLog", rejoined, restarted).has_value() &&
                     first_after(dir.path / "ep/log/MasterLog", rejoined, restarted).has_value();
            },
            std::chrono::seconds(60)))
      return fail("kill " + std::to_string(k + 1) + ": the killed central manager did not come back");
    active = standby;
  }
  if (kills > 0) {
    const Spread a = spread(to_active), m = spread(to_match);
    out[mode]["kills"] = kills;
    out[mode]["had_connection_timeout_s"] = 1;
    out[mode]["kill_to_active_ms"] = {{"min", a.min}, {"median", a.median}, {"max", a.max}};
    out[mode]["kill_to_first_match_ms"] = {{"min", m.min}, {"median", m.median}, {"max", m.max}};
  }
  stop_all(SIGTERM);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int kills = 20;
  std::string cara = CARA_BINARY;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--kills" && i + 1 < argc) {
      kills = std::max(0, std::atoi(argv[++i]));
    } else if (a == "--cara" && i + 1 < argc) {
      cara = argv[++i];
    } else {
      std::cerr << "usage: failover_bench [--kills N] [--cara PATH]\n";
      return 2;
    }
  }
  nlohmann::json out;
  out["target_kill_to_first_match_ms"] = 2000;
  int rc = 0;
  for (const char* mode : {"sync", "async", "single"})
    rc |= run_pool(mode, std::string(mode) == "sync" ? kills : 0, cara, out);
  std::cout << out.dump() << "\n";
  return rc;
}
