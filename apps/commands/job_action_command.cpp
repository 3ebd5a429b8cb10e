// cara rm, hold and release: each target the command line names is one
// request to the local schedd, which changes the jobs and stores them
// before it answers (job_action_view.h words the answer).
#include <ostream>

#include "apps/commands/arguments.h"
#include "apps/commands/job_action_view.h"
#include "apps/commands/schedd_commands.h"
#include "apps/commands/schedd_link.h"
#include "apps/commands/tool_options.h"

namespace cara::apps {

int run_job_action(schedd::JobAction action, const std::vector<std::string>& args, std::ostream& out,
                   std::ostream& err, const ToolContext&, const RemoteSchedds* remote) {
  const std::string tool = std::string("cara ") + schedd::job_action_name(action);
  if (wants_help(args)) {
    out << action_usage(action);
    return kExitOk;
  }
  auto parsed = parse_action_args(args);
  if (!parsed) {
    err << tool << ": " << parsed.error() << "\n" << action_usage(action);
    return kExitUserError;
  }
  auto cfg = tool_config(parsed->config, "TOOL");
  if (!cfg) {
    err << tool << ": " << cfg.error() << "\n";
    return kExitUserError;
  }
  int rc = kExitOk;
  auto link = schedd_link(*cfg, parsed->target, remote, tool, err, rc);
  if (!link) return rc;
  for (const ActionTarget& target : parsed->targets) {
    const nlohmann::json request{{"command", "act"},
                                 {"action", schedd::job_action_name(action)},
                                 {"constraint", target.constraint},
                                 {"reason", parsed->reason},
                                 {"mine_only", target.kind == ActionTarget::Kind::All}};
    int call_rc = kExitOk;
    auto reply = ask_schedd(*link, request, tool, err, call_rc);
    if (!reply) {
      if (call_rc == kExitUnreachable) return call_rc;  // the others would not reach it either
      rc = call_rc;
      continue;
    }
    const ActionOutcome o = describe_action(action, target, reply->value("done", std::vector<std::string>{}),
                                            reply->value("refused", std::vector<std::string>{}));
    for (const std::string& line : o.said) out << line << "\n";
    for (const std::string& line : o.failed) err << line << "\n";
    if (!o.failed.empty()) rc = kExitUserError;
  }
  return rc;
}

}  // namespace cara::apps
