// What both faces of the API (virtual_pool.cpp, pool.cpp) translate alike:
// configuration text into the reader's layers, the pool's own events
// (model/node/pool_event.h) into the public vocabulary, and the priority
// and quota changes each cycle leaves into events.
#pragma once

#include <caracara/pool_types.h>

#include <map>
#include <string>
#include <vector>

#include "model/classad/classad.h"
#include "model/common/result.h"
#include "model/config/config_layers.h"
#include "model/node/pool_event.h"

namespace caracara::detail {

cara::config::TextLayer layer(const ConfigText& c);
// Nothing for empty text.
std::vector<cara::config::TextLayer> layers(const ConfigText& c);

// A job ClassAd (new or old syntax) as the submit description that makes
// `count` such jobs: each attribute `+Name = expression` (condor_submit's
// own way to set any attribute), Cmd as the executable, so that the
// schedd's whole submission path (defaults, transforms, submit
// requirements) applies. The attributes the schedd sets itself (identity,
// status, QDate) are refused rather than silently replaced.
cara::Result<std::string> description_of_ad(const std::string& ad, std::int64_t count);

// The ids of a cluster's `count` jobs ("cluster.proc").
std::vector<std::string> job_ids(std::int64_t cluster, std::int64_t count);

// Counts `job` in what its JobStatus says it is.
void count_job(JobCounts& counts, const cara::classad::ClassAd& job);

Event public_event(const cara::node::PoolEvent& e);

// After each negotiation cycle: the submitters whose effective priority
// and the groups whose effective quota moved since the cycle before.
class CycleChanges {
 public:
  std::vector<Event> after_cycle(std::int64_t time, const std::vector<SubmitterPriority>& priorities,
                                 const std::vector<GroupQuota>& quotas);

 private:
  std::map<std::string, double> eup_, quota_;
};

}  // namespace caracara::detail
