#include "model/claim/claim_tracker.h"

#include <algorithm>
#include <map>
#include <vector>

#include "model/common/text.h"
#include "model/negotiation/slot_board.h"

namespace cara::claim {

ChargeChanges ClaimTracker::changes(const accounting::Accountant& accountant,
                                    const negotiation::SlotBoard& board,
                                    const negotiation::NegotiatorPolicy& policy,
                                    const classad::EvalEnv& env) {
  std::optional<std::vector<std::string>> names;
  if (settled_ && !policy.slot_constraint && policy.use_slot_weights == use_slot_weights_) {
    auto charged = accountant.claim_log().since(accountant_);
    auto slots = board.claim_log().since(board_);
    if (charged && slots) {
      names = std::move(*charged);
      names->insert(names->end(), slots->begin(), slots->end());
      names->insert(names->end(), unsettled_.begin(), unsettled_.end());
    }
  }
  settled_ = false;
  use_slot_weights_ = policy.use_slot_weights;
  if (!names) {
    ++full_;
    std::function<bool(std::uint64_t)> in_shard;
    if (policy.slot_constraint) in_shard = [&](std::uint64_t k) { return board.in_shard(k, policy, env); };
    return reconcile(accountant.claims(), board, policy.use_slot_weights, in_shard);
  }
  // The full reconcile's rules, name by name, in name order: a charged
  // claim ends when no slot of its name is Claimed or Matched; a Claimed
  // slot not charged begins.
  std::sort(names->begin(), names->end());
  names->erase(std::unique(names->begin(), names->end()), names->end());
  ChargeChanges out;
  for (const std::string& n : *names) {
    const bool charged = accountant.claims().count(n) != 0;
    auto claimed = board.claimed().find(n);
    const bool is_claimed = claimed != board.claimed().end();
    if (charged && !is_claimed && board.matched().count(n) == 0) out.ended.push_back(n);
    if (charged && is_claimed)
      if (auto r = recharged(accountant.claims().at(n), n, *claimed->second.front().second,
                             policy.use_slot_weights)) {
        out.ended.push_back(n);
        out.begun.push_back(std::move(*r));
      }
    if (!charged && is_claimed)
      if (auto r = slot_claim(n, *claimed->second.front().second, policy.use_slot_weights))
        out.begun.push_back(std::move(*r));
  }
  return out;
}

void ClaimTracker::charged(const accounting::Accountant& accountant, const negotiation::SlotBoard& board,
                           const ChargeChanges& changes) {
  // A change the accountant refused leaves its name as it was: the full
  // reconcile would give it again.
  // A name both ended and begun (a charge moved to the slot's user) is
  // settled when the slot's user holds it.
  unsettled_.clear();
  std::map<std::string, const accounting::ClaimRecord*> begun;
  for (const accounting::ClaimRecord& c : changes.begun) begun[c.slot] = &c;
  for (const std::string& n : changes.ended)
    if (accountant.claims().count(n) != 0 && begun.count(n) == 0) unsettled_.insert(n);
  for (const auto& [n, c] : begun) {
    auto it = accountant.claims().find(n);
    if (it == accountant.claims().end() || !iequals(it->second.submitter, c->submitter)) unsettled_.insert(n);
  }
  accountant_ = accountant.claim_log().stamp();
  board_ = board.claim_log().stamp();
  settled_ = true;
}

}  // namespace cara::claim
