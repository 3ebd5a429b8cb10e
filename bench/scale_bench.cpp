// bench/scale_bench: the pool at scale over the network (issue 30, section
// 5). A central manager (`cara master` with a collector and a negotiator)
// and an access point (`cara master` with a schedd) as real processes on
// 127.0.0.1; `--slots` static slots from emulated execution points in
// `--processes` processes of this program (bench/emulated_startds.h: real
// startd actors, jobs that never end), every ad through the collector over
// TLS. Measured:
//   ingest        from the first slot ad in the collector to the last, and
//                 from the emulators' start; the collector's UpdatesTotal
//   cycles        `--jobs` jobs submitted twice: the negotiation cycle of
//                 each submission (every slot idle, then `--jobs` busy) from
//                 the negotiator's log and ad (phases), and the time until
//                 every match's job started on its emulated slot (the
//                 claims travel schedd -> slot over TLS)
//   memory        resident bytes of each process, per emulated slot
// Every wait is bounded; a failure is reported under "error", the
// processes are ended by PID and the exit code is 1.
//
//   scale_bench [--slots N] [--processes P] [--slots-per-machine S] [--jobs J] [--cara PATH]
//   scale_bench --emulate CONFIG FIRST MACHINES SLOTS STARTED_FILE   (one emulator; the bench starts them)
#include <signal.h>
#include <unistd.h>

#include <caf/scoped_actor.hpp>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <regex>

#include "apps/commands/pool_client.h"
#include "apps/commands/tool_support.h"
#include "bench/embedded_pool.h"
#include "bench/emulated_startds.h"
#include "bench/log_lines.h"
#include "bench/node_processes.h"
#include "model/classad/attr_read.h"
#include "tests/support/scratch.h"

namespace {

namespace fs = std::filesystem;
using namespace cara;
using namespace cara::bench;
using cara::scratch::free_port;
using cara::scratch::TempDir;
using namespace std::chrono_literals;

struct Options {
  int slots = 100000;
  int processes = 4;
  int slots_per_machine = 50;
  int jobs = 20000;
  std::string cara = CARA_BINARY;
};

double seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

// The bench's daemons and emulators: started in order, ended by PID in
// reverse.
class Processes {
 public:
  explicit Processes(fs::path log) : log_(std::move(log)) {}
  ~Processes() { stop(); }
  pid_t start(const std::vector<std::string>& args) {
    const pid_t p = spawn(args, log_);
    if (p > 0) pids_.push_back(p);
    return p;
  }
  // SIGTERM, and SIGKILL for one that has not ended 30 s later.
  void stop() {
    for (auto it = pids_.rbegin(); it != pids_.rend(); ++it) ::kill(*it, SIGTERM);
    for (auto it = pids_.rbegin(); it != pids_.rend(); ++it) {
      const pid_t p = *it;
      const bool ended = until([p] { return ::waitpid(p, nullptr, WNOHANG) != 0; }, 30s);
      if (!ended) {
        std::cerr << "scale_bench: process " << p << " did not end within 30 s of SIGTERM; killed\n";
        ::kill(p, SIGKILL), wait_exit(p);
      }
    }
    pids_.clear();
  }
  bool all_running() const {
    for (pid_t p : pids_)
      if (::waitpid(p, nullptr, WNOHANG) != 0) return false;
    return true;
  }

 private:
  fs::path log_;
  std::vector<pid_t> pids_;
};

// Ads of `type` that satisfy `constraint`, with the attributes `projection` names.
std::vector<classad::ClassAd> ads(caf::scoped_actor& self, const actors::collector_actor& c,
                                  collector::AdType type, const std::string& constraint,
                                  std::vector<std::string> projection) {
  std::vector<classad::ClassAd> out;
  self->request(
          c, kWait,
          actors::AdQueryRequest{static_cast<std::int32_t>(type), constraint, std::move(projection), false})
      .receive(
          [&](actors::AdQueryReply& r) {
            for (auto& a : r.ads) out.push_back(std::move(a.ad));
          },
          [](caf::error&) {});
  return out;
}

// The submit description of one of the bench's clusters: `count` jobs of
// group `group`, with memory and requirements varying by `k` so that the
// schedd forms several autoclusters.
std::string cluster(int k, int count) {
  static const char* kGroups[] = {"group_physics", "group_bio", "group_chem"};
  static const char* kRequirements[] = {"TARGET.HasDocker =?= true", "TARGET.Site =!= \"site3\"",
                                        "TARGET.KFlopsRated > 1000000", "true"};
  return "executable = /bin/true\nrequest_cpus = 1\nrequest_memory = " + std::to_string(512 * (1 + k % 4)) +
         "\nrequirements = " + kRequirements[k % 4] + "\naccounting_group = " + kGroups[k % 3] + "\nqueue " +
         std::to_string(count) + "\n";
}

int run(const Options& o, nlohmann::json& out) {
  TempDir dir("scale-bench");
  make_pki(dir.path);
  const int port = free_port();
  const std::string cm_at = "127.0.0.1:" + std::to_string(port);
  const std::string tls = "AUTH_SSL_SERVER_CERTFILE = " + (dir.path / "node.pem").string() +
                          "\nAUTH_SSL_SERVER_KEYFILE = " + (dir.path / "node.key").string() +
                          "\nAUTH_SSL_SERVER_CAFILE = " + (dir.path / "ca/ca.pem").string() +
                          "\nAUTH_SSL_CLIENT_CERTFILE = " + (dir.path / "node.pem").string() +
                          "\nAUTH_SSL_CLIENT_KEYFILE = " + (dir.path / "node.key").string() +
                          "\nAUTH_SSL_CLIENT_CAFILE = " + (dir.path / "ca/ca.pem").string() + "\n";
  auto node = [&](const std::string& name, const std::string& extra) {
    const fs::path conf = dir.path / (name + ".conf");
    std::ofstream(conf) << "CONDOR_HOST = " << cm_at
                        << "\nNETWORK_INTERFACE = 127.0.0.1\nUID_DOMAIN = bench\nFILESYSTEM_DOMAIN = bench\n"
                        << "FULL_HOSTNAME = " << name << ".bench\nLOCAL_DIR = " << (dir.path / name).string()
                        << "\n"
                        << tls << extra;
    return conf;
  };
  // Cycles when the schedd asks (after a submission), not on a timer, so
  // that each measured cycle sees every slot ad.
  const fs::path cm =
      node("cm", "DAEMON_LIST = MASTER COLLECTOR NEGOTIATOR\nSHARED_PORT_PORT = " + std::to_string(port) +
                     "\nNEGOTIATOR_INTERVAL = 3600\nNEGOTIATOR_MIN_INTERVAL = 0\n"
                     "NEGOTIATOR_CYCLE_DELAY = 0\n"
                     "GROUP_NAMES = group_physics, group_bio, group_chem\n"
                     "GROUP_QUOTA_DYNAMIC_group_physics = 0.5\nGROUP_QUOTA_DYNAMIC_group_bio = 0.3\n"
                     "GROUP_QUOTA_DYNAMIC_group_chem = 0.2\nGROUP_ACCEPT_SURPLUS = True\n");
  const fs::path ap =
      node("ap", "DAEMON_LIST = MASTER SCHEDD\nSHARED_PORT_PORT = " + std::to_string(free_port()) + "\n");
  const fs::path tool = dir.path / "tool.conf";
  std::ofstream(tool) << "COLLECTOR_HOST = " << cm_at << "\n" << tls;
  const fs::path log = dir.path / "bench.log";
  Processes procs(log);
  auto fail = [&](const std::string& why) {
    out["error"] = why;
    out["logs"] =
        std::getenv("CARA_KEEP_TEST_DIR") ? dir.path.string() : "set CARA_KEEP_TEST_DIR=1 to keep them";
    return 1;
  };
  const pid_t cm_pid = procs.start({o.cara, "master", "--config", cm.string()});
  const pid_t ap_pid = procs.start({o.cara, "master", "--config", ap.string()});
  if (cm_pid < 0 || ap_pid < 0) return fail("cannot start " + o.cara);

  // The bench's own session with the central manager, as a tool has one.
  auto tool_config =
      config::config_from_text(read_file(tool), {"TOOL", ""}, std::make_shared<os::SystemHost>());
  if (!tool_config) return fail("tool configuration: " + tool_config.error());
  std::unique_ptr<apps::PoolClient> client;
  std::ostringstream join_errors;
  if (!until(
          [&] {
            int code = 0;
            // Its gate answers before its collector runs: until it does,
            // the session is of no use.
            client = apps::PoolClient::open(*tool_config, "scale_bench", join_errors, code);
            if (client && !apps::central_collector(*client)) client.reset();
            return client != nullptr || !procs.all_running();
          },
          60s) ||
      !client)
    return fail("the central manager's collector did not answer: " + join_errors.str());
  auto collector = apps::central_collector(*client);
  caf::scoped_actor self{client->system()};

  // The access point first: a central manager taking 100,000 ads keeps a
  // node that joins meanwhile waiting for seconds (its TLS handshakes time
  // out), which would put the access point's start into what is measured.
  const fs::path schedd_socket = dir.path / "ap/spool/schedd.sock";
  if (!until([&] { return fs::exists(schedd_socket) || !procs.all_running(); }, 60s) || !procs.all_running())
    return fail("the access point did not start");

  // Ingest: the emulators start, each advertises its machines' slots.
  const int machines = o.slots / o.slots_per_machine;
  const int slots = machines * o.slots_per_machine;
  std::vector<pid_t> emulators;
  std::vector<fs::path> started_files;
  const std::string self_exe = fs::read_symlink("/proc/self/exe").string();
  const Clock::time_point spawned = Clock::now();
  for (int p = 0, first = 0; p < o.processes; ++p) {
    const int n = machines / o.processes + (p < machines % o.processes ? 1 : 0);
    started_files.push_back(dir.path / ("emulator" + std::to_string(p) + ".started"));
    emulators.push_back(
        procs.start({self_exe, "--emulate", tool.string(), std::to_string(first), std::to_string(n),
                     std::to_string(o.slots_per_machine), started_files.back().string()}));
    first += n;
  }
  // A machine's slots go out in one update: its last slot stands for it.
  // Each query scans every slot ad in the collector, which is what is
  // measured: asked every 100 ms, not more.
  const std::string last_slot = "SlotID == " + std::to_string(o.slots_per_machine);
  std::optional<Clock::time_point> first_ad;
  if (!until(
          [&] {
            const auto n = ads(self, *collector, collector::AdType::Machine, last_slot, {"Name"}).size();
            if (n > 0 && !first_ad) first_ad = Clock::now();
            return static_cast<int>(n) == machines || !procs.all_running();
          },
          600s, 100ms) ||
      !procs.all_running())
    return fail("the emulated slots did not all reach the collector");
  const Clock::time_point all_in = Clock::now();
  const auto in_collector = ads(self, *collector, collector::AdType::Machine, "", {"Name"}).size();
  if (static_cast<int>(in_collector) != slots)
    return fail("the collector holds " + std::to_string(in_collector) + " slot ads, not " +
                std::to_string(slots));
  out["slots"] = slots;
  out["machines"] = machines;
  out["emulator_processes"] = o.processes;
  out["ingest"] = {{"first_to_last_s", seconds(all_in - *first_ad)},
                   {"start_to_last_s", seconds(all_in - spawned)},
                   {"ads_per_s", slots / seconds(all_in - *first_ad)}};
  std::int64_t emulator_bytes = 0;
  for (pid_t p : emulators) emulator_bytes += resident_bytes_of(p);
  out["memory"] = {
      {"emulator_bytes_per_slot", static_cast<double>(emulator_bytes) / slots},
      {"central_manager_bytes", resident_bytes_of(cm_pid)},
      {"central_manager_bytes_per_slot", static_cast<double>(resident_bytes_of(cm_pid)) / slots}};

  // Two submissions of `jobs` jobs; each one's cycle and claims.
  std::vector<std::string> as_user;
  if (::geteuid() == 0) {
    as_user = {"/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"};
    fs::permissions(dir.path, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                  fs::perms::others_read | fs::perms::others_exec);
  }
  const std::regex cycle_line(
      "cycle ([0-9]+): ([0-9]+) slots, ([0-9]+) submitters with requests, ([1-9][0-9]*) "
      "matches \\(([0-9]+) ms\\)");
  const fs::path negotiator_log = dir.path / "cm/log/NegotiatorLog";
  for (int round = 1; round <= 2; ++round) {
    constexpr int kClusters = 12;
    const fs::path sub = dir.path / ("round" + std::to_string(round) + ".sub");
    {
      std::ofstream f(sub);
      for (int k = 0; k < kClusters; ++k)
        f << cluster(k, o.jobs / kClusters + (k < o.jobs % kClusters ? 1 : 0));
    }
    fs::permissions(sub, fs::perms::others_read, fs::perm_options::add);
    std::vector<std::string> submit = as_user;
    for (std::string a : {std::string("/usr/bin/env"), "CARA_CONFIG=" + ap.string(), o.cara,
                          std::string("submit"), sub.string()})
      submit.push_back(a);
    const Wall::time_point submitted_wall = Wall::now() - 1s;
    const Clock::time_point submitted = Clock::now();
    if (wait_exit(spawn(submit, log)) != 0)
      return fail("round " + std::to_string(round) + ": cara submit failed");
    std::optional<LogLine> cycle;
    if (!until([&] { return (cycle = first_after(negotiator_log, cycle_line, submitted_wall)).has_value(); },
               600s))
      return fail("round " + std::to_string(round) + ": no cycle matched");
    std::smatch m;
    std::regex_search(cycle->text, m, cycle_line);
    const int matches = std::stoi(m[4]);
    // The emulators count the jobs their slots started: the claims are
    // done when every match's job runs.
    const int started_target = (round - 1) * o.jobs + matches;
    int started = 0;
    if (!until(
            [&] {
              started = 0;
              for (const fs::path& f : started_files) {
                int n = 0;
                std::ifstream(f) >> n;
                started += n;
              }
              return started >= started_target;
            },
            600s))
      return fail("round " + std::to_string(round) + ": " + std::to_string(started) + " of " +
                  std::to_string(started_target) + " matched jobs started");
    const Clock::time_point all_started = Clock::now();
    nlohmann::json r = {{"cycle_ms", std::stod(m[5])},
                        {"cycle_slots", std::stoi(m[2])},
                        {"cycle_submitters", std::stoi(m[3])},
                        {"matches", matches},
                        {"submit_to_all_started_s", seconds(all_started - submitted)}};
    auto negotiator = ads(self, *collector, collector::AdType::Negotiator, "", {});
    // The negotiator's ad tells the phases of its last cycle: this one's
    // unless a cycle without matches came after it.
    if (!negotiator.empty() &&
        classad::attr_number(negotiator.front(), "LastNegotiationCycleMatches0") == matches)
      for (int p = 1; p <= 4; ++p)
        r["phase" + std::to_string(p) + "_s"] = classad::attr_number(
            negotiator.front(), "LastNegotiationCyclePhase" + std::to_string(p) + "Duration0");
    out["round" + std::to_string(round)] = r;
  }
  auto collector_ad =
      ads(self, *collector, collector::AdType::Collector, "", {"UpdatesTotal", "UpdatesLost"});
  if (!collector_ad.empty())
    out["collector"] = {{"updates_total", classad::attr_number(collector_ad.front(), "UpdatesTotal")},
                        {"updates_lost", classad::attr_number(collector_ad.front(), "UpdatesLost")}};
  out["memory"]["central_manager_bytes_after"] = resident_bytes_of(cm_pid);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 7 && std::string(argv[1]) == "--emulate") {
    EmulatorOptions e;
    e.config = read_file(argv[2]);
    e.first_machine = std::atoi(argv[3]);
    e.machines = std::atoi(argv[4]);
    e.slots_per_machine = std::atoi(argv[5]);
    e.started_file = argv[6];
    return run_emulator(e);
  }
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&](int& into, int min) {
      if (i + 1 >= argc || (into = std::atoi(argv[++i])) < min) {
        std::cerr << "scale_bench: " << a << " takes a number of at least " << min << "\n";
        std::exit(2);
      }
    };
    if (a == "--slots") {
      next(o.slots, 1);
    } else if (a == "--processes") {
      next(o.processes, 1);
    } else if (a == "--slots-per-machine") {
      next(o.slots_per_machine, 1);
    } else if (a == "--jobs") {
      next(o.jobs, 12);
    } else if (a == "--cara" && i + 1 < argc) {
      o.cara = argv[++i];
    } else {
      std::cerr << "usage: scale_bench [--slots N] [--processes P] [--slots-per-machine S] [--jobs J] "
                   "[--cara PATH]\n";
      return 2;
    }
  }
  if (o.slots < o.slots_per_machine || 2 * o.jobs > o.slots) {
    std::cerr << "scale_bench: --slots must hold one machine and twice --jobs\n";
    return 2;
  }
  nlohmann::json out;
  const int rc = run(o, out);
  std::cout << out.dump() << "\n";
  return rc;
}
