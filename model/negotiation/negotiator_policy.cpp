#include "model/negotiation/negotiator_policy.h"

#include <tuple>

#include "model/classad/eval.h"
#include "model/config/config.h"

namespace cara::negotiation {

bool NegotiatorPolicy::priority_preemption_possible() const {
  if (!preemption_requirements) return false;
  if (!preemption_requirements->is_literal()) return true;
  bool b = false;
  return classad::evaluate(*preemption_requirements, nullptr, nullptr).bool_equiv(b) && b;
}

bool NegotiatorPolicy::negotiates_for(const classad::ClassAd& slot, const classad::EvalEnv& env) const {
  if (!slot_constraint) return true;
  bool ok = false;
  return classad::evaluate(*slot_constraint, &slot, nullptr, env).bool_equiv(ok) && ok;
}

Result<NegotiatorPolicy> NegotiatorPolicy::from_config(const config::Config& config) {
  NegotiatorPolicy p;
  const std::pair<classad::ExprPtr*, const char*> exprs[] = {
      {&p.slot_constraint, "NEGOTIATOR_SLOT_CONSTRAINT"},
      {&p.job_constraint, "NEGOTIATOR_JOB_CONSTRAINT"},
      {&p.pre_job_rank, "NEGOTIATOR_PRE_JOB_RANK"},
      {&p.post_job_rank, "NEGOTIATOR_POST_JOB_RANK"},
      {&p.preemption_requirements, "PREEMPTION_REQUIREMENTS"},
      {&p.preemption_rank, "PREEMPTION_RANK"},
      {&p.group_sort_expr, "GROUP_SORT_EXPR"},
  };
  for (auto [field, knob] : exprs) {
    auto e = config.optional_expression(knob);
    if (!e) return Error{e.error()};
    *field = *e;
  }
  const std::pair<bool*, const char*> flags[] = {
      {&p.consider_preemption, "NEGOTIATOR_CONSIDER_PREEMPTION"},
      {&p.consider_early_preemption, "NEGOTIATOR_CONSIDER_EARLY_PREEMPTION"},
      {&p.use_slot_weights, "NEGOTIATOR_USE_SLOT_WEIGHTS"},
      {&p.allow_pslot_preemption, "ALLOW_PSLOT_PREEMPTION"},
  };
  for (auto [field, knob] : flags) {
    auto b = config.boolean(knob);
    if (!b) return Error{b.error()};
    *field = *b;
  }
  auto rounds = config.integer("GROUP_QUOTA_MAX_ALLOCATION_ROUNDS");
  if (!rounds) return Error{rounds.error()};
  if (*rounds < 1) return Error{"GROUP_QUOTA_MAX_ALLOCATION_ROUNDS must be at least 1"};
  p.max_allocation_rounds = static_cast<int>(*rounds);
  auto threads = config.integer("NEGOTIATOR_THREADS");
  if (!threads) return Error{threads.error()};
  if (*threads < 1 || *threads > 256) return Error{"NEGOTIATOR_THREADS must be between 1 and 256"};
  p.threads = static_cast<int>(*threads);
  for (auto [knob, into, least] : {std::tuple{"NEGOTIATOR_INTERVAL", &p.interval, 1},
                                   std::tuple{"NEGOTIATOR_MIN_INTERVAL", &p.min_interval, 0},
                                   std::tuple{"NEGOTIATOR_CYCLE_DELAY", &p.cycle_delay, 0}}) {
    auto v = config.integer(knob);
    if (!v) return Error{v.error()};
    if (*v < least)
      return Error{std::string(knob) + " must be at least " + std::to_string(least) + " (seconds)"};
    *into = *v;
  }
  auto limits = ConcurrencyLimits::from_config(config);
  if (!limits) return Error{limits.error()};
  p.concurrency_limits = std::move(*limits);
  return p;
}

}  // namespace cara::negotiation
