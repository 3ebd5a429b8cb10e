#include "model/schedd/job_status.h"

#include "model/classad/eval.h"

namespace cara::schedd {

std::string_view job_status_name(JobStatus s) {
  switch (s) {
    case JobStatus::Idle: return "Idle";
    case JobStatus::Running: return "Running";
    case JobStatus::Removed: return "Removed";
    case JobStatus::Completed: return "Completed";
    case JobStatus::Held: return "Held";
    case JobStatus::TransferringOutput: return "Transferring Output";
    case JobStatus::Suspended: return "Suspended";
  }
  return "Unknown";
}

std::int64_t int_attr(const classad::ClassAd& job, std::string_view name) {
  return int_attr(job, classad::intern(name));
}

std::int64_t int_attr(const classad::ClassAd& job, classad::Symbol name) {
  // Most are integer literals, held in the ad's index: read there.
  const classad::ClassAd::IndexSlot* slot = job.find_slot(name);
  if (slot != nullptr && slot->tag == classad::ClassAd::IndexSlot::Integer) return slot->v.i;
  std::int64_t n = 0;
  if (!classad::evaluate_attr(job, name).number(n)) return 0;
  return n;
}

std::string string_attr(const classad::ClassAd& job, std::string_view name) {
  std::string scratch;
  const std::string_view v = string_attr(job, classad::intern(name), scratch);
  return v.data() == scratch.data() ? std::move(scratch) : std::string(v);
}

std::string_view string_attr(const classad::ClassAd& ad, classad::Symbol name, std::string& scratch) {
  // A literal (most string attributes: Name, Machine, State, Owner) is
  // read straight from its tree, not through a detached Value.
  const classad::Attribute* a = ad.find(name);
  if (a == nullptr || !a->expr) return {};
  if (a->is_literal()) {
    const classad::Value v = a->literal();  // a string's view of the tree
    return v.is_string() ? v.as_string() : std::string_view();
  }
  const classad::Value v = classad::evaluate_attr(ad, classad::symbol_name(name));
  scratch.assign(v.is_string() ? v.as_string() : std::string_view());
  return scratch;
}

std::optional<JobStatus> job_status(const classad::ClassAd& job) {
  // Asked of every job at every change of the queue: the name interned once.
  static const classad::Symbol kJobStatus = classad::intern("JobStatus");
  const std::int64_t s = int_attr(job, kJobStatus);
  if (s < 1 || s > 7) return std::nullopt;
  return static_cast<JobStatus>(s);
}

JobId job_id(const classad::ClassAd& job) {
  static const classad::Symbol kClusterId = classad::intern("ClusterId"), kProcId = classad::intern("ProcId");
  return JobId{int_attr(job, kClusterId), int_attr(job, kProcId)};
}

}  // namespace cara::schedd
