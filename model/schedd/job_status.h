// A job's identity and status as its ad records them (JobStatus values
// from HTCondor's job ClassAd attributes: 1 Idle, 2 Running, 3 Removed,
// 4 Completed, 5 Held, 6 Transferring Output, 7 Suspended).
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/classad/classad.h"

namespace cara::schedd {

enum class JobStatus : int {
  Idle = 1,
  Running = 2,
  Removed = 3,
  Completed = 4,
  Held = 5,
  TransferringOutput = 6,
  Suspended = 7,
};

std::string_view job_status_name(JobStatus s);

// The status in `job` (nullopt when JobStatus is missing or not 1..7).
std::optional<JobStatus> job_status(const classad::ClassAd& job);

struct JobId {
  std::int64_t cluster = 0;
  std::int64_t proc = 0;
  auto operator<=>(const JobId&) const = default;
  std::string str() const { return std::to_string(cluster) + "." + std::to_string(proc); }
};

// ClusterId and ProcId of `job` (0 when missing).
JobId job_id(const classad::ClassAd& job);

// An integer attribute of `job`, evaluated (0 when missing or not a number).
std::int64_t int_attr(const classad::ClassAd& job, std::string_view name);
std::int64_t int_attr(const classad::ClassAd& job, classad::Symbol name);
// A string attribute of `job`, evaluated (empty when missing or not a string).
std::string string_attr(const classad::ClassAd& job, std::string_view name);
// The same, without a copy: a view of the ad's own text when the attribute
// is a string literal (valid while the ad is neither changed nor freed),
// else of `scratch`, which then holds the evaluated string. By symbol: the
// negotiator reads a handful of names from every slot ad every cycle.
std::string_view string_attr(const classad::ClassAd& ad, classad::Symbol name, std::string& scratch);

}  // namespace cara::schedd
