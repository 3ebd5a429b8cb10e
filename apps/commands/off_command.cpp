// cara off: a machine's node stops (condor_off -master).
#include "apps/commands/arguments.h"
#include "apps/commands/node_commands.h"
#include "apps/commands/tool_support.h"

namespace cara::apps {
namespace {

constexpr const char* kOffUsage = "usage: cara off [--config FILE] [-graceful|-fast] [MACHINE]\n";

}  // namespace

int run_off(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (wants_help(args)) return (out << kOffUsage, 0);
  std::vector<std::string> rest;
  bool fast = false;
  for (const std::string& a : args) {
    if (is_flag(a, "graceful"))
      fast = false;
    else if (is_flag(a, "fast"))
      fast = true;
    else
      rest.push_back(a);
  }
  return to_master("off", kOffUsage, rest, actors::OffRequest{fast}, "off", out, err);
}

}  // namespace cara::apps
