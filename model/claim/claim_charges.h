// The central manager's side of the claim protocol: which claims the
// accountant charges (user-priorities-and-negotiation, "the condor_negotiator
// ... charges the submitter for each slot it has claimed"). A match is
// charged at once; from then on the slot ads decide: a Claimed slot is
// charged to its AccountingGroup (else RemoteUser), a Matched one stays
// charged, any other stops being charged.
//
// reconcile() is a function from (the charged claims, the slot ads) to the
// claims to end and to begin; charge() applies such changes, and a match,
// to the accountant and says what it could not apply.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/accounting/accountant.h"
#include "model/classad/classad.h"
#include "model/negotiation/cycle_types.h"

namespace cara::negotiation {
class SlotBoard;
}

namespace cara::claim {

struct ChargeChanges {
  std::vector<std::string> ended;              // slots no longer charged
  std::vector<accounting::ClaimRecord> begun;  // claimed slots not charged yet
};

// `use_slot_weights`: USE_SLOT_WEIGHTS, a claim weighs its slot's
// SlotWeight (else its Cpus, else 1); otherwise every claim weighs 1.
// `in_shard`, when given, says which slots this negotiator answers for
// (NEGOTIATOR_SLOT_CONSTRAINT): a claim on any other is another
// negotiator's to charge, so it is neither begun nor kept here.
ChargeChanges reconcile(const std::map<std::string, accounting::ClaimRecord>& charged,
                        const std::vector<classad::ClassAd>& slots, bool use_slot_weights,
                        const std::function<bool(const classad::ClassAd&)>& in_shard = {});

// The same over the slots of `board` (negotiation/slot_board.h), from its
// index of Claimed and Matched slots: `in_shard` says which keys count.
ChargeChanges reconcile(const std::map<std::string, accounting::ClaimRecord>& charged,
                        const negotiation::SlotBoard& board, bool use_slot_weights,
                        const std::function<bool(std::uint64_t key)>& in_shard = {});

// The claim a Claimed slot `name` is charged as: to its ad's
// AccountingGroup (with RemoteUser's domain), else its RemoteUser; none
// when it names neither.
std::optional<accounting::ClaimRecord> slot_claim(std::string_view name, const classad::ClassAd& ad,
                                                  bool use_slot_weights);

// The claim a Claimed slot `name` (ad `ad`) is charged as instead of
// `charged`, when the slot names another user; none otherwise.
std::optional<accounting::ClaimRecord> recharged(const accounting::ClaimRecord& charged,
                                                 std::string_view name, const classad::ClassAd& ad,
                                                 bool use_slot_weights);

// Applies `changes` at `now`; each change the accountant refuses is one
// line of the result (what was not charged, and why).
std::vector<std::string> charge(accounting::Accountant& accountant, const ChargeChanges& changes,
                                std::int64_t now);

// The claim a match is charged as: to its submitter with the slot's
// weight, on the slot it matched; on a partitionable slot one claim per
// match, `slot/claim id` (each carves a dynamic slot, whose ad carries the
// claim from the next cycle on).
accounting::ClaimRecord match_claim(const negotiation::Match& match, const classad::ClassAd& slot,
                                    const std::string& claim_id);

// A new match on `claim.slot`: a preempted user's claim on it ends, the
// matched one begins. The error says what was not charged.
Status charge_match(accounting::Accountant& accountant, const accounting::ClaimRecord& claim,
                    std::int64_t now);

}  // namespace cara::claim
