#include "model/schedd/job_transitions.h"

#include <initializer_list>

#include "model/classad/eval.h"

namespace cara::schedd {
namespace {

double real_attr(const classad::ClassAd& job, std::string_view name) {
  double d = 0;
  return classad::evaluate_attr(job, name).number(d) ? d : 0.0;
}

// Refuses a transition from a state not in `from`.
Status require(const classad::ClassAd& job, std::initializer_list<JobStatus> from, std::string_view what) {
  const auto s = job_status(job);
  for (JobStatus ok : from)
    if (s == ok) return Ok{};
  std::string allowed;
  for (JobStatus ok : from) allowed += (allowed.empty() ? "" : ", ") + std::string(job_status_name(ok));
  return Error{"job " + job_id(job).str() + " is " +
               (s ? std::string(job_status_name(*s)) : "in no known state") + "; " + std::string(what) +
               " applies only to a job that is " + allowed};
}

void enter(classad::ClassAd& job, JobStatus to, std::int64_t now) {
  if (auto s = job_status(job)) job.set("LastJobStatus", static_cast<int>(*s));
  job.set("JobStatus", static_cast<int>(to));
  job.set("EnteredCurrentStatus", now);
}

// Ends the current run, if there is one: wall clock and suspension time
// are accounted, RemoteHost becomes LastRemoteHost.
void end_run(classad::ClassAd& job, std::int64_t now) {
  const auto s = job_status(job);
  if (s != JobStatus::Running && s != JobStatus::Suspended) return;
  if (s == JobStatus::Suspended) {
    job.set("CumulativeSuspensionTime",
            int_attr(job, "CumulativeSuspensionTime") + (now - int_attr(job, "LastSuspensionTime")));
    job.set("LastSuspensionTime", std::int64_t{0});
  }
  const std::int64_t started = int_attr(job, "JobCurrentStartDate");
  job.set("RemoteWallClockTime", real_attr(job, "RemoteWallClockTime") + static_cast<double>(now - started));
  job.set("LastRemoteHost", string_attr(job, "RemoteHost"));
  job.erase("RemoteHost");
}

UserLogEvent event(const classad::ClassAd& job, UserLogCode code, std::int64_t now, std::string headline,
                   std::vector<std::string> lines = {}) {
  return UserLogEvent{code, job_id(job), now, std::move(headline), std::move(lines)};
}

}  // namespace

UserLogEvent submit_event(const classad::ClassAd& job, const std::string& from, std::int64_t now,
                          const std::string& warning) {
  std::vector<std::string> lines;
  if (!warning.empty()) {
    lines.push_back("WARNING: Committed job submission into the queue with the following warning:");
    lines.push_back("WARNING: " + warning);
  }
  return event(job, UserLogCode::Submit, now, "Job submitted from host: " + from, std::move(lines));
}

Result<UserLogEvent> start_job(classad::ClassAd& job, const std::string& host, std::int64_t now) {
  if (auto s = require(job, {JobStatus::Idle}, "starting"); !s) return Error{s.error()};
  job.set("NumJobStarts", int_attr(job, "NumJobStarts") + 1);
  if (!job.find("JobStartDate")) job.set("JobStartDate", now);
  job.set("JobCurrentStartDate", now);
  job.set("RemoteHost", host);
  enter(job, JobStatus::Running, now);
  return event(job, UserLogCode::Execute, now, "Job executing on host: " + host);
}

Result<UserLogEvent> suspend_job(classad::ClassAd& job, std::int64_t now) {
  if (auto s = require(job, {JobStatus::Running}, "suspending"); !s) return Error{s.error()};
  job.set("LastSuspensionTime", now);
  job.set("TotalSuspensions", int_attr(job, "TotalSuspensions") + 1);
  enter(job, JobStatus::Suspended, now);
  return event(job, UserLogCode::Suspended, now, "Job was suspended.");
}

Result<UserLogEvent> unsuspend_job(classad::ClassAd& job, std::int64_t now) {
  if (auto s = require(job, {JobStatus::Suspended}, "unsuspending"); !s) return Error{s.error()};
  job.set("CumulativeSuspensionTime",
          int_attr(job, "CumulativeSuspensionTime") + (now - int_attr(job, "LastSuspensionTime")));
  job.set("LastSuspensionTime", std::int64_t{0});
  enter(job, JobStatus::Running, now);
  return event(job, UserLogCode::Unsuspended, now, "Job was unsuspended.");
}

Result<UserLogEvent> evict_job(classad::ClassAd& job, std::int64_t now) {
  if (auto s = require(job, {JobStatus::Running, JobStatus::Suspended}, "eviction"); !s)
    return Error{s.error()};
  end_run(job, now);
  job.set("LastVacateTime", now);
  enter(job, JobStatus::Idle, now);
  return event(job, UserLogCode::Evicted, now, "Job was evicted.", {"(0) Job was not checkpointed."});
}

Result<UserLogEvent> complete_job(classad::ClassAd& job, const JobExit& exit, std::int64_t now) {
  if (auto s = require(job, {JobStatus::Running, JobStatus::Suspended}, "completion"); !s)
    return Error{s.error()};
  end_run(job, now);
  job.set("ExitBySignal", exit.by_signal);
  if (exit.by_signal) {
    job.set("ExitSignal", exit.code);
    job.erase("ExitCode");
  } else {
    job.set("ExitCode", exit.code);
    job.erase("ExitSignal");
  }
  job.set("CompletionDate", now);
  enter(job, JobStatus::Completed, now);
  return event(job, UserLogCode::Terminated, now, "Job terminated.",
               {exit.by_signal ? "(0) Abnormal termination (signal " + std::to_string(exit.code) + ")"
                               : "(1) Normal termination (return value " + std::to_string(exit.code) + ")"});
}

Result<UserLogEvent> hold_job(classad::ClassAd& job, const std::string& reason, int code, int subcode,
                              std::int64_t now) {
  if (auto s = require(job, {JobStatus::Idle, JobStatus::Running, JobStatus::Suspended}, "hold"); !s)
    return Error{s.error()};
  end_run(job, now);
  job.set("HoldReason", reason);
  job.set("HoldReasonCode", code);
  job.set("HoldReasonSubCode", subcode);
  job.set("NumHolds", int_attr(job, "NumHolds") + 1);
  enter(job, JobStatus::Held, now);
  return event(job, UserLogCode::Held, now, "Job was held.",
               {reason, "Code " + std::to_string(code) + " Subcode " + std::to_string(subcode)});
}

Result<UserLogEvent> release_job(classad::ClassAd& job, const std::string& reason, std::int64_t now) {
  if (auto s = require(job, {JobStatus::Held}, "release"); !s) return Error{s.error()};
  job.set("LastHoldReason", string_attr(job, "HoldReason"));
  job.set("LastHoldReasonCode", int_attr(job, "HoldReasonCode"));
  job.set("LastHoldReasonSubCode", int_attr(job, "HoldReasonSubCode"));
  for (const char* a : {"HoldReason", "HoldReasonCode", "HoldReasonSubCode"}) job.erase(a);
  job.set("ReleaseReason", reason);
  enter(job, JobStatus::Idle, now);
  return event(job, UserLogCode::Released, now, "Job was released.", {reason});
}

Result<UserLogEvent> remove_job(classad::ClassAd& job, const std::string& reason, std::int64_t now) {
  if (auto s = require(job, {JobStatus::Idle, JobStatus::Running, JobStatus::Suspended, JobStatus::Held},
                       "removal");
      !s)
    return Error{s.error()};
  end_run(job, now);
  job.set("RemoveReason", reason);
  enter(job, JobStatus::Removed, now);
  return event(job, UserLogCode::Aborted, now, "Job was aborted.", {reason});
}

}  // namespace cara::schedd
