// One negotiation cycle from the central manager's side, from its inputs
// to the claims it hands out (user-priorities-and-negotiation, "The
// condor_negotiator ... periodically ... negotiates"): priorities decay to
// `now`, the accountant's claims follow the slot ads (claim_charges.h),
// the cycle matches (negotiation_cycle.h), and each match becomes a claim
// with a fresh id, charged at once to its submitter and addressed to the
// schedd that advertised the submitter. The negotiator actor gathers the
// inputs and sends the offers; it decides nothing here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/accounting/accountant.h"
#include "model/accounting/group_tree.h"
#include "model/classad/classad.h"
#include "model/negotiation/cycle_types.h"
#include "model/negotiation/negotiator_policy.h"

namespace cara::negotiation {
class SlotBoard;
class SlotMemo;
}  // namespace cara::negotiation

namespace cara::claim {

class ClaimTracker;

// A match as its schedd hears of it.
struct ClaimOffer {
  std::size_t slot = 0;  // index into the cycle's slots (with a board: its key)
  std::string claim_id;
  std::string submitter;
  std::string slot_name;
  std::vector<schedd::JobId> job_ids;       // the matched job, when the request named it
  bool preempting = false;                  // the slot's current job is evicted for it
  std::vector<std::string> preempt_dslots;  // ALLOW_PSLOT_PREEMPTION: dynamic slots to evict
};

struct CycleInput {
  const std::vector<classad::ClassAd>* slots = nullptr;
  // Or the negotiator's standing board of slots (negotiation/slot_board.h),
  // in place of `slots`: an offer's slot is then its board key.
  negotiation::SlotBoard* board = nullptr;
  // With a board: what the last cycles reconciled (claim_tracker.h), so
  // that this one looks only at the claims and slots that changed since.
  ClaimTracker* tracker = nullptr;
  std::vector<negotiation::SubmitterRequests> submitters;  // those without requests are left out
  std::map<std::string, std::string> schedd_of;            // submitter -> its ad's ScheddName
  // A monotonic clock in seconds for the cycle's statistics (its duration
  // and phases, LastNegotiationCycleDuration0); none leaves them 0.
  std::function<double()> clock;
  // What the negotiator's earlier cycles learnt of unchanged slot ads
  // (negotiation/slot_memo.h); null: none.
  negotiation::SlotMemo* memo = nullptr;
};

struct CycleClaims {
  negotiation::CycleResult result;
  std::map<std::string, std::vector<ClaimOffer>> offers;  // by ScheddName, in match order
  std::vector<std::string> warnings;                      // charges the accountant refused
};

// `fresh_claim_id` mints one id per match, in match order.
CycleClaims run_cycle(const negotiation::NegotiatorPolicy& policy, accounting::Accountant& accountant,
                      const std::optional<accounting::GroupTree>& groups, CycleInput input,
                      const std::function<std::string()>& fresh_claim_id, std::int64_t now);

}  // namespace cara::claim
