#include "model/schedd/job_claim.h"

#include "model/classad/eval.h"

namespace cara::schedd {
namespace {

// ClaimId is HTCondor's name (a private attribute of the job ad); the
// slot's name is kept beside it because RemoteHost is set only once the
// job runs, and the claim is recorded before its activation goes out.
constexpr const char* kClaimId = "ClaimId";
constexpr const char* kClaimSlot = "ClaimSlot";

std::optional<std::string> string_of(const classad::ClassAd& ad, const char* name) {
  classad::Value v = classad::evaluate_attr(ad, name);
  if (!v.is_string()) return std::nullopt;
  return std::string(v.as_string());
}

}  // namespace

std::optional<JobClaim> job_claim(const classad::ClassAd& job) {
  auto id = string_of(job, kClaimId);
  auto slot = string_of(job, kClaimSlot);
  if (!id || !slot || id->empty()) return std::nullopt;
  return JobClaim{std::move(*id), std::move(*slot)};
}

void set_job_claim(classad::ClassAd& job, const JobClaim& claim) {
  job.set(kClaimId, claim.claim_id);
  job.set(kClaimSlot, claim.slot);
}

bool clear_job_claim(classad::ClassAd& job) {
  const bool had = job.find(kClaimId) != nullptr;
  job.erase(kClaimId);
  job.erase(kClaimSlot);
  return had;
}

bool has_private_attributes(const classad::ClassAd& job) {
  return job.find(kClaimId) != nullptr;
}

classad::ClassAd public_view(classad::ClassAd job) {
  job.erase(kClaimId);
  return job;
}

std::int64_t job_lease_duration(const classad::ClassAd& job) {
  classad::Value v = classad::evaluate_attr(job, "JobLeaseDuration");
  if (v.is_int()) return v.as_int() > 0 ? v.as_int() : 0;
  if (v.is_real()) return v.as_real() > 0 ? static_cast<std::int64_t>(v.as_real()) : 0;
  return 0;
}

}  // namespace cara::schedd
