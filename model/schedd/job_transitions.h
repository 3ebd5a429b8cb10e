// The job state machine: what hold, release, remove, start, suspend,
// evict and complete do to a job ad, and the user log event each writes.
//
//   Idle ──start──▶ Running ──complete──▶ Completed
//    ▲  ◀──evict───  │  ▲ suspend/unsuspend ▼ Suspended
//    │               ▼
//    └──release── Held ◀──hold── (Idle, Running, Suspended)
//   remove: any state but Removed and Completed ──▶ Removed
//
// Leaving Running (or Suspended) adds the run to RemoteWallClockTime and
// moves RemoteHost to LastRemoteHost; every transition sets
// EnteredCurrentStatus and LastJobStatus. A transition the job's state
// does not allow is an error that says so and leaves the ad unchanged.
#pragma once

#include <cstdint>
#include <string>

#include "model/classad/classad.h"
#include "model/common/result.h"
#include "model/schedd/user_log.h"

namespace cara::schedd {

// HoldReasonCode values used here (HTCondor's job hold codes).
namespace hold_code {
inline constexpr int kUserRequest = 1;    // condor_hold
inline constexpr int kJobPolicy = 3;      // the job's own periodic_hold
inline constexpr int kSystemPolicy = 26;  // SYSTEM_PERIODIC_HOLD
}  // namespace hold_code

// The 000 event of a newly queued job (`from` is the schedd's address);
// `warning` is a failed submit warning to record (policy-configuration,
// "Submit Warnings").
UserLogEvent submit_event(const classad::ClassAd& job, const std::string& from, std::int64_t now,
                          const std::string& warning = {});

Result<UserLogEvent> start_job(classad::ClassAd& job, const std::string& host, std::int64_t now);
Result<UserLogEvent> suspend_job(classad::ClassAd& job, std::int64_t now);
Result<UserLogEvent> unsuspend_job(classad::ClassAd& job, std::int64_t now);
// The job lost its slot (preempted, vacated): back to Idle, to run again.
Result<UserLogEvent> evict_job(classad::ClassAd& job, std::int64_t now);

struct JobExit {
  bool by_signal = false;
  int code = 0;  // exit code, or the signal number
};
Result<UserLogEvent> complete_job(classad::ClassAd& job, const JobExit& exit, std::int64_t now);

Result<UserLogEvent> hold_job(classad::ClassAd& job, const std::string& reason, int code, int subcode,
                              std::int64_t now);
Result<UserLogEvent> release_job(classad::ClassAd& job, const std::string& reason, std::int64_t now);
Result<UserLogEvent> remove_job(classad::ClassAd& job, const std::string& reason, std::int64_t now);

}  // namespace cara::schedd
