#include "model/schedd/periodic_policy.h"

#include <optional>

#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/classad/unparse.h"
#include "model/config/config.h"
#include "model/schedd/job_status.h"
#include "model/schedd/job_transitions.h"

namespace cara::schedd {
namespace {

bool fires(const classad::ExprTree* e, const classad::ClassAd& job, const classad::EvalEnv& env) {
  bool b = false;
  return e != nullptr && classad::evaluate(*e, &job, nullptr, env).bool_equiv(b) && b;
}

std::string string_of(const classad::ExprTree* e, const classad::ClassAd& job, const classad::EvalEnv& env) {
  if (e == nullptr) return {};
  const classad::Value v = classad::evaluate(*e, &job, nullptr, env);
  return v.is_string() ? std::string(v.as_string()) : std::string();
}

int int_of(const classad::ExprTree* e, const classad::ClassAd& job, const classad::EvalEnv& env) {
  std::int64_t n = 0;
  if (e == nullptr || !classad::evaluate(*e, &job, nullptr, env).number(n)) return 0;
  return static_cast<int>(n);
}

// The job's own expression `attr` (PeriodicHold, ...): the verdict when it
// is true. Its reason and subcode come from the job's `<attr>Reason` and
// `<attr>SubCode` when they give a value.
std::optional<PeriodicVerdict> job_verdict(const classad::ClassAd& job, const std::string& attr,
                                           PeriodicAction action, int code, const classad::EvalEnv& env) {
  const classad::Attribute* a = job.find(attr);
  if (a == nullptr || !a->expr || !fires(a->expr.get(), job, env)) return std::nullopt;
  const classad::Attribute* why = job.find(attr + "Reason");
  const classad::Attribute* sub = job.find(attr + "SubCode");
  std::string reason = why ? string_of(why->expr.get(), job, env) : std::string();
  if (reason.empty())
    reason =
        "The job attribute " + attr + " expression '" + classad::unparse(*a->expr) + "' evaluated to TRUE";
  return PeriodicVerdict{action, reason, code, sub ? int_of(sub->expr.get(), job, env) : 0};
}

// A SYSTEM_PERIODIC_<X> knob: the verdict when it is true.
std::optional<PeriodicVerdict> system_verdict(const classad::ExprPtr& expr,
                                              const classad::ExprPtr& reason_expr,
                                              const classad::ExprPtr& subcode, const char* knob,
                                              PeriodicAction action, int code, const classad::ClassAd& job,
                                              const classad::EvalEnv& env) {
  if (!fires(expr.get(), job, env)) return std::nullopt;
  std::string reason = string_of(reason_expr.get(), job, env);
  if (reason.empty())
    reason = std::string("The system macro ") + knob + " expression '" + classad::unparse(*expr) +
             "' evaluated to TRUE";
  return PeriodicVerdict{action, reason, code, int_of(subcode.get(), job, env)};
}

}  // namespace

Result<PeriodicPolicy> PeriodicPolicy::from_config(const config::Config& config) {
  PeriodicPolicy p;
  const std::pair<classad::ExprPtr*, const char*> knobs[] = {
      {&p.hold, "SYSTEM_PERIODIC_HOLD"},
      {&p.hold_reason, "SYSTEM_PERIODIC_HOLD_REASON"},
      {&p.hold_subcode, "SYSTEM_PERIODIC_HOLD_SUBCODE"},
      {&p.release, "SYSTEM_PERIODIC_RELEASE"},
      {&p.release_reason, "SYSTEM_PERIODIC_RELEASE_REASON"},
      {&p.remove, "SYSTEM_PERIODIC_REMOVE"},
      {&p.remove_reason, "SYSTEM_PERIODIC_REMOVE_REASON"},
  };
  for (auto [slot, knob] : knobs) {
    auto e = config.optional_expression(knob);
    if (!e) return Error{e.error()};
    *slot = *e;
  }
  return p;
}

PeriodicVerdict evaluate_periodic(const PeriodicPolicy& p, const classad::ClassAd& job,
                                  const classad::EvalEnv& env) {
  const auto status = job_status(job);
  if (!status || *status == JobStatus::Completed || *status == JobStatus::Removed) return {};
  std::optional<PeriodicVerdict> v;
  if (*status != JobStatus::Held) {
    v = job_verdict(job, "PeriodicHold", PeriodicAction::Hold, hold_code::kJobPolicy, env);
    if (!v)
      v = system_verdict(p.hold, p.hold_reason, p.hold_subcode, "SYSTEM_PERIODIC_HOLD", PeriodicAction::Hold,
                         hold_code::kSystemPolicy, job, env);
  } else {
    v = job_verdict(job, "PeriodicRelease", PeriodicAction::Release, 0, env);
    if (!v)
      v = system_verdict(p.release, p.release_reason, nullptr, "SYSTEM_PERIODIC_RELEASE",
                         PeriodicAction::Release, 0, job, env);
  }
  if (!v) v = job_verdict(job, "PeriodicRemove", PeriodicAction::Remove, 0, env);
  if (!v)
    v = system_verdict(p.remove, p.remove_reason, nullptr, "SYSTEM_PERIODIC_REMOVE", PeriodicAction::Remove,
                       0, job, env);
  return v.value_or(PeriodicVerdict{});
}

}  // namespace cara::schedd
