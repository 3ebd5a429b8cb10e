// Whether one slot is a candidate for one request, by which reason, and
// where it ranks (central-manager-configuration, "The Negotiation Cycle":
// build the potential match list, then sort it by NEGOTIATOR_PRE_JOB_RANK,
// job Rank, NEGOTIATOR_POST_JOB_RANK, reason for claim, PREEMPTION_RANK).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/eval_env.h"
#include "model/negotiation/cycle_types.h"
#include "model/negotiation/negotiator_policy.h"
#include "model/negotiation/slot_pool.h"

namespace cara::negotiation {

// Why a slot is not a candidate, most telling last (the rejection reason
// of a request is the most telling one among its slots).
enum class Unfit { None, NoMatch, Retiring, SameSubmitter, InsufficientPriority, PreemptionRequirements };

struct Assessment {
  Unfit unfit = Unfit::NoMatch;
  // The slot runs a job the request may not preempt, which was found
  // without matching the two ads (the expensive part): `unfit` is the
  // reason only if they match (see matches()).
  bool unmatched = false;
  MatchReason reason = MatchReason::NoPreemption;
  double pre = 0, job_rank = 0, post = 0, preemption_rank = 0;
  // ALLOW_PSLOT_PREEMPTION: the dynamic slots (pool indices) a match to a
  // partitionable slot would evict to make room.
  std::vector<std::size_t> victims;

  bool candidate() const { return unfit == Unfit::None; }
};

// The candidate job of one request as the negotiator evaluates it: the
// job ad with the ephemeral Submitter* attributes.
struct RequestContext {
  const classad::ClassAd* job = nullptr;
  std::string submitter;  // lower-cased
  double eup = 0;
};

// What every class of one family gives a job alike (slot_classes.h: the
// family key holds what both Requirements and both Ranks read), learnt
// from the first class that asks and reused by the others.
struct FamilyFacts {
  std::optional<double> slot_rank;  // the slot's Rank of the job
  std::optional<bool> matched;      // the ads match (and an idle slot's share fits)
  std::optional<double> job_rank;   // the job's Rank of the slot
};

// `facts`: the slot's family's, shared by the calls for its classes.
Assessment assess(const RequestContext& request, const PoolSlot& slot, const NegotiatorPolicy& policy,
                  const classad::EvalEnv& env, FamilyFacts* facts = nullptr);

// ALLOW_PSLOT_PREEMPTION (policy-configuration-ep-ap, "pslot
// preemption"): the partitionable slot `pslot`, which the job does not
// match as it is, with the resources (Cpus, Memory, Disk) of its busy
// dynamic slots added one at a time, lowest CurrentRank first, skipping
// those the job may not preempt by the usual rules and those within their
// retirement time whatever NEGOTIATOR_CONSIDER_EARLY_PREEMPTION says; a
// candidate as soon as the sum matches. Ranks are the partitionable
// slot's own. `slots` are the pool's.
Assessment assess_pslot_preemption(const RequestContext& request, const PoolSlot& pslot,
                                   const std::vector<PoolSlot>& slots, const NegotiatorPolicy& policy,
                                   const classad::EvalEnv& env);

// Why the request may not take busy `slot` from the job running there,
// given how the slot ranks the request's job (`new_rank`); None when it
// may, by Rank or by priority. Cheap: it evaluates nothing.
Unfit preemption_denied(const RequestContext& request, const PoolSlot& slot, double new_rank);
// The same rule on what it reads of the slot: whether it is retiring, its
// CurrentRank, whether the request's submitter runs there, and that
// user's EUP.
Unfit preemption_denied(bool retiring, double current_rank, bool same_submitter, double remote_eup,
                        double eup, double new_rank);

// PREEMPTION_REQUIREMENTS (MY = slot, TARGET = job) is true: the request
// may take busy `slot` by priority. Unset: never.
bool preemption_allowed(const RequestContext& request, const PoolSlot& slot, const NegotiatorPolicy& policy,
                        const classad::EvalEnv& env);

// The SlotWeight a match of `job` to `slot` would charge: the slot's, or
// for a partitionable slot the weight of the dynamic slot it would carve
// (1 without NEGOTIATOR_USE_SLOT_WEIGHTS).
double match_weight(const PoolSlot& slot, const classad::ClassAd& job, const NegotiatorPolicy& policy,
                    const classad::EvalEnv& env);

// Whether the request and the slot match (both Requirements): refines an
// `unmatched` assessment's reason when it matters.
bool matches(const RequestContext& request, const PoolSlot& slot, const classad::EvalEnv& env);

// Whether `slot`, were it idle, would be a candidate for the request: the
// two ads match and, under a consumption policy, the job's share fits
// (what assess() asks of an idle slot before ranking it).
bool idle_candidate(const RequestContext& request, const PoolSlot& slot, const classad::EvalEnv& env);

// A partitionable slot has what its consumption policy would give `job`.
bool fits_consumption(const PoolSlot& pslot, const classad::ClassAd& job, const classad::EvalEnv& env);

// Sort order of the potential match list: true when `a` (slot index `ia`)
// goes before `b`. Ties after every key go to the slot listed first.
bool ranks_before(const Assessment& a, std::size_t ia, const Assessment& b, std::size_t ib);

const char* unfit_reason(Unfit u);

// A negotiator rank expression (NEGOTIATOR_PRE_JOB_RANK, ...) with MY =
// slot, TARGET = job: 0 when unset; a value that is not a number sorts
// last (HTCondor uses -FLT_MAX for it).
double negotiator_rank(const classad::ExprPtr& expr, const classad::ClassAd& slot,
                       const classad::ClassAd& job, const classad::EvalEnv& env);

// A partitionable slot's share for `job` under its consumption policy:
// each Consumption<R> evaluated with MY = slot, TARGET = job, by resource
// name. Null when a value is not a non-negative number.
std::optional<std::vector<std::pair<std::string, double>>> consumption(const PoolSlot& pslot,
                                                                       const classad::ClassAd& job,
                                                                       const classad::EvalEnv& env);

// Partitionable slot `index` of `pool` gives `job` its share: its owned
// copy loses what consumption() gives the job (never below 0), and its
// weight is what the rest weighs (1 without slot weights).
void give_share(SlotPool& pool, std::size_t index, const classad::ClassAd& job, bool use_slot_weights,
                const classad::EvalEnv& env);

}  // namespace cara::negotiation
