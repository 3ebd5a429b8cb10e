// cara vacate [-fast] MACHINE | SLOT@MACHINE ...: condor_vacate. The
// execution point's claims end and their jobs go back to their queues to
// run again (soft-killed first, or at once with -fast). Needs
// ADMINISTRATOR on the execution point.
#include "apps/commands/arguments.h"
#include "apps/commands/node_commands.h"
#include "apps/commands/tool_options.h"
#include "apps/commands/tool_support.h"
#include "model/classad/unparse.h"

namespace cara::apps {
namespace {

constexpr const char* kVacateUsage =
    "usage: cara vacate [--config FILE] [-pool CM] [-fast] MACHINE | SLOT@MACHINE ...\n";

}  // namespace

int run_vacate(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (wants_help(args)) return (out << kVacateUsage, kExitOk);
  std::optional<std::string> config, pool;
  const SharedOptions shared{&config, &pool, nullptr, nullptr};
  bool fast = false;
  std::vector<std::string> targets;
  for (std::size_t i = 0; i < args.size(); ++i) {
    auto common = shared.take(args, i);
    if (!common) {
      err << "cara vacate: " << common.error() << "\n" << kVacateUsage;
      return kExitUserError;
    }
    if (*common) continue;
    if (is_flag(args[i], "fast") || is_flag(args[i], "graceful")) {
      fast = is_flag(args[i], "fast");
    } else if (!args[i].empty() && args[i][0] == '-') {
      err << "cara vacate: unknown option " << args[i] << "\n" << kVacateUsage;
      return kExitUserError;
    } else {
      targets.push_back(args[i]);
    }
  }
  if (targets.empty()) {
    err << "cara vacate: name a machine or a slot (slot1@machine)\n" << kVacateUsage;
    return kExitUserError;
  }
  auto cfg = tool_config(config, "TOOL");
  if (!cfg) {
    err << "cara vacate: " << cfg.error() << "\n";
    return kExitUserError;
  }
  int rc = kExitOk;
  auto client = PoolClient::open(*cfg, "vacate", err, rc, pool);
  if (!client) return rc;
  int worst = kExitOk;
  for (const std::string& target : targets) {
    // slot1_2@ep.example.org names one slot; ep.example.org the machine.
    const auto at = target.find('@');
    const std::string machine = at == std::string::npos ? target : target.substr(at + 1);
    const std::string slot = at == std::string::npos ? "" : target.substr(0, at);
    auto node = join_advertised(*client, collector::AdType::Machine, "Machine == " + classad::quoted(machine),
                                "execution point " + machine);
    if (!node) {
      err << "cara vacate: " << node.error() << "\n";
      worst = kExitUserError;
      continue;
    }
    const auto startd = actors::daemon_in<actors::startd_actor>(node->daemons);
    if (!startd) {
      err << "cara vacate: " << machine << " runs no startd\n";
      worst = kExitUserError;
      continue;
    }
    const int r = send_command(client->system(), startd, actors::VacateRequest{slot, fast}, "vacate",
                               "startd", "Sent vacate command to " + target, out, err);
    if (r != kExitOk) worst = r;
  }
  return worst;
}

}  // namespace cara::apps
