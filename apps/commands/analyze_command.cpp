// cara q -better-analyze JOB (and -analyze): why an idle job does not run
// (condor_q -better-analyze). The job and its submitter's recent starts
// come from the local schedd, the slots from the collector, priorities and
// the last cycle's reasons from the negotiator; the reasoning is
// model/negotiation/job_analysis.h's.
#include <ctime>

#include "apps/commands/arguments.h"
#include "apps/commands/node_commands.h"
#include "apps/commands/queue_view.h"
#include "apps/commands/remote_schedd.h"
#include "apps/commands/schedd_link.h"
#include "apps/commands/tool_options.h"
#include "apps/commands/tool_support.h"
#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/negotiation/job_analysis.h"
#include "model/schedd/job_order.h"
#include "model/schedd/job_status.h"

namespace cara::apps {
namespace {

using namespace std::chrono_literals;

constexpr const char* kAnalyzeUsage =
    "usage: cara q -better-analyze | -analyze  JOB | CLUSTER  [--config FILE] [-name SCHEDD] [-pool CM]\n";

std::vector<classad::ClassAd> ads_of(const nlohmann::json& reply) {
  std::vector<classad::ClassAd> ads;
  for (const std::string& text : reply.value("jobs", std::vector<std::string>{}))
    if (auto ad = classad::parse_classad(text)) ads.push_back(std::move(*ad));
  return ads;
}

// What a job that is not idle is doing, in a sentence.
std::string not_idle(const classad::ClassAd& job, schedd::JobStatus status, std::int32_t offset) {
  const std::string id = schedd::job_id(job).str();
  switch (status) {
    case schedd::JobStatus::Running:
      return "Job " + id + " is running on " + schedd::string_attr(job, "RemoteHost") + " since " +
             short_date(schedd::int_attr(job, "JobCurrentStartDate"), offset) + ".";
    case schedd::JobStatus::Suspended:
      return "Job " + id + " is suspended on " + schedd::string_attr(job, "RemoteHost") +
             " (its slot's SUSPEND policy).";
    case schedd::JobStatus::Held:
      return "Job " + id + " is held: " + schedd::string_attr(job, "HoldReason") + " (code " +
             std::to_string(schedd::int_attr(job, "HoldReasonCode")) + "). `cara release " + id +
             "` lets it run again once that is fixed.";
    default: return "Job " + id + " is " + std::string(schedd::job_status_name(status)) + ".";
  }
}

}  // namespace

int run_analyze(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (wants_help(args)) return (out << kAnalyzeUsage, kExitOk);
  std::optional<std::string> config, target;
  ScheddTarget schedd_at;
  const SharedOptions shared{&config, &schedd_at.pool, nullptr, nullptr, &schedd_at.name};
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (is_flag(a, "better-analyze") || is_flag(a, "analyze")) continue;
    auto common = shared.take(args, i);
    if (!common) {
      err << "cara q: " << common.error() << "\n" << kAnalyzeUsage;
      return kExitUserError;
    }
    if (*common) continue;
    if (a.empty() || a[0] == '-' || target || !(is_job_selector(a) || is_cluster_selector(a))) {
      err << "cara q: -better-analyze takes one job (5.0) or cluster (5), not '" << a << "'\n"
          << kAnalyzeUsage;
      return kExitUserError;
    }
    target = a;
  }
  if (!target) {
    err << "cara q: -better-analyze needs a job: JOB or CLUSTER\n" << kAnalyzeUsage;
    return kExitUserError;
  }
  auto cfg = tool_config(config, "TOOL");
  if (!cfg) {
    err << "cara q: " << cfg.error() << "\n";
    return kExitUserError;
  }
  int rc = kExitOk;
  const RemoteSchedds remote = remote_schedd;
  auto link = schedd_link(*cfg, schedd_at, &remote, "cara q", err, rc);
  if (!link) return rc;
  auto reply =
      ask_schedd(*link, {{"command", "q"}, {"constraint", selector_constraint(*target)}}, "cara q", err, rc);
  if (!reply) return rc;
  std::vector<classad::ClassAd> jobs = ads_of(*reply);
  if (jobs.empty()) {
    err << "cara q: no job " << *target << " in the queue (`cara history " << *target
        << "` lists finished ones)\n";
    return kExitUserError;
  }
  // A cluster: its first idle job, else its first job.
  const classad::ClassAd* job = &jobs.front();
  for (const classad::ClassAd& j : jobs)
    if (schedd::job_status(j) == schedd::JobStatus::Idle) {
      job = &j;
      break;
    }
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  const auto offset = static_cast<std::int32_t>(local.tm_gmtoff);
  const auto status = schedd::job_status(*job);
  if (status != schedd::JobStatus::Idle) {
    out << not_idle(*job, status.value_or(schedd::JobStatus::Idle), offset) << "\n";
    return kExitOk;
  }
  const std::string submitter = schedd::submitter_name(*job);

  // Its place among the submitter's idle jobs, and how fast they started
  // of late (the last hour, queue and history).
  const std::string mine = "User == " + classad::quoted(schedd::string_attr(*job, "User"));
  auto queue = ask_schedd(*link, {{"command", "q"}, {"constraint", mine}}, "cara q", err, rc);
  if (!queue) return rc;
  std::int64_t ahead = 0, started = 0;
  const schedd::JobOrderKey key = schedd::job_order_key(*job);
  auto count_start = [&](const classad::ClassAd& j) {
    if (schedd::int_attr(j, "JobCurrentStartDate") >= static_cast<std::int64_t>(now) - 3600) ++started;
  };
  for (const classad::ClassAd& j : ads_of(*queue)) {
    if (schedd::job_status(j) == schedd::JobStatus::Idle &&
        schedd::offered_before(schedd::job_order_key(j), key))
      ++ahead;
    count_start(j);
  }
  if (auto done = ask_schedd(*link, {{"command", "history"}, {"constraint", mine}, {"limit", 1000}}, "cara q",
                             err, rc))
    for (const classad::ClassAd& j : ads_of(*done)) count_start(j);

  auto client = PoolClient::open(*cfg, "q", err, rc, schedd_at.pool);
  if (!client) return rc;
  caf::actor_system& sys = client->system();
  const auto collector = central_collector(*client);
  if (!collector) {
    err << "cara q: " << collector.error() << "\n";
    return kExitUnreachable;
  }
  caf::scoped_actor self{sys};
  std::vector<classad::ClassAd> slots;
  bool ok = false;
  self->request(*collector, 30s,
                actors::AdQueryRequest{static_cast<std::int32_t>(collector::AdType::Machine), "", {}, false})
      .receive(
          [&](actors::AdQueryReply& r) {
            ok = r.ok;
            if (!r.ok) err << "cara q: " << r.error << "\n";
            for (actors::WireAd& w : r.ads) slots.push_back(std::move(w.ad));
          },
          [&](caf::error& e) { err << "cara q: the collector did not answer: " << sys.render(e) << "\n"; });
  if (!ok) return kExitUnreachable;
  std::map<std::string, double> priorities;
  negotiation::CycleNote cycle;
  if (const auto n = actors::daemon_in<actors::negotiator_actor>(client->central().daemons)) {
    self->request(n, 10s, actors::UserprioQuery{})
        .receive(
            [&](actors::UserprioReply& r) {
              for (const actors::WireAd& a : r.records) {
                double eup = 0;
                if (classad::evaluate_attr(a.ad, "EffectivePriority").number(eup))
                  priorities[schedd::string_attr(a.ad, "Name")] = eup;
              }
              for (const actors::WireAd& s : r.last_cycle) {
                if (schedd::string_attr(s.ad, "Name") != submitter) continue;
                cycle.cycle_time = schedd::int_attr(s.ad, "CycleTime");
                cycle.matched = schedd::int_attr(s.ad, "Matched");
                const classad::Value reasons = classad::evaluate_attr(s.ad, "Rejections");
                if (reasons.is_list())
                  for (const classad::Value& v : reasons.as_list())
                    if (v.is_string()) cycle.reasons.emplace_back(v.as_string());
              }
            },
            [&](caf::error& e) {
              err << "cara q: note: the negotiator did not answer: " << sys.render(e) << "\n";
            });
  }
  const negotiation::JobAnalysis a =
      negotiation::analyze_job(*job, slots, priorities, submitter, static_cast<std::int64_t>(now));
  out << negotiation::format_analysis(schedd::job_id(*job).str(), a, cycle,
                                      negotiation::estimated_wait(ahead, static_cast<double>(started)));
  return kExitOk;
}

}  // namespace cara::apps
