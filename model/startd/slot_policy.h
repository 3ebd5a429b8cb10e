// The policy expressions a slot evaluates, read from configuration with its
// per-slot (SLOT<N>_X) and per-type (SLOT_TYPE_<N>_X) overrides and, for
// vanilla jobs, the X_VANILLA variants (policy-configuration, "Claimed
// State": "Without specific vanilla versions, the normal versions will be
// used for all jobs").
#pragma once

#include <cstdint>

#include "model/classad/expr.h"
#include "model/common/result.h"

namespace cara::config {
class Config;
}

namespace cara::startd {

struct PolicyExprs {
  classad::ExprPtr want_suspend, suspend, continue_job, preempt, want_vacate, kill;
  bool operator==(const PolicyExprs&) const = default;  // the same trees
};

struct SlotPolicy {
  classad::ExprPtr start, is_owner, rank;
  PolicyExprs normal, vanilla;               // vanilla: the _VANILLA variants, else the normal ones
  classad::ExprPtr max_job_retirement_time;  // MAXJOBRETIREMENTTIME
  classad::ExprPtr machine_max_vacate_time;  // MachineMaxVacateTime
  classad::ExprPtr claim_worklife;           // CLAIM_WORKLIFE; negative: claims never stop taking jobs
  classad::ExprPtr run_benchmarks, start_backfill, evict_backfill;
  bool enable_backfill = false;
  std::int64_t match_timeout = 120;
  std::int64_t killing_timeout = 30;

  static Result<SlotPolicy> from_config(const config::Config& config, int slot_id, int type);
  // The same trees and numbers: slots whose policies are equal share one.
  bool operator==(const SlotPolicy&) const = default;
};

}  // namespace cara::startd
