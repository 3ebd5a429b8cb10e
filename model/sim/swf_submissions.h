// A Standard Workload Format trace as the submissions its users make
// (issue 29): each job becomes a submit description that the simulator
// hands to the schedd model's own submission path (schedd/submission.h),
// so a replayed job is built, transformed and checked as a real one is.
// User id N becomes the submitter uN; with `groups`, group id G the
// accounting group group_gG. The job's run time from the trace goes into
// the job ad as SimulatedRunTime: how long the simulated execution takes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/schedd/submission.h"
#include "model/sim/swf_trace.h"

namespace cara::sim {

struct SwfMapping {
  bool groups = false;            // group id → accounting group
  std::string user_prefix = "u";  // submitter name: prefix + user id
  std::string group_prefix = "group_g";
  std::string executable = "/bin/true";  // what the job ad names; nothing runs it
  std::string iwd = "/tmp";
};

// One job of the trace, ready to submit at `at` (seconds from the trace's start).
struct TimedSubmission {
  double at = 0;
  std::int64_t swf_id = 0;
  double run_time = 0;
  schedd::Submission submission;
};

struct SwfSubmissions {
  std::vector<TimedSubmission> jobs;
  // Jobs left out, one line each with the reason (a cancelled job that
  // never ran has no run time to replay).
  std::vector<std::string> skipped;
};

SwfSubmissions swf_submissions(const SwfTrace& trace, const SwfMapping& mapping, const std::string& file);

}  // namespace cara::sim
