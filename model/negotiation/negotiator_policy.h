// The negotiator's knobs (central-manager-configuration, "The
// Negotiation Cycle"; configuration defaults in model/config/defaults.cpp).
#pragma once

#include <cstdint>

#include "model/classad/classad.h"
#include "model/classad/eval_env.h"
#include "model/classad/expr.h"
#include "model/common/result.h"
#include "model/negotiation/concurrency_limits.h"

namespace cara::config {
class Config;
}

namespace cara::negotiation {

struct NegotiatorPolicy {
  // Several negotiators may share one pool, each negotiating for its own
  // slots and jobs with its own accountant (central-manager-configuration,
  // "Running Multiple Negotiators in One Pool").
  classad::ExprPtr slot_constraint;          // NEGOTIATOR_SLOT_CONSTRAINT; null: every slot
  classad::ExprPtr job_constraint;           // NEGOTIATOR_JOB_CONSTRAINT (MY = job); null: every job
  bool consider_preemption = true;           // NEGOTIATOR_CONSIDER_PREEMPTION
  bool consider_early_preemption = false;    // NEGOTIATOR_CONSIDER_EARLY_PREEMPTION
  classad::ExprPtr pre_job_rank;             // NEGOTIATOR_PRE_JOB_RANK (MY = slot, TARGET = job)
  classad::ExprPtr post_job_rank;            // NEGOTIATOR_POST_JOB_RANK
  classad::ExprPtr preemption_requirements;  // PREEMPTION_REQUIREMENTS; null: never by priority
  classad::ExprPtr preemption_rank;          // PREEMPTION_RANK
  classad::ExprPtr group_sort_expr;          // GROUP_SORT_EXPR
  bool use_slot_weights = true;              // NEGOTIATOR_USE_SLOT_WEIGHTS
  bool allow_pslot_preemption = false;       // ALLOW_PSLOT_PREEMPTION
  int max_allocation_rounds = 3;             // GROUP_QUOTA_MAX_ALLOCATION_ROUNDS
  int threads = 1;                           // NEGOTIATOR_THREADS (caracara's): per-slot phases
  ConcurrencyLimits concurrency_limits;
  // When cycles run (seconds): at most every NEGOTIATOR_INTERVAL unless a
  // schedd asks, never closer than NEGOTIATOR_MIN_INTERVAL between starts
  // nor NEGOTIATOR_CYCLE_DELAY after the last one ended.
  std::int64_t interval = 60, min_interval = 5, cycle_delay = 20;

  // Reads the knobs; an expression that does not parse, or a value of the
  // wrong type, is an error naming the knob. An empty expression knob
  // leaves it unset.
  static Result<NegotiatorPolicy> from_config(const config::Config& config);

  // Whether a match may ever preempt by user priority: PREEMPTION_REQUIREMENTS
  // is set and is not the constant False (the default). Without it only
  // a slot's Rank can take a busy slot.
  bool priority_preemption_possible() const;

  // Whether this negotiator negotiates for `slot` (NEGOTIATOR_SLOT_CONSTRAINT
  // is true of it): only those slots are matched, and only their claims
  // are charged to its accountant, so each shard's fair share is its own.
  bool negotiates_for(const classad::ClassAd& slot, const classad::EvalEnv& env) const;
};

}  // namespace cara::negotiation
