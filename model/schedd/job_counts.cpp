#include "model/schedd/job_counts.h"

#include "model/schedd/job_queue.h"
#include "model/schedd/job_status.h"

namespace cara::schedd {

void JobCounts::add(const classad::ClassAd& job) {
  ++total;
  const auto status = job_status(job);
  if (!status) return;
  switch (*status) {
    case JobStatus::Idle: ++idle; break;
    case JobStatus::Running: ++running; break;
    case JobStatus::Removed: ++removed; break;
    case JobStatus::Completed: ++completed; break;
    case JobStatus::Held: ++held; break;
    case JobStatus::Suspended: ++suspended; break;
    case JobStatus::TransferringOutput: break;
  }
}

QueueTotals queue_totals(const JobQueue& queue, std::string_view owner) {
  QueueTotals t;
  for (const auto& [id, job] : queue.jobs()) {
    t.all.add(job);
    if (string_attr(job, "Owner") == owner) t.owner.add(job);
  }
  return t;
}

}  // namespace cara::schedd
