// cara drain: a machine's startd stops taking jobs (condor_drain).
#include "apps/commands/arguments.h"
#include "apps/commands/node_commands.h"
#include "apps/commands/tool_options.h"
#include "apps/commands/tool_support.h"
#include "model/classad/parser.h"

namespace cara::apps {
namespace {

constexpr const char* kDrainUsage =
    "usage: cara drain [--config FILE] [-graceful|-quick|-fast] [-reason TEXT] [-start EXPR]\n"
    "                  [-resume-on-completion] MACHINE\n"
    "       cara drain [--config FILE] -cancel MACHINE\n";

}  // namespace

int run_drain(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (wants_help(args)) return (out << kDrainUsage, 0);
  std::vector<std::string> rest;
  std::int32_t how = 0;
  bool cancel = false, resume = false;
  for (const std::string& a : args) {
    if (is_flag(a, "graceful"))
      how = 0;
    else if (is_flag(a, "quick"))
      how = 1;
    else if (is_flag(a, "fast"))
      how = 2;
    else if (is_flag(a, "cancel"))
      cancel = true;
    else if (is_flag(a, "resume-on-completion"))
      resume = true;
    else
      rest.push_back(a);
  }
  auto p = parse(rest, {"config", "reason", "start"}, "drain", kDrainUsage, err);
  if (!p) return kExitUserError;
  if (p->positional.size() != 1) {
    err << "cara drain: expected one machine name\n" << kDrainUsage;
    return kExitUserError;
  }
  const std::string machine = p->positional.front();
  if (auto start = option(*p, "start")) {
    if (auto e = classad::parse_expression(*start); !e) {
      err << "cara drain: -start " << *start << ": not a ClassAd expression: " << e.error() << "\n";
      return kExitUserError;
    }
  }
  auto cfg = tool_config(option(*p, "config"), "TOOL");
  if (!cfg) {
    err << "cara drain: " << cfg.error() << "\n";
    return kExitUserError;
  }
  int rc = 0;
  auto client = PoolClient::open(*cfg, "drain", err, rc);
  if (!client) return rc;
  caf::actor_system& sys = client->system();
  auto node = join_advertised(*client, collector::AdType::Machine,
                              "Machine == " + classad::unparse(classad::Value::string(machine)),
                              "execution point " + machine);
  if (!node) {
    err << "cara drain: " << node.error() << "\n";
    return 1;
  }
  const auto startd = actors::daemon_in<actors::startd_actor>(node->daemons);
  if (!startd) {
    err << "cara drain: " << machine << " runs no startd\n";
    return 1;
  }
  actors::DrainRequest request{how, cancel, option(*p, "reason").value_or(""),
                               option(*p, "start").value_or(""), resume};
  return send_command(sys, startd, std::move(request), "drain", "startd",
                      (cancel ? "Sent request to cancel draining on " : "Sent request to drain ") + machine,
                      out, err);
}

}  // namespace cara::apps
