#include "model/schedd/job_actions.h"

#include "model/classad/selection.h"
#include "model/schedd/job_claim.h"

namespace cara::schedd {

const char* job_action_name(JobAction a) {
  switch (a) {
    case JobAction::Remove: return "rm";
    case JobAction::Hold: return "hold";
    case JobAction::Release: return "release";
  }
  return "?";
}

Result<JobAction> parse_job_action(std::string_view name) {
  for (JobAction a : {JobAction::Remove, JobAction::Hold, JobAction::Release})
    if (name == job_action_name(a)) return a;
  return Error{"unknown job action '" + std::string(name) + "'; expected rm, hold or release"};
}

bool is_queue_super_user(const std::set<std::string>& super_users, const std::string& user) {
  return super_users.count(user) > 0;
}

namespace {

// HTCondor's default reasons name the tool and the user (condor_rm:
// "via condor_rm (by user alice)").
std::string default_reason(JobAction a, const std::string& user) {
  return std::string("via condor_") + job_action_name(a) + " (by user " + user + ")";
}

}  // namespace

Result<JobActionReport> act_on_jobs(JobQueue& queue, const JobActionRequest& request, std::int64_t now) {
  if (request.constraint.empty())
    return Error{"no jobs named: give a job, a cluster, a user or a constraint"};
  auto selection = classad::Selection::parse(request.constraint, {});
  if (!selection) return Error{selection.error()};
  std::vector<JobId> selected;
  for (const auto& [id, job] : queue.jobs()) {
    // A claim's secret is read by no constraint (as in a query).
    const bool selects = has_private_attributes(job) ? selection->selects(public_view(job), now)
                                                     : selection->selects(job, now);
    if (selects) selected.push_back(id);
  }
  const std::string reason =
      request.reason.empty() ? default_reason(request.action, request.user) : request.reason;
  JobActionReport report;
  for (const JobId& id : selected) {
    const classad::ClassAd* job = queue.find(id);
    if (!request.superuser && string_attr(*job, "Owner") != request.user) {
      if (request.mine_only) continue;
      report.refused.emplace_back(id, "permission denied: it belongs to " + string_attr(*job, "Owner"));
      continue;
    }
    Status s = Ok{};
    switch (request.action) {
      // condor_hold's code 1 (UserRequest), subcode 0.
      case JobAction::Hold: s = queue.hold(id, reason, hold_code::kUserRequest, 0, now); break;
      case JobAction::Release: s = queue.release(id, reason, now); break;
      case JobAction::Remove: s = queue.remove(id, reason, now); break;
    }
    if (s)
      report.done.push_back(id);
    else
      report.refused.emplace_back(id, s.error());
  }
  return report;
}

}  // namespace cara::schedd
