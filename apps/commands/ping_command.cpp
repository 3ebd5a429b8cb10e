// cara ping [-table] [MACHINE] [LEVEL...]: condor_ping. Joins the node's
// master over TLS and asks what this tool's certificate may do there, at
// each permission level (READ, WRITE, ADMINISTRATOR, DAEMON, NEGOTIATOR;
// by default WRITE, as condor_ping). Exit 0 when every level asked for is
// allowed, 1 when one is refused, 2 when the node cannot be reached.
#include <algorithm>
#include <cstdio>

#include "apps/commands/arguments.h"
#include "apps/commands/node_commands.h"
#include "apps/commands/tool_options.h"
#include "apps/commands/tool_support.h"
#include "model/classad/unparse.h"

namespace cara::apps {
namespace {

constexpr const char* kPingUsage =
    "usage: cara ping [--config FILE] [-pool CM] [-table] [MACHINE] [READ | WRITE | ADMINISTRATOR | DAEMON "
    "|\n"
    "                 NEGOTIATOR | ALL ...]\n";

const char* const kLevels[] = {"READ", "WRITE", "ADMINISTRATOR", "DAEMON", "NEGOTIATOR"};

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

int run_ping(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (wants_help(args)) return (out << kPingUsage, kExitOk);
  std::optional<std::string> config, pool, machine;
  const SharedOptions shared{&config, &pool, nullptr, nullptr};
  bool table = false;
  std::vector<std::string> levels;
  for (std::size_t i = 0; i < args.size(); ++i) {
    auto common = shared.take(args, i);
    if (!common) {
      err << "cara ping: " << common.error() << "\n" << kPingUsage;
      return kExitUserError;
    }
    if (*common) continue;
    const std::string& a = args[i];
    const std::string level = upper(a);
    if (is_flag(a, "table")) {
      table = true;
    } else if (!a.empty() && a[0] == '-') {
      err << "cara ping: unknown option " << a << "\n" << kPingUsage;
      return kExitUserError;
    } else if (level == "ALL") {
      levels.assign(std::begin(kLevels), std::end(kLevels));
    } else if (std::find(std::begin(kLevels), std::end(kLevels), level) != std::end(kLevels)) {
      levels.push_back(level);
    } else if (!machine) {
      machine = a;
    } else {
      err << "cara ping: '" << a << "' is neither a machine nor a permission level\n" << kPingUsage;
      return kExitUserError;
    }
  }
  if (levels.empty()) levels = {"WRITE"};
  auto cfg = tool_config(config, "TOOL");
  if (!cfg) {
    err << "cara ping: " << cfg.error() << "\n";
    return kExitUserError;
  }
  if (!machine) {
    auto host = cfg->string("FULL_HOSTNAME");
    if (!host || host->empty()) {
      err << "cara ping: no machine named and FULL_HOSTNAME is not set\n" << kPingUsage;
      return kExitUserError;
    }
    machine = *host;
  }
  int rc = kExitOk;
  auto client = PoolClient::open(*cfg, "ping", err, rc, pool);
  if (!client) return rc;
  auto node = join_advertised(*client, collector::AdType::Master, "Name == " + classad::quoted(*machine),
                              "master " + *machine);
  if (!node) {
    err << "cara ping: " << node.error() << "\n";
    return kExitUnreachable;
  }
  const auto master = actors::daemon_in<actors::master_actor>(node->daemons);
  if (!master) {
    err << "cara ping: " << *machine << " runs no master\n";
    return kExitUnreachable;
  }
  caf::actor_system& sys = client->system();
  caf::scoped_actor self{sys};
  std::optional<actors::PingReply> reply;
  self->request(master, std::chrono::seconds(10), actors::PingRequest{})
      .receive(
          [&](actors::PingReply& r) { reply = std::move(r); },
          [&](caf::error& e) { err << "cara ping: the master did not answer: " << sys.render(e) << "\n"; });
  if (!reply) return kExitUnreachable;
  std::string daemons = "MASTER";
  for (const std::string& d : reply->daemons) daemons += " " + d;
  if (table)
    out << "Destination:  " << *machine << " (" << daemons << ")\n"
        << "  Instruction Authentication Encryption Integrity Decision Identity\n";
  int result = kExitOk;
  for (const std::string& level : levels) {
    const bool ok = std::find(reply->allowed.begin(), reply->allowed.end(), level) != reply->allowed.end();
    if (!ok) result = kExitUserError;
    if (table) {
      char line[256];
      std::snprintf(line, sizeof line, "%13s %14s %10s %9s %8s %s\n", level.c_str(), "SSL", "TLS", "TLS",
                    ok ? "ALLOW" : "DENY", reply->identity.c_str());
      out << line;
    } else {
      out << level << " command using (TLS) " << (ok ? "succeeded" : "failed") << " as " << reply->identity
          << " to " << *machine << " (" << daemons << ").\n";
    }
  }
  return result;
}

}  // namespace cara::apps
