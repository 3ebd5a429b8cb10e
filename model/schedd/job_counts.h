// How many jobs are in each status: condor_q's "Total for ..." lines.
// The schedd counts its whole queue itself (queue_totals), so that
// `cara q` of a large queue does not fetch every job's Owner and JobStatus
// to count them (HTCondor's schedd likewise answers condor_q with a
// summary ad after the jobs).
#pragma once

#include <cstdint>
#include <string_view>

#include "model/classad/classad.h"

namespace cara::schedd {

class JobQueue;

struct JobCounts {
  std::int64_t total = 0, completed = 0, removed = 0, idle = 0, running = 0, held = 0, suspended = 0;
  // Counts `job` under its JobStatus (in the total only when it has none
  // of these: transferring output, or none at all).
  void add(const classad::ClassAd& job);
  bool operator==(const JobCounts&) const = default;
};

struct QueueTotals {
  JobCounts owner;  // the jobs whose Owner is the one asked about
  JobCounts all;    // every job in the queue
  bool operator==(const QueueTotals&) const = default;
};

QueueTotals queue_totals(const JobQueue& queue, std::string_view owner);

}  // namespace cara::schedd
