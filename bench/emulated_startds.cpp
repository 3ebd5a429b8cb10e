#include "bench/emulated_startds.h"

#include <signal.h>

#include <atomic>
#include <caf/actor_system.hpp>
#include <caf/send.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <thread>
#include <vector>

#include "actors/startd.h"
#include "actors/system_accounts.h"
#include "apps/commands/pool_client.h"
#include "apps/commands/tool_support.h"
#include "bench/embedded_pool.h"

namespace cara::bench {

std::string emulated_machine(int i, int slots) {
  static const int kMemoryPerCore[] = {2048, 3072, 4096, 2560};
  const int per_core = kMemoryPerCore[i % 4];
  std::string c =
      "FULL_HOSTNAME = ep" + std::to_string(i) + ".scale\nUID_DOMAIN = bench\nFILESYSTEM_DOMAIN = bench\n";
  c += "NUM_CPUS = " + std::to_string(slots) + "\nNUM_SLOTS = " + std::to_string(slots) + "\n";
  c += "MEMORY = " + std::to_string(slots * per_core) + "\n";
  c += "SITE = \"site" + std::to_string(i % 7) + "\"\nRACK = \"rack" + std::to_string(i % 97) + "\"\n";
  c += std::string("HAS_DOCKER = ") + (i % 5 == 0 ? "False" : "True") + "\n";
  c += "KFLOPS = " + std::to_string(900000 + (i * 7919) % 600000) + "\n";
  c += "STARTD_ATTRS = Site, Rack, HasDocker, KFlopsRated\nSite = $(SITE)\nRack = $(RACK)\n"
       "HasDocker = $(HAS_DOCKER)\nKFlopsRated = $(KFLOPS)\n";
  // START and RANK read the job, as a site's do (issue 30): every slot
  // spells them alike, and a fifth of the machines prefer one group.
  c += "START = (TARGET.RequestMemory <= My.Memory) && (TARGET.WantDocker =!= true || My.HasDocker)\n";
  if (i % 5 == 1) c += "RANK = ifThenElse(TARGET.AcctGroup =?= \"group_physics\", 10, 0)\n";
  // Quiet between the bench's phases: the ads go out at once and on every
  // change, and all of them again only every five minutes.
  c += "UPDATE_INTERVAL = 300\n";
  return c;
}

namespace {

// Jobs that start and never end, counted.
class CountingRunner : public actors::JobRunner {
 public:
  Result<std::int64_t> start(const classad::ClassAd&, const startd::RunAs&,
                             std::function<void(actors::ProcessExit)>) override {
    return std::int64_t{++started_};
  }
  void signal(std::int64_t, int) override {}
  int started() const { return started_.load(); }

 private:
  std::atomic<int> started_{0};
};

// Writes `runner`'s count to `path` whenever it changed, every 20 ms,
// until `stop` is set.
void report_started(const CountingRunner& runner, const std::string& path, const std::atomic<bool>& stop) {
  int written = -1;
  while (!stop.load()) {
    const int now = runner.started();
    if (now != written) {
      const std::string tmp = path + ".tmp";
      std::ofstream(tmp) << now << "\n";
      std::rename(tmp.c_str(), path.c_str());
      written = now;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace

int run_emulator(const EmulatorOptions& options) {
  // The stop signals are taken by sigwait below: blocked before the actor
  // system starts its threads, which inherit the mask.
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);

  auto tool = config::config_from_text(options.config, {"TOOL", ""}, std::make_shared<os::SystemHost>());
  if (!tool) {
    std::cerr << "scale_bench emulator: configuration: " << tool.error() << "\n";
    return 1;
  }
  int exit_code = 0;
  auto client = apps::PoolClient::open(*tool, "scale_bench emulator", std::cerr, exit_code);
  if (!client) return exit_code == 0 ? 1 : exit_code;
  auto collector = apps::central_collector(*client);
  if (!collector) {
    std::cerr << "scale_bench emulator: " << collector.error() << "\n";
    return 1;
  }
  auto account = actors::personal_account();
  if (!account) {
    std::cerr << "scale_bench emulator: running as root and there is no user nobody to run jobs as\n";
    return 1;
  }
  auto accounts = std::make_shared<actors::OneAccount>(*account);
  auto runner = std::make_shared<CountingRunner>();
  std::vector<actors::startd_actor> startds;
  for (int i = options.first_machine; i < options.first_machine + options.machines; ++i) {
    actors::StartdSetup s;
    s.config = make_config(emulated_machine(i, options.slots_per_machine), "STARTD");
    s.collectors = {*collector};
    s.runner = runner;
    s.accounts = accounts;
    // Time-dependent policy is not what this bench measures; a tick every
    // 30 s keeps 100,000 slots from loading the machine between phases.
    s.tick_every = std::chrono::seconds(30);
    auto startd = actors::spawn_startd(client->system(), std::move(s));
    if (!startd) {
      std::cerr << "scale_bench emulator: machine " << i << ": " << startd.error() << "\n";
      return 1;
    }
    startds.push_back(*startd);
  }
  std::atomic<bool> done{false};
  std::thread reporter;
  if (!options.started_file.empty())
    reporter = std::thread([&] { report_started(*runner, options.started_file, done); });
  int signal = 0;
  sigwait(&stop, &signal);
  done = true;
  if (reporter.joinable()) reporter.join();
  for (auto& s : startds) caf::anon_send_exit(s, caf::exit_reason::user_shutdown);
  return 0;
}

}  // namespace cara::bench
