// The `cara` binary: one entry point for every caracara command. It holds
// the commands a user runs most and that need no actor system (submit, q,
// history, eval, config-val, negotiate) and hands the others (a node, the
// pool's TLS tools, the demo, and the simulator, which allocates as the
// daemons do: CARA_JEMALLOC) to `cara-pool` with the same arguments: a
// process that loads CAF and RocksDB spends about 10 ms relocating their
// symbols before main, which would be most of a `cara submit`.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <optional>

#include "apps/commands/config_val_command.h"
#include "apps/commands/eval_command.h"
#include "apps/commands/negotiate_command.h"
#include "apps/commands/schedd_commands.h"
#include "apps/commands/submit_command.h"
#include "model/config/config_host.h"
#include "os/companion_program.h"
#include "os/heap_tunables.h"
#include "os/system_host.h"

namespace {

// Runs `cara-pool COMMAND ARGS...` in this process's place (same PID: a
// node started as `cara master` is ended by that PID), with the malloc
// tunables of a daemon (os/heap_tunables.h).
int hand_over(int argc, char** argv) {
  const std::string program = cara::os::companion_program("cara-pool", CARA_POOL_INSTALLED);
  ::setenv("GLIBC_TUNABLES", cara::os::daemon_glibc_tunables(std::getenv("GLIBC_TUNABLES")).c_str(), 1);
  std::vector<char*> args;
  args.push_back(const_cast<char*>(program.c_str()));
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  ::execv(program.c_str(), args.data());
  std::cerr << "cara: cannot run " << program << ": " << std::strerror(errno) << "\n";
  return 2;
}

cara::apps::EvalClock wall_clock() {
  std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  return {static_cast<std::int64_t>(now), static_cast<std::int32_t>(local.tm_gmtoff)};
}

// The job commands, which parse their own arguments (HTCondor's
// single-dash options): run before CLI11's table of every command is
// built, which would be a tenth of a `cara submit`'s start
// (bench/RESULTS.md, 2026-11-29). Nothing when `command` is another one.
std::optional<int> run_job_command(const std::string& command, int argc, char** argv) {
  static constexpr const char* kJobCommands[] = {"submit", "q", "history", "rm", "hold", "release"};
  if (std::none_of(std::begin(kJobCommands), std::end(kJobCommands),
                   [&](const char* c) { return command == c; }))
    return std::nullopt;
  const std::vector<std::string> args(argv + 2, argv + argc);
  // -name SCHEDD and -pool CM reach a schedd over TLS, and -better-analyze
  // asks the collector and the negotiator too: an actor system's work.
  for (const std::string& a : args)
    for (const char* remote : {"name", "pool", "better-analyze", "analyze"})
      if (a == std::string("-") + remote || a == std::string("--") + remote) return hand_over(argc, argv);
  if (command == "submit") {
    cara::apps::SubmitEnvironment env;
    if (const char* user = std::getenv("USER")) env.user = user;
    if (env.user.empty()) env.user = "nobody";
    std::error_code ec;
    env.cwd = std::filesystem::current_path(ec).string();
    env.now = static_cast<std::int64_t>(std::time(nullptr));
    env.environment = cara::os::process_environment();
    env.terminal = ::isatty(STDOUT_FILENO) == 1;
    return cara::apps::run_submit(args, std::cout, std::cerr, std::make_shared<cara::os::SystemHost>(), env);
  }
  const cara::apps::EvalClock now = wall_clock();
  // No user name here: the local schedd names this uid (cara q's whoami),
  // so `cara` makes no user database lookup (it links statically).
  const cara::apps::ToolContext who{"", now.now, now.local_offset};
  if (command == "q") return cara::apps::run_q(args, std::cout, std::cerr, who);
  if (command == "history") return cara::apps::run_history(args, std::cout, std::cerr, who);
  using cara::schedd::JobAction;
  const JobAction action = command == "rm"     ? JobAction::Remove
                           : command == "hold" ? JobAction::Hold
                                               : JobAction::Release;
  return cara::apps::run_job_action(action, args, std::cout, std::cerr, who);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1)
    if (auto rc = run_job_command(argv[1], argc, argv)) return *rc;
  CLI::App app{"caracara: an HTCondor-style batch pool as an actor system"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "cara 0.1.0");

  std::vector<std::string> eval_args;
  auto* eval = app.add_subcommand("eval", "Evaluate ClassAd expressions (like condor_classad_eval)");
  // `cara eval` reads its arguments in order (assignments and expressions
  // interleave with -quiet), so they are handed over unparsed.
  eval->prefix_command();
  eval->set_help_flag();
  eval->allow_extras();

  auto* config_val = app.add_subcommand("config-val", "Print configuration values (like condor_config_val)");
  // HTCondor's single-dash long options (-dump, -verbose) are not CLI11's
  // syntax, so the command parses its own arguments.
  config_val->prefix_command();
  config_val->set_help_flag();
  config_val->allow_extras();

  // Listed for --help; run_job_command runs it.
  auto* submit = app.add_subcommand("submit", "Submit jobs to this node's schedd (or -dry-run)");
  submit->prefix_command();
  submit->set_help_flag();
  submit->allow_extras();

  auto* negotiate = app.add_subcommand(
      "negotiate", "Run one negotiation cycle on slot and job ads from files and print it as JSON");
  negotiate->prefix_command();
  negotiate->set_help_flag();
  negotiate->allow_extras();

  auto* sim =
      app.add_subcommand("sim", "Play a scenario on a virtual pool in virtual time (the real models)");
  sim->prefix_command();
  sim->set_help_flag();
  sim->allow_extras();

  auto* demo = app.add_subcommand("demo", "Run a whole pool in one process with the thesis's workload");
  demo->prefix_command();
  demo->set_help_flag();
  demo->allow_extras();

  // Commands that parse their own arguments (HTCondor's single-dash options).
  auto raw = [&app](const char* name, const char* help) {
    auto* c = app.add_subcommand(name, help);
    c->prefix_command();
    c->set_help_flag();
    c->allow_extras();
    return c;
  };
  auto* master = raw("master", "Run a node: the daemons of DAEMON_LIST, over TLS");
  auto* keygen = raw("keygen", "Create the pool CA and certificates signed by it");
  // Listed for --help and the unknown-command message; run_job_command
  // runs them before this table is built.
  raw("q", "List the jobs of this node's schedd (like condor_q)");
  raw("rm", "Remove jobs from this node's schedd (like condor_rm)");
  raw("hold", "Hold jobs: they stay queued and do not run (like condor_hold)");
  raw("release", "Release held jobs (like condor_release)");
  raw("history", "List the jobs this node's schedd finished (like condor_history)");
  auto* userprio = raw("userprio", "Show or change user priorities (like condor_userprio)");
  auto* stats = raw("stats", "The pool's history from the collector (like condor_stats)");
  auto* status = raw("status", "The pool's slots, schedds, submitters, negotiator (like condor_status)");
  auto* drain = raw("drain", "Drain an execution point, or cancel its drain (like condor_drain)");
  auto* reconfig = raw("reconfig", "Have a node read its configuration again (like condor_reconfig)");
  auto* off = raw("off", "Stop a node, gracefully or fast (like condor_off -master)");
  auto* on = raw("on", "Start a daemon that cara off -daemon stopped (like condor_on)");
  auto* restart = raw("restart", "Restart a node's daemons, or one of them (like condor_restart)");
  auto* ping = raw("ping", "What this identity may do on a node (like condor_ping -table)");
  auto* vacate =
      raw("vacate", "End an execution point's claims: its jobs run again elsewhere (like condor_vacate)");

  // An unknown command names itself and the commands there are (CLI11
  // would only say that an argument was not expected).
  const auto commands = app.get_subcommands([](CLI::App*) { return true; });
  if (argc > 1 && argv[1][0] != '-' &&
      std::none_of(commands.begin(), commands.end(), [&](CLI::App* c) { return c->get_name() == argv[1]; })) {
    std::cerr << "cara: unknown command '" << argv[1] << "'; the commands are:";
    for (const CLI::App* c : commands) std::cerr << " " << c->get_name();
    std::cerr << "\n(cara COMMAND -help shows a command's options)\n";
    return 1;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (eval->parsed()) {
    eval_args = eval->remaining();
    return cara::apps::run_eval(eval_args, std::cin, std::cout, std::cerr, wall_clock());
  }
  for (const CLI::App* pool :
       {master, keygen, userprio, stats, status, drain, reconfig, off, on, restart, vacate, ping, demo, sim})
    if (pool->parsed()) return hand_over(argc, argv);
  if (negotiate->parsed()) {
    return cara::apps::run_negotiate(negotiate->remaining(), std::cout, std::cerr,
                                     std::make_shared<cara::os::SystemHost>(),
                                     static_cast<std::int64_t>(std::time(nullptr)));
  }
  if (config_val->parsed()) {
    return cara::apps::run_config_val(config_val->remaining(), std::cout, std::cerr,
                                      std::make_shared<cara::os::SystemHost>());
  }
  return 0;
}
