// The negotiator's knobs (central-manager-configuration, "The
// Negotiation Cycle"; configuration defaults in model/config/defaults.cpp).
#pragma once

#include <cstdint>

#include "model/classad/expr.h"
#include "model/common/result.h"
#include "model/negotiation/concurrency_limits.h"

namespace cara::config {
class Config;
}

namespace cara::negotiation {

struct NegotiatorPolicy {
  classad::ExprPtr slot_constraint;          // NEGOTIATOR_SLOT_CONSTRAINT; null: every slot
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
};

}  // namespace cara::negotiation
