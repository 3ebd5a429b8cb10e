// cara off, on and restart (condor_off, condor_on, condor_restart): a
// machine's node stops (off without -daemon: condor_off -master), or one
// of its daemons stops, starts again or restarts (-daemon NAME), or every
// daemon restarts (restart without -daemon; the master stays). Each needs
// ADMINISTRATOR on the machine (this one by default).
#include "apps/commands/arguments.h"
#include "apps/commands/node_commands.h"
#include "apps/commands/tool_support.h"

namespace cara::apps {
namespace {

constexpr const char* kOffUsage =
    "usage: cara off [--config FILE] [-graceful|-fast] [-daemon NAME] [MACHINE]\n";
constexpr const char* kOnUsage = "usage: cara on [--config FILE] -daemon NAME [MACHINE]\n";
constexpr const char* kRestartUsage =
    "usage: cara restart [--config FILE] [-graceful|-fast] [-daemon NAME] [MACHINE]\n";

// -graceful / -fast and -daemon NAME taken out of `args`; the rest is
// to_master's (--config, MACHINE).
struct DaemonArgs {
  bool fast = false;
  std::string daemon;
  std::vector<std::string> rest;
};
Result<DaemonArgs> daemon_args(const std::vector<std::string>& args) {
  DaemonArgs d;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (is_flag(a, "graceful") || is_flag(a, "peaceful")) {
      d.fast = false;
    } else if (is_flag(a, "fast")) {
      d.fast = true;
    } else if (is_flag(a, "daemon") || is_flag(a, "subsystem")) {
      if (i + 1 >= args.size()) return Error{a + " expects a daemon of DAEMON_LIST (SCHEDD, STARTD, ...)"};
      d.daemon = args[++i];
    } else {
      d.rest.push_back(a);
    }
  }
  return d;
}

int daemon_command(const char* tool, const char* usage, const char* what,
                   const std::vector<std::string>& args, bool needs_daemon, std::ostream& out,
                   std::ostream& err) {
  if (wants_help(args)) return (out << usage, 0);
  auto d = daemon_args(args);
  if (!d) {
    err << "cara " << tool << ": " << d.error() << "\n" << usage;
    return 1;
  }
  if (needs_daemon && d->daemon.empty()) {
    err << "cara " << tool << ": name the daemon to start: -daemon NAME\n" << usage;
    return 1;
  }
  return to_master(tool, usage, d->rest, actors::DaemonControl{what, d->daemon, d->fast}, what, out, err);
}

}  // namespace

int run_off(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (wants_help(args)) return (out << kOffUsage, 0);
  auto d = daemon_args(args);
  if (!d) {
    err << "cara off: " << d.error() << "\n" << kOffUsage;
    return 1;
  }
  if (!d->daemon.empty()) return daemon_command("off", kOffUsage, "off", args, true, out, err);
  return to_master("off", kOffUsage, d->rest, actors::OffRequest{d->fast}, "off", out, err);
}

int run_on(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  return daemon_command("on", kOnUsage, "on", args, true, out, err);
}

int run_restart(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  return daemon_command("restart", kRestartUsage, "restart", args, false, out, err);
}

}  // namespace cara::apps
