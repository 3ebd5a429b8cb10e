// `cara-pool`: the commands of `cara` that run an actor system (a node,
// the pool's TLS tools, the demo), and the simulator, which allocates as
// the daemons do (CARA_JEMALLOC). `cara` hands them over with their
// arguments (apps/main.cpp); run on its own it takes the same form,
// `cara-pool COMMAND ARGS...`.
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "apps/commands/demo_command.h"
#include "apps/commands/node_commands.h"
#include "apps/commands/sim_command.h"
#include "os/system_host.h"

namespace {

using Command = int (*)(const std::vector<std::string>&, std::ostream&, std::ostream&);

int run_sim(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  cara::apps::SimEnvironment env;
  env.host = std::make_shared<cara::os::SystemHost>();
  env.wall_seconds = [] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  };
  env.terminal = ::isatty(STDERR_FILENO) == 1;
  return cara::apps::run_sim(args, out, err, env);
}

const std::map<std::string, Command>& commands() {
  static const std::map<std::string, Command> all{
      {"master", cara::apps::run_master},
      {"keygen", cara::apps::run_keygen},
      {"userprio", cara::apps::run_userprio},
      {"stats", cara::apps::run_stats},
      {"status", cara::apps::run_status},
      {"drain", cara::apps::run_drain},
      {"reconfig", cara::apps::run_reconfig},
      {"off", cara::apps::run_off},
      {"demo", cara::apps::run_demo},
      {"q", cara::apps::run_pool_q},
      {"history", cara::apps::run_pool_history},
      {"rm", cara::apps::run_pool_rm},
      {"hold", cara::apps::run_pool_hold},
      {"release", cara::apps::run_pool_release},
      {"submit", cara::apps::run_pool_submit},
      {"vacate", cara::apps::run_vacate},
      {"ping", cara::apps::run_ping},
      {"on", cara::apps::run_on},
      {"restart", cara::apps::run_restart},
      {"sim", run_sim},
  };
  return all;
}

}  // namespace

int main(int argc, char** argv) {
  const auto& all = commands();
  auto it = argc > 1 ? all.find(argv[1]) : all.end();
  if (it == all.end()) {
    std::cerr << "cara-pool: " << (argc > 1 ? "unknown command '" + std::string(argv[1]) + "'" : "no command")
              << "; expected one of:";
    for (const auto& [name, run] : all) std::cerr << " " << name;
    std::cerr << " (run through `cara`)\n";
    return 2;
  }
  const std::vector<std::string> args(argv + 2, argv + argc);
  return it->second(args, std::cout, std::cerr);
}
