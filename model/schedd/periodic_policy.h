// Periodic job policy: what the schedd evaluates for every job at each
// PERIODIC_EXPR_INTERVAL (the clock is a parameter, for the simulator).
// For each job, in HTCondor's order (user_job_policy AnalyzePolicy):
//   1. not Held: the job's PeriodicHold, then SYSTEM_PERIODIC_HOLD
//   2. Held: the job's PeriodicRelease, then SYSTEM_PERIODIC_RELEASE
//   3. the job's PeriodicRemove, then SYSTEM_PERIODIC_REMOVE
// The first expression that is true decides. MY is the job; time() is
// `now`. Reasons come from SYSTEM_PERIODIC_<X>_REASON (an expression
// giving a string) or PeriodicHoldReason / PeriodicHoldSubCode in the job;
// otherwise they quote the expression that fired.
#pragma once

#include <cstdint>
#include <string>

#include "model/classad/classad.h"
#include "model/classad/eval_env.h"
#include "model/classad/expr.h"
#include "model/common/result.h"

namespace cara::config {
class Config;
}

namespace cara::schedd {

struct PeriodicPolicy {
  classad::ExprPtr hold, hold_reason, hold_subcode;
  classad::ExprPtr release, release_reason;
  classad::ExprPtr remove, remove_reason;

  // SYSTEM_PERIODIC_{HOLD,RELEASE,REMOVE} and their _REASON (and
  // SYSTEM_PERIODIC_HOLD_SUBCODE); unset knobs stay null. An expression
  // that does not parse is an error naming the knob.
  static Result<PeriodicPolicy> from_config(const config::Config& config);
};

enum class PeriodicAction { None, Hold, Release, Remove };

struct PeriodicVerdict {
  PeriodicAction action = PeriodicAction::None;
  std::string reason;
  int code = 0;  // HoldReasonCode for a hold
  int subcode = 0;
};

// What the policy says about `job` at `env.now`. Completed and Removed
// jobs are left alone.
PeriodicVerdict evaluate_periodic(const PeriodicPolicy& policy, const classad::ClassAd& job,
                                  const classad::EvalEnv& env);

}  // namespace cara::schedd
