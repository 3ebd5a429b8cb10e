// cara q and cara history: the local schedd's queue and finished jobs,
// through its Unix socket (condor_q, condor_history; queue_view.h prints
// them).
#include <iostream>

#include "apps/commands/arguments.h"
#include "apps/commands/queue_totals.h"
#include "apps/commands/queue_view.h"
#include "apps/commands/schedd_commands.h"
#include "apps/commands/schedd_link.h"
#include "apps/commands/tool_options.h"
#include "model/classad/parser.h"
#include "model/schedd/schedd_settings.h"

namespace cara::apps {
namespace {

std::vector<classad::ClassAd> ads_of(const nlohmann::json& reply) {
  std::vector<classad::ClassAd> ads;
  for (const std::string& text : reply.value("jobs", std::vector<std::string>{}))
    if (auto ad = classad::parse_classad(text)) ads.push_back(std::move(*ad));
  return ads;
}

int listing(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
            const ToolContext& who, bool history, const RemoteSchedds* remote) {
  const std::string tool = history ? "cara history" : "cara q";
  const char* usage = history ? kHistoryUsage : kQueueUsage;
  if (wants_help(args)) {
    out << usage << kAdOutputUsage;
    return kExitOk;
  }
  auto o = parse_queue_options(args, history);
  if (!o) {
    err << tool << ": " << o.error() << "\n" << usage;
    return kExitUserError;
  }
  auto cfg = tool_config(o->config, "TOOL");
  if (!cfg) {
    err << tool << ": " << cfg.error() << "\n";
    return kExitUserError;
  }
  int rc = kExitOk;
  auto link = schedd_link(*cfg, o->target, remote, tool, err, rc);
  if (!link) return rc;
  // Who "my jobs" are: the name the local schedd gives this process's uid
  // (the kernel's word, as it names the owner of every job submitted
  // here), unless the caller knows it already.
  std::string me = who.user;
  if (me.empty()) {
    auto mine = ask_schedd(*link, {{"command", "whoami"}}, tool, err, rc);
    if (!mine) return rc;
    me = mine->value("user", "");
  }
  nlohmann::json request{{"command", history ? "history" : "q"},
                         {"constraint", queue_constraint(*o, me, history)},
                         {"projection", o->output.projection()}};
  if (history) request["limit"] = o->limit;
  // A table ends with the totals of the asker's jobs and of every job,
  // shown or not: the schedd counts them.
  const bool table = !history && o->output.mode == AdOutput::Mode::Table;
  if (table) request["totals_for"] = me;
  auto reply = ask_schedd(*link, request, tool, err, rc);
  if (!reply) return rc;
  QueueContext context{"", me, who.now, who.offset, {}};
  if (history) {
    out << format_history(*o, ads_of(*reply), context);
    return kExitOk;
  }
  if (table) {
    auto totals = totals_from_json(reply->value("totals", nlohmann::json()));
    if (!totals) {
      err << tool << ": " << totals.error() << "\n";
      return kExitUnreachable;
    }
    context.totals = *totals;
    auto settings = schedd::ScheddSettings::from_config(*cfg);
    context.schedd = o->target.name ? *o->target.name : settings ? settings->name : "?";
  }
  out << format_queue(*o, ads_of(*reply), context);
  return kExitOk;
}

}  // namespace

int run_q(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const ToolContext& who,
          const RemoteSchedds* remote) {
  return listing(args, out, err, who, false, remote);
}

int run_history(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                const ToolContext& who, const RemoteSchedds* remote) {
  return listing(args, out, err, who, true, remote);
}

}  // namespace cara::apps
