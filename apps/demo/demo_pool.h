// The pool `cara demo` runs: the thesis's reference scenario (RWTH 2018,
// section 6) in one process. Its central manager has the thesis's group
// quotas (figure 20) and NEGOTIATOR_POST_JOB_RANK; its execution points are
// the thesis's worker node (24 + 1 cores: a partitionable slot for the
// groups and a one-core slot for test and short-queue jobs, CLAIM_WORKLIFE
// = 0); its workload is figure 22's submissions, scaled down.
#pragma once

#include <string>
#include <vector>

namespace cara::apps {

std::string demo_central_manager_config();
std::string demo_access_point_config();
std::string demo_execution_point_config(int index);  // FULL_HOSTNAME wn<NN>.demo

// One submission of figure 22: who, in which group, how many jobs.
struct DemoSubmission {
  std::string user, group;
  int jobs = 0;
  std::string extra;  // further submit commands (e.g. +CreamQueue)
};
// Figure 22 with the bulk submissions multiplied by `scale`.
std::vector<DemoSubmission> demo_workload(double scale);

// The group a share is reported under (its top-level group, or <none>).
std::string demo_quota_group(const std::string& accounting_group);
// The configured dynamic quota of a top-level group (figure 20), 0 if none.
double demo_quota(const std::string& group);

}  // namespace cara::apps
