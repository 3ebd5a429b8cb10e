#include "model/negotiation/slot_assessment.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "model/accounting/accountant_config.h"
#include "model/classad/eval.h"
#include "model/classad/match.h"
#include "model/common/text.h"

namespace cara::negotiation {

bool fits_consumption(const PoolSlot& pslot, const classad::ClassAd& job, const classad::EvalEnv& env) {
  auto amounts = consumption(pslot, job, env);
  if (!amounts) return false;
  for (const auto& [resource, amount] : *amounts) {
    double have = 0;
    if (!classad::evaluate_attr(*pslot.ad, resource, nullptr, env).number(have)) have = 0;
    if (amount > have + 1e-9) return false;
  }
  return true;
}

double negotiator_rank(const classad::ExprPtr& expr, const classad::ClassAd& slot,
                       const classad::ClassAd& job, const classad::EvalEnv& env) {
  if (!expr) return 0;
  double d = 0;
  if (classad::evaluate(*expr, &slot, &job, env).number(d) && !std::isnan(d)) return d;
  return -std::numeric_limits<double>::max();
}

const char* unfit_reason(Unfit u) {
  switch (u) {
    case Unfit::None: return "";
    case Unfit::NoMatch: return "no match found";
    case Unfit::Retiring: return "no match found (slots that match are within their retirement time)";
    case Unfit::SameSubmitter: return "no match found (slots that match run this submitter's jobs)";
    case Unfit::InsufficientPriority: return "insufficient priority";
    case Unfit::PreemptionRequirements: return "PREEMPTION_REQUIREMENTS == False";
  }
  return "no match found";
}

std::optional<std::vector<std::pair<std::string, double>>> consumption(const PoolSlot& pslot,
                                                                       const classad::ClassAd& job,
                                                                       const classad::EvalEnv& env) {
  std::vector<std::pair<std::string, double>> out;
  out.reserve(pslot.consumptions().size());
  for (const auto& [resource, expr] : pslot.consumptions()) {
    double d = 0;
    if (!classad::evaluate(*expr, pslot.ad, &job, env).number(d) || d < 0 || std::isnan(d))
      return std::nullopt;
    out.emplace_back(resource, d);
  }
  return out;
}

Assessment assess(const RequestContext& request, const PoolSlot& slot, const NegotiatorPolicy& policy,
                  const classad::EvalEnv& env, FamilyFacts* facts) {
  FamilyFacts none;
  FamilyFacts& known = facts ? *facts : none;
  Assessment a;
  const classad::ClassAd& job = *request.job;
  const classad::ClassAd& ad = *slot.ad;
  if (slot.use == SlotUse::ClaimedIdle || slot.use == SlotUse::Unavailable) return a;
  if (slot.use == SlotUse::Busy && !policy.consider_preemption) return a;
  if (slot.use == SlotUse::Busy) {
    // Whether the job may take the slot from the one running there is
    // cheap to tell: decide it before matching the two ads.
    if (!known.slot_rank) known.slot_rank = classad::rank(ad, job, env);
    const double new_rank = *known.slot_rank;
    const Unfit denied = preemption_denied(request, slot, new_rank);
    a.reason = new_rank > slot.current_rank ? MatchReason::Rank : MatchReason::Priority;
    if (denied != Unfit::None) {
      a.unfit = denied;
      a.unmatched = true;
      return a;
    }
    if (!known.matched) known.matched = classad::symmetric_match(job, ad, env);
    if (!*known.matched) return a;
    if (a.reason == MatchReason::Priority && !preemption_allowed(request, slot, policy, env)) {
      a.unfit = Unfit::PreemptionRequirements;
      return a;
    }
    a.preemption_rank = negotiator_rank(policy.preemption_rank, ad, job, env);
  } else {
    if (!known.matched) known.matched = idle_candidate(request, slot, env);
    if (!*known.matched) return a;
    a.reason = MatchReason::NoPreemption;
  }
  a.unfit = Unfit::None;
  a.pre = negotiator_rank(policy.pre_job_rank, ad, job, env);
  if (!known.job_rank) known.job_rank = classad::rank(job, ad, env);
  a.job_rank = *known.job_rank;
  a.post = negotiator_rank(policy.post_job_rank, ad, job, env);
  return a;
}

Assessment assess_pslot_preemption(const RequestContext& request, const PoolSlot& pslot,
                                   const std::vector<PoolSlot>& slots, const NegotiatorPolicy& policy,
                                   const classad::EvalEnv& env) {
  Assessment a;
  const classad::ClassAd& job = *request.job;
  classad::ClassAd grown = *pslot.ad;
  bool by_rank_only = true;
  for (std::size_t k : pslot.children) {
    const PoolSlot& child = slots[k];
    if (child.in_retirement) continue;
    const double new_rank = classad::rank(*child.ad, job, env);
    if (preemption_denied(request, child, new_rank) != Unfit::None) continue;
    const bool by_rank = new_rank > child.current_rank;
    if (!by_rank && !preemption_allowed(request, child, policy, env)) continue;
    // Only the standard resources count; custom ones are ignored.
    for (const char* resource : {"Cpus", "Memory", "Disk"}) {
      double have = 0, more = 0;
      if (!classad::evaluate_attr(grown, resource, nullptr, env).number(have)) have = 0;
      if (!classad::evaluate_attr(*child.ad, resource, nullptr, env).number(more)) more = 0;
      grown.set(resource, have + more);
    }
    a.victims.push_back(k);
    by_rank_only = by_rank_only && by_rank;
    if (!classad::symmetric_match(job, grown, env)) continue;
    a.unfit = Unfit::None;
    a.reason = by_rank_only ? MatchReason::Rank : MatchReason::Priority;
    a.pre = negotiator_rank(policy.pre_job_rank, *pslot.ad, job, env);
    a.job_rank = classad::rank(job, *pslot.ad, env);
    a.post = negotiator_rank(policy.post_job_rank, *pslot.ad, job, env);
    a.preemption_rank = negotiator_rank(policy.preemption_rank, *pslot.ad, job, env);
    return a;
  }
  a.victims.clear();
  return a;
}

bool preemption_allowed(const RequestContext& request, const PoolSlot& slot, const NegotiatorPolicy& policy,
                        const classad::EvalEnv& env) {
  bool allowed = false;
  return policy.preemption_requirements &&
         classad::evaluate(*policy.preemption_requirements, slot.ad, request.job, env).bool_equiv(allowed) &&
         allowed;
}

double match_weight(const PoolSlot& slot, const classad::ClassAd& job, const NegotiatorPolicy& policy,
                    const classad::EvalEnv& env) {
  if (!slot.partitionable) return slot.weight;
  if (!policy.use_slot_weights) return 1;
  // The dynamic slot the match would carve: the resources it would get,
  // then its SlotWeight.
  std::vector<std::pair<std::string_view, double>> carved;
  if (slot.consumption_policy) {
    if (auto amounts = consumption(slot, job, env)) {
      for (const auto& [resource, amount] : *amounts) {
        for (const auto& [name, expr] : slot.consumptions())
          if (name == resource) carved.emplace_back(name, amount);  // a name that outlives `amounts`
      }
    }
  } else {
    for (auto [request, resource, fallback] :
         {std::tuple{"RequestCpus", "Cpus", 1.0}, std::tuple{"RequestMemory", "Memory", -1.0},
          std::tuple{"RequestDisk", "Disk", -1.0}}) {
      double d = 0;
      if (classad::evaluate_attr(job, request, slot.ad, env).number(d) && d >= 0) {
        carved.emplace_back(resource, d);
      } else if (fallback >= 0) {
        carved.emplace_back(resource, fallback);
      }
    }
  }
  auto amount_of = [&](std::string_view resource, double& out) {
    for (const auto& [name, d] : carved)
      if (iequals(name, resource)) return (out = d), true;
    return classad::evaluate_attr(*slot.ad, resource, nullptr, env).number(out);
  };
  switch (slot.carved_weight) {
    case PoolSlot::CarvedWeight::Resource: {
      // slot_weight's rule: the value when a number >= 0, else Cpus, else 1.
      double w = 0;
      if (amount_of(slot.weight_resource, w) && w >= 0) return w;
      return amount_of("Cpus", w) ? w : 1;
    }
    case PoolSlot::CarvedWeight::Overlay: {
      // SlotWeight reads nothing else (slot_pool.cpp): each resource it
      // may read, carved or else the partitionable slot's own.
      classad::ClassAd overlay;
      auto put = [&](std::string_view name) {
        double d = 0;
        if (amount_of(name, d)) overlay.set(name, d);
      };
      for (const char* name : {"Cpus", "Memory", "Disk"}) put(name);
      for (const auto& [name, expr] : slot.consumptions()) put(name);
      double w = 0;
      const classad::Attribute* expr = slot.ad->find("SlotWeight");
      if (classad::evaluate(*expr->expr, &overlay, nullptr, env).number(w) && w >= 0) return w;
      return amount_of("Cpus", w) ? w : 1;
    }
    case PoolSlot::CarvedWeight::Copy: break;
  }
  classad::ClassAd dslot = *slot.ad;
  for (const auto& [name, d] : carved) dslot.set(name, d);
  return slot_weight(dslot, env);
}

Unfit preemption_denied(const RequestContext& request, const PoolSlot& slot, double new_rank) {
  return preemption_denied(slot.retiring, slot.current_rank, slot.remote_key == request.submitter,
                           slot.remote_eup, request.eup, new_rank);
}

Unfit preemption_denied(bool retiring, double current_rank, bool same_submitter, double remote_eup,
                        double eup, double new_rank) {
  if (retiring) return Unfit::Retiring;
  if (new_rank > current_rank) return Unfit::None;
  if (same_submitter) return Unfit::SameSubmitter;
  if (!(eup < remote_eup) || new_rank < current_rank) return Unfit::InsufficientPriority;
  return Unfit::None;
}

bool matches(const RequestContext& request, const PoolSlot& slot, const classad::EvalEnv& env) {
  return classad::symmetric_match(*request.job, *slot.ad, env);
}

bool idle_candidate(const RequestContext& request, const PoolSlot& slot, const classad::EvalEnv& env) {
  return classad::symmetric_match(*request.job, *slot.ad, env) &&
         (!slot.consumption_policy || fits_consumption(slot, *request.job, env));
}

bool ranks_before(const Assessment& a, std::size_t ia, const Assessment& b, std::size_t ib) {
  if (a.pre != b.pre) return a.pre > b.pre;
  if (a.job_rank != b.job_rank) return a.job_rank > b.job_rank;
  if (a.post != b.post) return a.post > b.post;
  if (a.reason != b.reason) return a.reason < b.reason;
  if (a.preemption_rank != b.preemption_rank) return a.preemption_rank > b.preemption_rank;
  return ia < ib;
}

void give_share(SlotPool& pool, std::size_t index, const classad::ClassAd& job, bool use_slot_weights,
                const classad::EvalEnv& env) {
  PoolSlot& slot = pool.slots()[index];
  auto amounts = consumption(slot, job, env);
  classad::ClassAd& ad = pool.own(index);
  if (amounts) {
    for (const auto& [resource, amount] : *amounts) {
      double have = 0;
      if (!classad::evaluate_attr(ad, resource, nullptr, env).number(have)) have = 0;
      ad.set(resource, std::max(0.0, have - amount));
    }
  }
  slot.weight = use_slot_weights ? slot_weight(ad, env) : 1;
}

}  // namespace cara::negotiation
