// The ads a schedd sends to the collector, under the attribute names
// HTCondor's condor_schedd publishes (condor_status -schedd / -submitters):
// one Submitter ad per submitter with jobs in the queue, and the schedd's
// own Scheduler ad. The schedd actor only sends what this builds.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "model/classad/classad.h"
#include "model/schedd/job_queue.h"

namespace cara::schedd {

struct ScheddAds {
  std::map<std::string, classad::ClassAd> submitters;  // by submitter name
  classad::ClassAd scheduler;
};

// The ads of `queue` (whose policy's schedd ad, with its SCHEDD_ATTRS,
// starts the Scheduler ad). Submitter ads: MyType "Submitter", Name,
// ScheddName, IdleJobs, RunningJobs (suspended jobs hold their slot and
// count as running), HeldJobs. `known` submitters that have no job left
// keep an ad with zero counts, so that the negotiator sees them go idle.
// Scheduler ad: TotalIdleJobs, TotalRunningJobs, TotalHeldJobs,
// TotalJobAds, NumUsers (submitters with jobs) and JobsCompleted
// (`completed`, since the schedd started).
ScheddAds schedd_ads(const JobQueue& queue, const std::set<std::string>& known, std::int64_t completed);

}  // namespace cara::schedd
