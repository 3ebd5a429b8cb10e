// claim::reconcile over a negotiator's slot board, from what changed since
// the last cycle (issue 29: a simulated year runs a million cycles over
// thousands of claims; the full reconcile meets every charged claim with
// every claimed slot each time, in name order).
//
// Between two cycles only some names change: slots that entered or left
// the board's Claimed and Matched slots (SlotBoard::claim_log) and claims
// the accountant began or ended (Accountant::claim_log: the cycle's
// matches, condor_userprio). Every other name was settled by the last
// reconcile and the charges that followed it, so the full reconcile would
// have nothing to say of it: changes() looks at the changed names alone,
// and those whose change the accountant refused (charged() keeps them for
// the next time), and gives what the full reconcile gives, in its order.
// It reconciles in full the first time, when a log no longer reaches back
// to the last call (a restored accountant, too many changes), when
// NEGOTIATOR_USE_SLOT_WEIGHTS changed, and always under
// NEGOTIATOR_SLOT_CONSTRAINT (whose verdict may turn with the clock).
#pragma once

#include <cstdint>
#include <set>
#include <string>

#include "model/accounting/accountant.h"
#include "model/claim/claim_charges.h"
#include "model/classad/eval_env.h"
#include "model/common/change_log.h"
#include "model/negotiation/negotiator_policy.h"

namespace cara::negotiation {
class SlotBoard;
}

namespace cara::claim {

class ClaimTracker {
 public:
  // What reconcile(accountant.claims(), board, ...) gives now; the board
  // prepared for `policy`.
  ChargeChanges changes(const accounting::Accountant& accountant, const negotiation::SlotBoard& board,
                        const negotiation::NegotiatorPolicy& policy, const classad::EvalEnv& env);
  // `changes` (the last changes()) were charged to the accountant: what
  // it refused is looked at again next time.
  void charged(const accounting::Accountant& accountant, const negotiation::SlotBoard& board,
               const ChargeChanges& changes);
  // How many changes() calls reconciled in full.
  std::int64_t full() const { return full_; }

 private:
  bool settled_ = false;  // charged() followed the last changes()
  bool use_slot_weights_ = true;
  ChangeLog::Stamp accountant_, board_;
  std::set<std::string> unsettled_;  // names whose change was refused
  std::int64_t full_ = 0;
};

}  // namespace cara::claim
