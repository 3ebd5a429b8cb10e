// cara reconfig: a machine's master reads its configuration again
// (condor_reconfig).
#include "apps/commands/node_commands.h"
#include "apps/commands/tool_support.h"

namespace cara::apps {
namespace {

constexpr const char* kReconfigUsage = "usage: cara reconfig [--config FILE] [MACHINE]\n";

}  // namespace

int run_reconfig(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  return to_master("reconfig", kReconfigUsage, args, actors::ReconfigRequest{}, "reconfig", out, err);
}

}  // namespace cara::apps
