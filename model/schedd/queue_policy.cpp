#include "model/schedd/queue_policy.h"

#include "model/classad/parser.h"
#include "model/config/config.h"
#include "model/config/map_file.h"
#include "model/schedd/job_status.h"

namespace cara::schedd {

classad::ClassAd make_schedd_ad(const config::Config* config, const std::string& name) {
  classad::ClassAd ad;
  ad.set("MyType", "Scheduler");
  ad.set("Name", name);
  if (config != nullptr) {
    // Machine: the node it runs on (its Master ad's Name), where a tool
    // joins it (cara q -name).
    if (auto host = config->string("FULL_HOSTNAME"); host && !host->empty()) ad.set("Machine", *host);
    // SCHEDD_ATTRS: configuration macros published in the schedd's ad.
    if (auto names = config->list("SCHEDD_ATTRS")) {
      for (const std::string& knob : *names) {
        auto text = config->string(knob);
        if (!text) continue;
        if (auto e = classad::parse_expression(*text)) ad.insert(knob, *e);
      }
    }
  }
  return ad;
}

Result<QueuePolicy> QueuePolicy::from_config(const config::Config& config, const std::string& schedd_name) {
  QueuePolicy p;
  auto transforms = load_job_transforms(config);
  if (!transforms) return Error{transforms.error()};
  p.transforms = std::move(*transforms);
  auto requirements = load_submit_requirements(config);
  if (!requirements) return Error{requirements.error()};
  p.requirements = std::move(*requirements);
  auto periodic = PeriodicPolicy::from_config(config);
  if (!periodic) return Error{periodic.error()};
  p.periodic = std::move(*periodic);
  p.schedd_ad = make_schedd_ad(&config, schedd_name);
  p.config = &config;
  auto all = config.boolean("NEGOTIATE_ALL_JOBS_IN_CLUSTER");
  if (!all) return Error{all.error()};
  p.negotiate_all_jobs_in_cluster = *all;
  if (config.defined("SIGNIFICANT_ATTRIBUTES")) {
    auto names = config.list("SIGNIFICANT_ATTRIBUTES");
    if (!names) return Error{names.error()};
    if (!names->empty()) p.significant_attributes = std::move(*names);
  }
  if (!config.host()) return Error{"the schedd's configuration has no host to read its map files from"};
  auto maps = config::load_user_maps(config, *config.host());
  if (!maps) return Error{maps.error()};
  if (!(*maps)->empty()) p.user_maps = std::move(*maps);
  return p;
}

classad::EvalEnv QueuePolicy::eval_env(classad::EvalEnv env) const {
  if (user_maps) env.user_maps = user_maps.get();
  return env;
}

Result<Admission> admit_cluster(const QueuePolicy& policy, std::vector<classad::ClassAd>& jobs,
                                const classad::EvalEnv& given) {
  const classad::EvalEnv env = policy.eval_env(given);
  std::vector<classad::ClassAd> out = jobs;
  for (classad::ClassAd& job : out) {
    const std::string owner = string_attr(job, "Owner");
    // The owner is the user who submitted (the access point took it from
    // the kernel or a certificate): root never, and no transform changes it.
    if (owner == "root")
      return Error{"job " + job_id(job).str() +
                   ": submitting jobs as root is not allowed, for security reasons"};
    if (auto s = apply_job_transforms(policy.transforms, job, policy.config, env); !s)
      return Error{"job " + job_id(job).str() + ": " + s.error()};
    if (string_attr(job, "Owner") != owner)
      return Error{"job " + job_id(job).str() + ": a job transform changed Owner from '" + owner + "' to '" +
                   string_attr(job, "Owner") + "'; the owner is the user who submits"};
  }
  const SubmitVerdict verdict = check_submit_requirements(policy.requirements, policy.schedd_ad, out, env);
  if (!verdict.accepted) return Error{verdict.error};
  jobs = std::move(out);
  return Admission{verdict.warning};
}

}  // namespace cara::schedd
