#include "bench/emulated_startds.h"

#include <signal.h>

#include <caf/actor_system.hpp>
#include <caf/send.hpp>
#include <iostream>
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
  return "FULL_HOSTNAME = ep" + std::to_string(i) +
         ".scale\nUID_DOMAIN = bench\nFILESYSTEM_DOMAIN = bench\n" + "NUM_CPUS = " + std::to_string(slots) +
         "\nNUM_SLOTS = " + std::to_string(slots) + "\nMEMORY = " + std::to_string(slots * per_core) +
         "\nSTART = true\n" + "SITE = \"site" + std::to_string(i % 7) + "\"\nRACK = \"rack" +
         std::to_string(i % 97) + "\"\nHAS_DOCKER = " + (i % 5 == 0 ? "False" : "True") +
         "\nKFLOPS = " + std::to_string(900000 + (i * 7919) % 600000) +
         "\nSTARTD_ATTRS = Site, Rack, HasDocker, KFlopsRated\nSite = $(SITE)\nRack = $(RACK)\n"
         "HasDocker = $(HAS_DOCKER)\nKFlopsRated = $(KFLOPS)\n"
         // Quiet between the bench's phases: the ads go out at once and on
         // every change, and all of them again only every five minutes.
         "UPDATE_INTERVAL = 300\n";
}

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
  auto runner = std::make_shared<HoldRunner>();
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
  int signal = 0;
  sigwait(&stop, &signal);
  for (auto& s : startds) caf::anon_send_exit(s, caf::exit_reason::user_shutdown);
  return 0;
}

}  // namespace cara::bench
