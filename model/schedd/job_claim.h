// The claim a job runs on, kept in the job's ad so that it is stored with
// the job (DESIGN.md "State and durability"): a schedd restarted after a
// crash finds its running jobs' claims there and reconnects to them while
// the execution point keeps the jobs running for their lease
// (JobLeaseDuration), as HTCondor's schedd finds ClaimId and RemoteHost in
// its job queue. The claim id is a secret between the schedd and the slot:
// like HTCondor's private attributes it never leaves the schedd (queries,
// history, the ads it sends), and no constraint can read it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "model/classad/classad.h"

namespace cara::schedd {

struct JobClaim {
  std::string claim_id;
  std::string slot;  // the slot's name as the pool knows it (slot1_1@host)
};

// HTCondor's submit default for job_lease_duration: 40 minutes.
inline constexpr std::int64_t kDefaultJobLease = 2400;

// The claim recorded in `job`, if any.
std::optional<JobClaim> job_claim(const classad::ClassAd& job);
void set_job_claim(classad::ClassAd& job, const JobClaim& claim);
// Whether `job` had a claim recorded.
bool clear_job_claim(classad::ClassAd& job);

// Whether `job` holds attributes that must not leave the schedd.
bool has_private_attributes(const classad::ClassAd& job);
// `job` without them.
classad::ClassAd public_view(classad::ClassAd job);

// JobLeaseDuration in seconds: how long the execution point keeps the job
// running without its schedd. 0 (also when missing or not a number): no
// lease, the job is vacated as soon as the schedd is gone.
std::int64_t job_lease_duration(const classad::ClassAd& job);

}  // namespace cara::schedd
