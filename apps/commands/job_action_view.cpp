#include "apps/commands/job_action_view.h"

#include <cctype>

#include "apps/commands/arguments.h"
#include "apps/commands/queue_view.h"
#include "apps/commands/tool_options.h"
#include "model/classad/parser.h"
#include "model/classad/unparse.h"

namespace cara::apps {
namespace {

using schedd::JobAction;

// "marked for removal", "held", "released": HTCondor's past tense.
std::string done_words(JobAction a) {
  switch (a) {
    case JobAction::Remove: return "marked for removal";
    case JobAction::Hold: return "held";
    case JobAction::Release: return "released";
  }
  return "";
}

// "remove", "hold", "release": in "Couldn't find/hold all jobs ...".
std::string verb(JobAction a) {
  return a == JobAction::Remove ? "remove" : schedd::job_action_name(a);
}

std::string whom(const ActionTarget& t) {
  switch (t.kind) {
    case ActionTarget::Kind::Job: return "job " + t.text;
    case ActionTarget::Kind::Cluster: return "all jobs in cluster " + t.text;
    case ActionTarget::Kind::User: return "all jobs of user \"" + t.text + "\"";
    case ActionTarget::Kind::Constraint: return "all jobs matching constraint (" + t.text + ")";
    case ActionTarget::Kind::All: return "all jobs";
  }
  return "";
}

}  // namespace

std::string action_usage(JobAction action) {
  return std::string("usage: cara ") + schedd::job_action_name(action) +
         " [--config FILE] [-name SCHEDD] [-pool CM] [-reason TEXT]\n"
         "       (JOB | CLUSTER | USER ... | -constraint EXPR | -all)\n";
}

Result<ActionArgs> parse_action_args(const std::vector<std::string>& args) {
  ActionArgs a;
  const SharedOptions shared{&a.config, &a.target.pool, nullptr, nullptr, &a.target.name};
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    auto common = shared.take(args, i);
    if (!common) return Error{common.error()};
    if (*common) continue;
    if (is_flag(arg, "all")) {
      a.targets.push_back({ActionTarget::Kind::All, "", "true"});
    } else if (is_flag(arg, "constraint")) {
      auto v = option_value(args, i, "a ClassAd expression");
      if (!v) return Error{v.error()};
      if (auto e = classad::parse_expression(*v); !e) return Error{"-constraint: " + e.error()};
      a.targets.push_back({ActionTarget::Kind::Constraint, *v, *v});
    } else if (is_flag(arg, "reason")) {
      auto v = option_value(args, i, "a reason, in quotes");
      if (!v) return Error{v.error()};
      a.reason = *v;
    } else if (!arg.empty() && arg[0] == '-') {
      return Error{"unknown option " + arg};
    } else {
      const auto kind = is_job_selector(arg)       ? ActionTarget::Kind::Job
                        : is_cluster_selector(arg) ? ActionTarget::Kind::Cluster
                                                   : ActionTarget::Kind::User;
      a.targets.push_back({kind, arg, selector_constraint(arg)});
    }
  }
  if (a.targets.empty())
    return Error{"name the jobs: a job (5.0), a cluster (5), a user, -constraint EXPR or -all"};
  return a;
}

ActionOutcome describe_action(JobAction action, const ActionTarget& target,
                              const std::vector<std::string>& done, const std::vector<std::string>& refused) {
  ActionOutcome o;
  for (const std::string& r : refused) {
    const auto colon = r.find(": ");
    o.failed.push_back("Job " + r.substr(0, colon) + " not " + done_words(action) +
                       (colon == std::string::npos ? "" : ": " + r.substr(colon + 2)));
  }
  if (done.empty() && refused.empty()) {
    o.failed.push_back(target.kind == ActionTarget::Kind::Job
                           ? "Job " + target.text + " not found"
                           : "Couldn't find/" + verb(action) + " " + whom(target) + ": none matched");
    return o;
  }
  if (done.empty()) return o;
  if (target.kind == ActionTarget::Kind::Job) {
    o.said.push_back("Job " + target.text + " " + done_words(action));
    return o;
  }
  std::string w = whom(target);
  w[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(w[0])));
  if (target.kind == ActionTarget::Kind::Constraint) w = "Jobs matching constraint (" + target.text + ")";
  o.said.push_back(w + " have been " + done_words(action) + " (" + std::to_string(done.size()) + " job" +
                   (done.size() == 1 ? "" : "s") + ")");
  return o;
}

}  // namespace cara::apps
