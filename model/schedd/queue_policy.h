// The schedd's policy for what enters its queue and what happens to jobs
// there (policy-configuration-ep-ap, "condor_schedd Policy
// Configuration"): job transforms, submit requirements and warnings, and
// the periodic expressions. admit_cluster() is the admission step of
// JobQueue::submit; the whole submission is submission.h.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/eval_env.h"
#include "model/common/result.h"
#include "model/schedd/job_transform.h"
#include "model/schedd/periodic_policy.h"
#include "model/schedd/submit_requirements.h"

namespace cara::config {
class Config;
}

namespace cara::schedd {

struct QueuePolicy {
  std::vector<JobTransform> transforms;
  std::vector<SubmitRequirement> requirements;
  PeriodicPolicy periodic;
  classad::ClassAd schedd_ad;              // MY of the submit requirements
  const config::Config* config = nullptr;  // macros for transforms; may be null
  bool negotiate_all_jobs_in_cluster = false;
  std::optional<std::vector<std::string>> significant_attributes;  // SIGNIFICANT_ATTRIBUTES, when set
  // What userMap() sees in transforms, submit requirements and periodic
  // expressions: CLASSAD_USER_MAP_NAMES and SCHEDD_CLASSAD_USER_MAP_NAMES.
  std::shared_ptr<const classad::UserMaps> user_maps;

  // `env` with this policy's user maps.
  classad::EvalEnv eval_env(classad::EvalEnv env) const;

  // Everything above from a SCHEDD configuration (which must outlive the
  // policy; map files are read from its host); `schedd_name` names the
  // schedd's ad.
  static Result<QueuePolicy> from_config(const config::Config& config, const std::string& schedd_name);
};

// The schedd's own ad as submit requirements see it: MyType "Scheduler",
// Name, and the SCHEDD_ATTRS of the configuration.
classad::ClassAd make_schedd_ad(const config::Config* config, const std::string& name);

struct Admission {
  std::optional<std::string> warning;  // the last failed submit warning
};

// Transforms every job of a cluster, then checks the submit requirements
// against the transformed jobs; a failure rejects the whole cluster (the
// error is the requirement's reason) and leaves `jobs` as they were.
Result<Admission> admit_cluster(const QueuePolicy& policy, std::vector<classad::ClassAd>& jobs,
                                const classad::EvalEnv& env);

}  // namespace cara::schedd
