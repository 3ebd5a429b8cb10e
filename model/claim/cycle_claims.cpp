#include "model/claim/cycle_claims.h"

#include <utility>

#include "model/claim/claim_charges.h"
#include "model/claim/claim_tracker.h"
#include "model/negotiation/negotiation_cycle.h"
#include "model/negotiation/slot_board.h"

namespace cara::claim {

CycleClaims run_cycle(const negotiation::NegotiatorPolicy& policy, accounting::Accountant& accountant,
                      const std::optional<accounting::GroupTree>& groups, CycleInput input,
                      const std::function<std::string()>& fresh_claim_id, std::int64_t now) {
  negotiation::SlotBoard* board = input.board;
  CycleClaims out;
  classad::EvalEnv env;
  env.now = now;
  accountant.update_priorities(now);
  if (board != nullptr && input.tracker != nullptr) {
    board->prepare(policy, env);
    const ChargeChanges changes = input.tracker->changes(accountant, *board, policy, env);
    out.warnings = charge(accountant, changes, now);
    input.tracker->charged(accountant, *board, changes);
  } else if (board != nullptr) {
    board->prepare(policy, env);
    std::function<bool(std::uint64_t)> in_shard;
    if (policy.slot_constraint) in_shard = [&](std::uint64_t k) { return board->in_shard(k, policy, env); };
    out.warnings =
        charge(accountant, reconcile(accountant.claims(), *board, policy.use_slot_weights, in_shard), now);
  } else {
    std::function<bool(const classad::ClassAd&)> in_shard;
    if (policy.slot_constraint)
      in_shard = [&](const classad::ClassAd& slot) { return policy.negotiates_for(slot, env); };
    out.warnings = charge(
        accountant, reconcile(accountant.claims(), *input.slots, policy.use_slot_weights, in_shard), now);
  }

  std::vector<negotiation::SubmitterRequests> submitters;
  for (negotiation::SubmitterRequests& s : input.submitters)
    if (!s.requests.empty()) submitters.push_back(std::move(s));
  negotiation::NegotiationCycle cycle(policy, accountant, groups, env);
  if (input.clock) cycle.set_clock(input.clock);
  cycle.set_memo(input.memo);
  out.result = board != nullptr ? cycle.run(*board, submitters) : cycle.run(*input.slots, submitters);

  for (const negotiation::Match& m : out.result.matches) {
    ClaimOffer offer;
    offer.slot = m.slot;
    offer.claim_id = fresh_claim_id();
    const classad::ClassAd& slot = board != nullptr ? *board->find(m.slot) : (*input.slots)[m.slot];
    if (Status charged = charge_match(accountant, match_claim(m, slot, offer.claim_id), now); !charged)
      out.warnings.push_back(charged.error());
    offer.submitter = m.submitter;
    offer.slot_name = m.slot_name;
    if (m.job_id) offer.job_ids.push_back(*m.job_id);
    offer.preempting = m.reason != negotiation::MatchReason::NoPreemption;
    offer.preempt_dslots = m.victim_names;
    out.offers[input.schedd_of[m.submitter]].push_back(std::move(offer));
  }
  return out;
}

}  // namespace cara::claim
