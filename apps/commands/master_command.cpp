// cara master: one node of the pool (apps/node/node.h).
#include "apps/commands/arguments.h"
#include "apps/commands/node_commands.h"
#include "apps/commands/tool_options.h"
#include "apps/commands/tool_support.h"
#include "apps/node/node.h"

namespace cara::apps {
namespace {

constexpr const char* kMasterUsage = "usage: cara master [--config FILE]\n";

}  // namespace

int run_master(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (wants_help(args)) return (out << kMasterUsage, 0);
  auto start = options_only(args, {"config"}, "master", kMasterUsage, "MASTER", err);
  if (!start) return kExitUserError;
  const auto file = option(start->parsed, "config");
  return run_node(
      std::make_shared<const config::Config>(std::move(start->config)),
      [file] { return tool_config(file, "MASTER"); }, err);
}

}  // namespace cara::apps
