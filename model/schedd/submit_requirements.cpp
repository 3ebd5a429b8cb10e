#include "model/schedd/submit_requirements.h"

#include "model/classad/eval.h"
#include "model/config/config.h"

namespace cara::schedd {
namespace {

// The message of a failed requirement: its _REASON when that gives a
// string, else HTCondor's default naming the requirement.
std::string reason(const SubmitRequirement& r, const classad::ClassAd& schedd_ad, const classad::ClassAd& job,
                   const classad::EvalEnv& env) {
  if (r.reason) {
    const classad::Value v = classad::evaluate(*r.reason, &schedd_ad, &job, env);
    if (v.is_string()) return std::string(v.as_string());
  }
  return "Submit requirement " + r.name + " evaluated to non-true";
}

}  // namespace

Result<std::vector<SubmitRequirement>> load_submit_requirements(const config::Config& config) {
  std::vector<SubmitRequirement> out;
  auto names = config.list("SUBMIT_REQUIREMENT_NAMES");
  if (!names) return Error{names.error()};
  for (const std::string& name : *names) {
    const std::string knob = "SUBMIT_REQUIREMENT_" + name;
    if (!config.defined(knob))
      return Error{"SUBMIT_REQUIREMENT_NAMES lists " + name + " but " + knob + " is not defined"};
    SubmitRequirement r;
    r.name = name;
    auto e = config.expression(knob);
    if (!e) return Error{e.error()};
    r.expr = *e;
    if (config.defined(knob + "_REASON")) {
      auto why = config.expression(knob + "_REASON");
      if (!why) return Error{why.error()};
      r.reason = *why;
    }
    if (config.defined(knob + "_IS_WARNING")) {
      auto w = config.boolean(knob + "_IS_WARNING");
      if (!w) return Error{w.error()};
      r.is_warning = *w;
    }
    out.push_back(std::move(r));
  }
  return out;
}

SubmitVerdict check_submit_requirements(const std::vector<SubmitRequirement>& requirements,
                                        const classad::ClassAd& schedd_ad,
                                        const std::vector<classad::ClassAd>& jobs,
                                        const classad::EvalEnv& env) {
  SubmitVerdict verdict;
  for (const classad::ClassAd& job : jobs) {
    for (const SubmitRequirement& r : requirements) {
      bool ok = false;
      // Undefined and error are failures too: only true admits the job.
      if (classad::evaluate(*r.expr, &schedd_ad, &job, env).bool_equiv(ok) && ok) continue;
      if (r.is_warning) {
        verdict.warning = reason(r, schedd_ad, job, env);
        continue;
      }
      verdict.accepted = false;
      verdict.error = reason(r, schedd_ad, job, env);
      return verdict;
    }
  }
  return verdict;
}

}  // namespace cara::schedd
