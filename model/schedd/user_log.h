// The job event log a job's `log` command names, in HTCondor's text format
// (the user log of condor_submit; one event per job state change):
//
//   000 (452.000.000) 10/06 13:40:45 Job submitted from host: <...>
//   ...
//
// a three-digit event code, (cluster.proc.subproc) zero-padded to three
// digits, the local date and time, the event's text with continuation
// lines indented by a tab, and "..." ending the event.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/schedd/job_status.h"

namespace cara::schedd {

enum class UserLogCode : int {
  Submit = 0,
  Execute = 1,
  Evicted = 4,
  Terminated = 5,
  Aborted = 9,
  Suspended = 10,
  Unsuspended = 11,
  Held = 12,
  Released = 13,
};

struct UserLogEvent {
  UserLogCode code;
  JobId job;
  std::int64_t time = 0;           // seconds since the epoch
  std::string headline;            // the text on the first line ("Job was held.")
  std::vector<std::string> lines;  // further lines, written after a tab
};

// The event as it appears in the log; `local_offset` is seconds east of UTC.
std::string format_user_log_event(const UserLogEvent& event, std::int32_t local_offset = 0);

}  // namespace cara::schedd
