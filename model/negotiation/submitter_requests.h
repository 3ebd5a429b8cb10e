// From a queue of job ads to the negotiator's input: idle jobs grouped by
// submitter (schedd/job_order.h's submitter_name), in offer order, and
// each submitter's jobs grouped into autoclusters (schedd/autocluster.h),
// each request carrying the ids of its jobs.
#pragma once

#include <vector>

#include "model/classad/classad.h"
#include "model/negotiation/cycle_types.h"
#include "model/schedd/autocluster.h"

namespace cara::negotiation {

// Requests for the idle jobs (JobStatus 1, or none) of `jobs`, which must
// outlive the result. Submitters come in the order their first job
// appears.
std::vector<SubmitterRequests> submitter_requests(const std::vector<classad::ClassAd>& jobs,
                                                  schedd::SignificantAttributes significant);

}  // namespace cara::negotiation
