// Actor-level figures of issue 6 (TARGETS.md). Prints one JSON object:
//   bytes_per_slot_actor            100 k slot actors and their ads, one process
//   bytes_per_slot_actor_ticking    the same after each startd evaluated its slots again
//   collector_updates_per_s_inproc  slot-ad updates into the collector actor
//   collector_updates_per_s_tls     the same from another actor system over TLS
//   pool_matches_per_s_inproc       10 k idle jobs, 10 k slots: submitted -> all running
//   e2e_true_jobs_per_s             N real /bin/true jobs on 256 slots: acknowledged -> the last end stored
//   e2e_true_jobs_per_s_durable     the same, the schedd storing its queue
//   box_true_per_s                  the box's own limit (TARGETS.md): fork + exec + wait of
//                                   /bin/true in a tight loop; with the e2e keys, measured in the
//                                   same run and reported with each one's share of it
//   submits_per_s_16_clients        one-job submissions from 16 clients at once, stored or in memory
//   negotiator_restart_s_10k_submitters  a central manager started on a stored accountant of 10 k
//                                   users: until its first cycle
//   submit_latency_ms_median        separate `cara submit` processes, 100 k jobs queued, stored;
//                                   with the batch rate, the restart time and memory/disk per job;
//                                   each client one fork and one exec, as from a shell, and
//                                   submit_spawn_floor_ms the same for /bin/true (the box's floor)
// Rates are medians of --runs runs. Usage:
//   actor_bench [--runs N] [--cara PATH] [--only KEY]
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/openssl/all.hpp>
#include <caf/scoped_actor.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <thread>

#include "actors/collector.h"
#include "actors/message_types.h"
#include "actors/pool.h"
#include "actors/startd.h"
#include "apps/node/tls_system.h"
#include "bench/embedded_pool.h"
#include "bench/node_processes.h"
#include "bench/timing.h"
#include "model/classad/parser.h"
#include "net/pki.h"
#include "persistence/accountant_store.h"
#include "tests/support/scratch.h"

extern char** environ;

using namespace cara;
using cara::scratch::free_port;
using cara::scratch::TempDir;
using namespace cara::bench;
namespace fs = std::filesystem;

namespace {

std::int64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::int64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * sysconf(_SC_PAGESIZE);
}

// -- bytes_per_slot_actor ---------------------------------------------------

// Bytes per slot right after every ad reached the collector (`quiet`), and
// after each startd evaluated its slots once more without advertising
// (`ticking`): the clock attributes then change (in the machine ad the
// slot ads chain to), while the collector still holds the ads of the last
// update. A running pool spends most of its time in the second state.
struct SlotBytes {
  double quiet = -1, ticking = -1;
};

SlotBytes bytes_per_slot_actor() {
  constexpr int kStartds = 100, kSlots = 1000;
  caf::actor_system_config cfg;
  actors::configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  caf::scoped_actor self{sys};
  actors::CollectorSetup cs;
  cs.policy = *collector::CollectorPolicy::from_config(*make_config("", "COLLECTOR"));
  auto collector = *actors::spawn_collector(sys, std::move(cs));
  std::vector<std::shared_ptr<const config::Config>> configs;
  for (int i = 0; i < kStartds; ++i) configs.push_back(make_config(execution_point(i, kSlots), "STARTD"));
  auto runner = std::make_shared<HoldRunner>();
  const std::int64_t before = resident_bytes();
  std::vector<actors::startd_actor> startds;
  for (int i = 0; i < kStartds; ++i) {
    actors::StartdSetup s;
    s.config = configs[i];
    s.collectors = {collector};
    s.runner = runner;
    s.tick_every = std::chrono::seconds(30);  // the ads once, then quiet
    startds.push_back(*actors::spawn_startd(sys, std::move(s)));
  }
  SlotBytes out;
  if (!await_slots(self, collector, kStartds, kSlots)) return out;
  out.quiet = static_cast<double>(resident_bytes() - before) / (kStartds * kSlots);
  // One evaluation of every slot: a Timer, then a call the startd answers
  // after it (its mailbox is in order), to know the tick is done.
  for (auto& s : startds) self->send(s, actors::Timer{});
  for (auto& s : startds) {
    actors::SlotCall probe;
    probe.slot = "none";
    self->request(s, kWait, std::move(probe)).receive([](const actors::ClaimReply&) {}, [](caf::error&) {});
  }
  out.ticking = static_cast<double>(resident_bytes() - before) / (kStartds * kSlots);
  for (auto& s : startds) self->send_exit(s, caf::exit_reason::user_shutdown);
  self->send_exit(collector, caf::exit_reason::user_shutdown);
  return out;
}

// -- collector ingest ---------------------------------------------------------

// `batches` AdUpdate messages of `per_batch` slot ads each, as startds send them.
std::vector<actors::AdUpdate> slot_updates(int batches, int per_batch) {
  const std::string base = R"([ MyType = "Machine"; OpSys = "LINUX"; Arch = "X86_64"; Cpus = 1; Memory = 2048;
    Disk = 100000000; State = "Unclaimed"; Activity = "Idle"; LoadAvg = 0.02; KeyboardIdle = 3600;
    TotalCpus = 25; TotalMemory = 50000; UidDomain = "bench"; FileSystemDomain = "bench";
    Start = true; Requirements = START; Rank = 0.0; CurrentRank = 0.0; SlotType = "Static";
    IsOwner = false; Mips = 20000; KFlops = 2000000; HasFileTransfer = true; CondorVersion = "cara";
    EnteredCurrentState = 1700000000; EnteredCurrentActivity = 1700000000; MyCurrentTime = 1700000000;
    UpdateSequenceNumber = 1; DaemonStartTime = 1700000000; MachineResources = "Cpus Memory Disk";
    Unhibernate = MY.MachineLastMatchTime =!= undefined; TotalSlots = 25; DetectedCpus = 25;
    DetectedMemory = 50000; JobStarts = 0; RecentJobStarts = 0; StartdIpAddr = "<127.0.0.1:9618>" ])";
  auto ad = classad::parse_classad(base);
  std::vector<actors::AdUpdate> out;
  for (int b = 0; b < batches; ++b) {
    actors::AdUpdate u{static_cast<std::int32_t>(collector::AdType::Machine), {}, {}};
    for (int s = 0; s < per_batch; ++s) {
      classad::ClassAd a = *ad;
      const std::string host = "ep" + std::to_string(b) + ".bench";
      a.set("Name", "slot" + std::to_string(s + 1) + "@" + host);
      a.set("Machine", host);
      a.set("SlotID", s + 1);
      u.ads.push_back(actors::WireAd{std::move(a)});
    }
    out.push_back(std::move(u));
  }
  return out;
}

// Updates per second: `rounds` of every batch, then a query that answers
// once every update before it is in.
double ingest(caf::scoped_actor& self, const actors::collector_actor& c, int rounds) {
  auto updates = slot_updates(100, 100);
  return bench::rate(static_cast<std::int64_t>(rounds) * 100 * 100, [&] {
    for (int r = 0; r < rounds; ++r)
      for (const actors::AdUpdate& u : updates) self->send(c, u);
    count_ads(self, c, collector::AdType::Defrag, "");
  });
}

actors::collector_actor spawn_bench_collector(caf::actor_system& sys) {
  actors::CollectorSetup cs;
  cs.policy = *collector::CollectorPolicy::from_config(*make_config("", "COLLECTOR"));
  return *actors::spawn_collector(sys, std::move(cs));
}

double collector_inproc(int runs) {
  caf::actor_system_config cfg;
  actors::configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  caf::scoped_actor self{sys};
  auto c = spawn_bench_collector(sys);
  std::vector<double> rates;
  for (int i = 0; i < runs; ++i) rates.push_back(ingest(self, c, 20));
  self->send_exit(c, caf::exit_reason::user_shutdown);
  return bench::median(rates);
}

double collector_tls(int runs) {
  TempDir dir("bench");
  make_pki(dir.path);
  const apps::TlsFiles files{(dir.path / "node.pem").string(), (dir.path / "node.key").string(),
                             (dir.path / "ca/ca.pem").string()};
  caf::actor_system_config server_cfg, client_cfg;
  if (!apps::configure_tls_system(server_cfg, files) || !apps::configure_tls_system(client_cfg, files))
    return -1;
  caf::actor_system server{server_cfg}, client{client_cfg};
  auto c = spawn_bench_collector(server);
  auto port = caf::openssl::publish(c, 0, "127.0.0.1", true);
  if (!port) return -1;
  auto remote = caf::openssl::remote_actor<actors::collector_actor>(client, "127.0.0.1", *port);
  if (!remote) return -1;
  caf::scoped_actor self{client};
  std::vector<double> rates;
  for (int i = 0; i < runs; ++i) rates.push_back(ingest(self, *remote, 5));
  caf::anon_send_exit(c, caf::exit_reason::user_shutdown);
  return bench::median(rates);
}

double pool_matches(int runs) {
  constexpr int kStartds = 40, kSlots = 250, kJobs = kStartds * kSlots;
  std::vector<double> rates;
  for (int i = 0; i < runs; ++i) {
    RunningPool p(kStartds, kSlots, std::make_shared<HoldRunner>(), "");
    if (!p.submit("executable = /bin/true\nqueue " + std::to_string(kJobs) + "\n")) return -1;
    const double s = RunningPool::until([&] { return p.jobs("JobStatus == 2") == kJobs; });
    if (s < 0) return -1;
    rates.push_back(kJobs / s);
  }
  return bench::median(rates);
}

double e2e_true_jobs(int runs, int jobs, bool durable) {
  std::vector<double> rates;
  for (int i = 0; i < runs; ++i) {
    RunningPool p(2, 128, process_runner(), "", "", durable);
    if (!p.submit("executable = /bin/true\nqueue " + std::to_string(jobs) + "\n")) return -1;
    // From the acknowledgement to the last job's end on disk (the schedd's
    // report of it, not a poll of the queue every 100 ms).
    const double s = p.until_finished(jobs);
    if (s < 0 || p.jobs("") != 0) return -1;
    rates.push_back(jobs / s);
  }
  return bench::median(rates);
}

// The box's own limit for the end-to-end figure (TARGETS.md): `/bin/true`
// forked, exec'ed and waited for `n` times in a tight loop by a small
// process (the shell: forking from this process, with the actor systems'
// mappings, would understate the box).
double box_true_per_s(int runs, int n) {
  const std::string loop = "i=0; while [ $i -lt " + std::to_string(n) + " ]; do /bin/true; i=$((i+1)); done";
  std::vector<double> rates;
  for (int r = 0; r < runs; ++r) {
    const auto start = bench::Clock::now();
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::execl("/bin/sh", "sh", "-c", loop.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    if (pid < 0) return -1;
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
    rates.push_back(n / std::chrono::duration<double>(bench::Clock::now() - start).count());
  }
  return bench::median(rates);
}

// Acknowledged one-job submissions per second from `clients` clients at
// once (each waits for its answer before the next), into a schedd that
// stores its queue or keeps it in memory: what group commit buys.
double concurrent_submits(int runs, int clients, int each, bool durable) {
  std::vector<double> rates;
  for (int i = 0; i < runs; ++i) {
    RunningPool p(0, 1, std::make_shared<HoldRunner>(), "", "", durable);
    std::atomic<int> acknowledged{0};
    const auto start = bench::Clock::now();
    std::vector<std::thread> threads;
    for (int c = 0; c < clients; ++c)
      threads.emplace_back([&] {
        for (int n = 0; n < each; ++n)
          if (p.submit("executable = /bin/true\nqueue\n")) ++acknowledged;
      });
    for (std::thread& t : threads) t.join();
    const double s = std::chrono::duration<double>(bench::Clock::now() - start).count();
    if (acknowledged != clients * each) return -1;
    rates.push_back(acknowledged / s);
  }
  return bench::median(rates);
}

// -- cara submit as separate processes ----------------------------------------

struct SubmitFigures {
  double median_ms = -1;             // with all the jobs queued
  double median_ms_10k = -1;         // with the first 10 000 queued
  int queued = -1;                   // jobs in the queue after the restart, as `cara q` counts them
  double batch_jobs_per_s = -1;      // `queue 10000` submissions, stored durably
  double restart_s = -1;             // kill -9, start again: until `cara q` answers
  double memory_bytes_per_job = -1;  // the node's resident memory growth per queued job
  double disk_bytes_per_job = -1;    // the store's size per queued job
  double separate_s = -1;            // the separate one-job submissions, back to back
  double spawn_floor_ms = -1;        // the box's own fork + exec + wait of /bin/true, spawned alike
};

std::int64_t bytes_under(const fs::path& dir) {
  std::int64_t total = 0;
  std::error_code ec;
  for (const auto& e : fs::recursive_directory_iterator(dir, ec))
    if (e.is_regular_file(ec)) total += static_cast<std::int64_t>(e.file_size(ec));
  return total;
}

// A `cara master` node with a collector, a negotiator and a schedd that
// stores its queue: `queued` jobs submitted in clusters of 10 000, then
// `submits` one-job submissions timed, then the node killed with kill -9
// and started again.
SubmitFigures submit_figures(const std::string& cara, int submits, int queued, int separate) {
  TempDir dir("bench");
  make_pki(dir.path);
  const fs::path conf = dir.path / "node.conf";
  std::ofstream(conf) << "DAEMON_LIST = MASTER COLLECTOR NEGOTIATOR SCHEDD\nCONDOR_HOST = 127.0.0.1:"
                      << free_port() << "\nNETWORK_INTERFACE = 127.0.0.1\nFULL_HOSTNAME = ap.bench\n"
                      << "UID_DOMAIN = bench\nLOCAL_DIR = " << (dir.path / "node").string()
                      << "\nAUTH_SSL_SERVER_CERTFILE = " << (dir.path / "node.pem").string()
                      << "\nAUTH_SSL_SERVER_KEYFILE = " << (dir.path / "node.key").string()
                      << "\nAUTH_SSL_SERVER_CAFILE = " << (dir.path / "ca/ca.pem").string() << "\n";
  const fs::path log = dir.path / "bench.log";
  pid_t master = spawn({cara, "master", "--config", conf.string()}, log);
  if (master < 0) return {};
  // Users submit, never root (the schedd refuses root): as root, the bench
  // submits as nobody. Each client is one fork and one exec, as from a
  // user's shell.
  const RunAs user = RunAs::unprivileged();
  if (user.switch_user)
    fs::permissions(dir.path, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                  fs::perms::others_read | fs::perms::others_exec);
  const std::vector<std::string> env{"CARA_CONFIG=" + conf.string()};
  auto run = [&](const fs::path& sub) {
    return wait_exit(spawn_as({cara, "submit", sub.string()}, log, env, user));
  };
  auto answers = [&] {
    return wait_exit(spawn_as({cara, "q", "-constraint", "false"}, log, env, user)) == 0;
  };
  SubmitFigures result;
  std::ofstream(dir.path / "many.sub") << "executable = /bin/true\nqueue 10000\n";
  std::ofstream(dir.path / "one.sub") << "executable = /bin/true\nqueue\n";
  // The node is ready when its schedd answers.
  if (RunningPool::until(answers) >= 0) {
    auto latency = [&]() -> double {
      std::vector<double> ms;
      for (int i = 0; i < submits; ++i) {
        const auto t0 = bench::Clock::now();
        if (run(dir.path / "one.sub") != 0) return -1;
        ms.push_back(std::chrono::duration<double, std::milli>(bench::Clock::now() - t0).count());
      }
      return bench::median(ms);
    };
    // The floor under every figure above: a process that does nothing,
    // started and awaited the same way.
    auto floor = [&] {
      std::vector<double> ms;
      for (int i = 0; i < std::max(submits, 30); ++i) {
        const auto t0 = bench::Clock::now();
        if (wait_exit(spawn_as({"/bin/true"}, log, env, user)) != 0) return -1.0;
        ms.push_back(std::chrono::duration<double, std::milli>(bench::Clock::now() - t0).count());
      }
      return bench::median(ms);
    };
    result.spawn_floor_ms = floor();
    const std::int64_t rss_before = resident_bytes_of(master);
    double batch_s = 0;
    bool ok = true;
    for (int n = 0; ok && n < queued / 10000; ++n) {
      const auto t0 = bench::Clock::now();
      ok = run(dir.path / "many.sub") == 0;
      batch_s += std::chrono::duration<double>(bench::Clock::now() - t0).count();
      if (ok && n == 0) result.median_ms_10k = latency();
    }
    if (ok) {
      result.batch_jobs_per_s = queued / batch_s;
      result.memory_bytes_per_job = static_cast<double>(resident_bytes_of(master) - rss_before) / queued;
      result.median_ms = latency();
      // `separate` more one-job submissions, one process each, back to back.
      const auto t0 = bench::Clock::now();
      int done = 0;
      while (done < separate && run(dir.path / "one.sub") == 0) ++done;
      if (separate > 0 && done == separate)
        result.separate_s = std::chrono::duration<double>(bench::Clock::now() - t0).count();
      result.disk_bytes_per_job = static_cast<double>(bytes_under(dir.path / "node/spool/job_queue.db")) /
                                  (queued + 2 * submits + done);
    }
    ::kill(master, SIGKILL);
    wait_exit(master);
    master = spawn({cara, "master", "--config", conf.string()}, log);
    // Asked every 10 ms (a `cara q` that finds no schedd yet ends at once):
    // the figure is seconds, not tenths.
    result.restart_s = RunningPool::until(answers, std::chrono::milliseconds(10));
    // The schedd's own count of what it read back (`cara q` of 100 k
    // jobs is larger than the local socket takes).
    std::ifstream sched_log(dir.path / "node/log/SchedLog");
    const std::regex read_back(R"(queue read from .*: (\d+) jobs)");
    std::smatch m;
    for (std::string line; std::getline(sched_log, line);)
      if (std::regex_search(line, m, read_back)) result.queued = std::stoi(m[1]);
  }
  ::kill(master, SIGTERM);
  wait_exit(master);
  return result;
}

// A central manager whose accountant store holds `submitters` users'
// records (as a long-running pool's would), started: seconds until its
// negotiator's first cycle, which runs with the restored priorities.
double negotiator_restart_s(const std::string& cara, int submitters) {
  TempDir dir("bench");
  make_pki(dir.path);
  const fs::path conf = dir.path / "cm.conf";
  std::ofstream(conf) << "DAEMON_LIST = MASTER COLLECTOR NEGOTIATOR\nCONDOR_HOST = 127.0.0.1:" << free_port()
                      << "\nNETWORK_INTERFACE = 127.0.0.1\nFULL_HOSTNAME = cm.bench\nUID_DOMAIN = bench\n"
                      << "LOCAL_DIR = " << (dir.path / "node").string()
                      << "\nAUTH_SSL_SERVER_CERTFILE = " << (dir.path / "node.pem").string()
                      << "\nAUTH_SSL_SERVER_KEYFILE = " << (dir.path / "node.key").string()
                      << "\nAUTH_SSL_SERVER_CAFILE = " << (dir.path / "ca/ca.pem").string() << "\n";
  {
    auto store = persistence::AccountantStore::open((dir.path / "node/spool/accountant.db").string());
    if (!store) return -1;
    accounting::AccountantState state;
    state.last_update =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    for (int i = 0; i < submitters; ++i) {
      accounting::CustomerRecord r;
      r.name = "user" + std::to_string(i) + "@bench";
      r.priority = 0.5 + i;
      r.factor = 1000;
      r.accumulated_usage = 3600.0 * i;
      state.records.push_back(std::move(r));
    }
    if (!store->commit(state)) return -1;
  }
  const fs::path log = dir.path / "bench.log";
  const fs::path negotiator_log = dir.path / "node/log/NegotiatorLog";
  const auto start = bench::Clock::now();
  const pid_t master = spawn({cara, "master", "--config", conf.string()}, log);
  if (master < 0) return -1;
  auto first_cycle = [&] {
    std::ifstream in(negotiator_log);
    std::stringstream text;
    text << in.rdbuf();
    return text.str().find("cycle 1:") != std::string::npos;
  };
  double s = -1;
  while (std::chrono::duration<double>(bench::Clock::now() - start).count() < 120) {
    if (first_cycle()) {
      s = std::chrono::duration<double>(bench::Clock::now() - start).count();
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ::kill(master, SIGTERM);
  wait_exit(master);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 3;
  std::string cara = CARA_BINARY, only;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--cara" && i + 1 < argc) {
      cara = argv[++i];
    } else if (a == "--only" && i + 1 < argc) {
      only = argv[++i];
    } else {
      std::cerr << "usage: actor_bench [--runs N] [--cara PATH] [--only KEY]\n";
      return 2;
    }
  }
  signal(SIGPIPE, SIG_IGN);
  auto wanted = [&](const char* key) { return only.empty() || only == key; };
  nlohmann::json out;
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  out["machine"] = std::string(host) + ", " + std::to_string(std::thread::hardware_concurrency()) + " cpus";
  out["runs"] = runs;
  // Memory first, in a process nothing else has grown yet.
  if (wanted("bytes_per_slot_actor")) {
    const SlotBytes b = bytes_per_slot_actor();
    out["bytes_per_slot_actor"] = b.quiet;
    out["bytes_per_slot_actor_ticking"] = b.ticking;
  }
  if (wanted("collector_updates_per_s_inproc"))
    out["collector_updates_per_s_inproc"] = collector_inproc(runs);
  if (wanted("collector_updates_per_s_tls")) out["collector_updates_per_s_tls"] = collector_tls(runs);
  if (wanted("pool_matches_per_s_inproc")) out["pool_matches_per_s_inproc"] = pool_matches(runs);
  const bool e2e = wanted("e2e_true_jobs_per_s") || wanted("e2e_true_jobs_per_s_durable");
  const double box = e2e || wanted("box_true_per_s") ? box_true_per_s(runs, 2000) : 0;
  if (box > 0) out["box_true_per_s"] = box;
  if (wanted("e2e_true_jobs_per_s")) {
    out["e2e_true_jobs_per_s"] = e2e_true_jobs(runs, 2000, false);
    out["e2e_jobs"] = 2000;
    if (box > 0) out["e2e_share_of_box"] = out["e2e_true_jobs_per_s"].get<double>() / box;
  }
  if (wanted("e2e_true_jobs_per_s_durable")) {
    out["e2e_true_jobs_per_s_durable"] = e2e_true_jobs(runs, 2000, true);
    if (box > 0) out["e2e_share_of_box_durable"] = out["e2e_true_jobs_per_s_durable"].get<double>() / box;
  }
  if (wanted("submits_per_s_16_clients")) {
    out["submits_per_s_16_clients_durable"] = concurrent_submits(runs, 16, 250, true);
    out["submits_per_s_16_clients_memory"] = concurrent_submits(runs, 16, 250, false);
  }
  if (wanted("separate_submits_s_10k")) {
    // 10 k `cara submit` processes one after another, 100 k jobs queued.
    const SubmitFigures f = submit_figures(cara, 1, 100000, 10000);
    out["separate_submits_s_10k"] = f.separate_s;
    out["separate_submits_spawn_floor_s_10k"] = f.spawn_floor_ms * 10;  // 10 k × the floor, in s
  }
  if (wanted("negotiator_restart_s_10k_submitters")) {
    std::vector<double> s;
    for (int i = 0; i < runs; ++i) s.push_back(negotiator_restart_s(cara, 10000));
    out["negotiator_restart_s_10k_submitters"] = bench::median(s);
  }
  if (wanted("submit_latency_ms_median")) {
    const SubmitFigures f = submit_figures(cara, 30, 100000, 0);
    out["submit_latency_ms_median"] = f.median_ms_10k;
    out["submit_latency_ms_median_100k_queued"] = f.median_ms;
    out["submit_spawn_floor_ms"] = f.spawn_floor_ms;
    out["submit_durable"] = true;  // acknowledged once on disk (synced)
    out["submit_queued_jobs"] = f.queued;
    out["submit_batch_jobs_per_s_durable"] = f.batch_jobs_per_s;
    out["schedd_restart_s_100k_jobs"] = f.restart_s;
    out["memory_bytes_per_queued_job"] = f.memory_bytes_per_job;
    out["disk_bytes_per_queued_job"] = f.disk_bytes_per_job;
  }
  std::cout << out.dump() << "\n";
  return 0;
}
