#include "model/claim/claim_charges.h"

#include <algorithm>
#include <deque>
#include <string_view>
#include <utility>
#include <vector>

#include "model/claim/claim_id.h"
#include "model/classad/eval.h"
#include "model/classad/symbol.h"
#include "model/common/text.h"
#include "model/negotiation/slot_board.h"
#include "model/schedd/job_status.h"

namespace cara::claim {

using schedd::string_attr;

namespace {

double weight_of(const classad::ClassAd& slot, bool use_slot_weights) {
  if (!use_slot_weights) return 1;
  double w = 1;
  classad::Value v = classad::evaluate_attr(slot, "SlotWeight");
  if (v.number(w)) return w;
  v = classad::evaluate_attr(slot, "Cpus");
  return v.number(w) ? w : 1;
}

}  // namespace

std::optional<accounting::ClaimRecord> slot_claim(std::string_view name, const classad::ClassAd& ad,
                                                  bool use_slot_weights) {
  std::string user = string_attr(ad, "AccountingGroup");
  if (user.empty()) user = string_attr(ad, "RemoteUser");
  if (user.empty()) return std::nullopt;
  // AccountingGroup holds group.user; the submitter adds the domain.
  const std::string remote = string_attr(ad, "RemoteUser");
  if (user.find('@') == std::string::npos && remote.find('@') != std::string::npos)
    user += remote.substr(remote.find('@'));
  accounting::ClaimRecord r;
  r.slot = std::string(name);
  r.submitter = user;
  r.weight = weight_of(ad, use_slot_weights);
  return r;
}

std::optional<accounting::ClaimRecord> recharged(const accounting::ClaimRecord& charged,
                                                 std::string_view name, const classad::ClassAd& ad,
                                                 bool use_slot_weights) {
  // A Claimed slot is charged to its own user: a charge another user's
  // match left on it (a second match on a slot whose first claim won, the
  // startd refusing the second) moves to the slot's user. A slot that
  // names no user keeps its charge.
  auto r = slot_claim(name, ad, use_slot_weights);
  if (!r || iequals(r->submitter, charged.submitter)) return std::nullopt;
  return r;
}

namespace {

using Claimed = std::vector<std::pair<std::string_view, const classad::ClassAd*>>;

// The charged claims met with the claimed slots (by name, one each) in
// one pass over both in name order: the claims to end (neither claimed nor
// matched, `matched` sorted) and those to begin.
ChargeChanges merge(const std::map<std::string, accounting::ClaimRecord>& charged, const Claimed& claimed,
                    const std::vector<std::string_view>& matched, bool use_slot_weights) {
  ChargeChanges out;
  auto begin = [&](std::string_view name, const classad::ClassAd& ad) {
    if (auto r = slot_claim(name, ad, use_slot_weights)) out.begun.push_back(std::move(*r));
  };
  auto c = claimed.begin();
  for (const auto& [slot, record] : charged) {
    for (; c != claimed.end() && c->first < slot; ++c) begin(c->first, *c->second);
    const bool still = c != claimed.end() && c->first == slot;
    if (still) {
      if (auto r = recharged(record, slot, *c->second, use_slot_weights)) {
        out.ended.push_back(slot);
        out.begun.push_back(std::move(*r));
      }
      ++c;
    }
    if (!still && !std::binary_search(matched.begin(), matched.end(), std::string_view(slot)))
      out.ended.push_back(slot);
  }
  for (; c != claimed.end(); ++c) begin(c->first, *c->second);
  return out;
}

}  // namespace

ChargeChanges reconcile(const std::map<std::string, accounting::ClaimRecord>& charged,
                        const std::vector<classad::ClassAd>& slots, bool use_slot_weights,
                        const std::function<bool(const classad::ClassAd&)>& in_shard) {
  // Every slot ad, every cycle: names and states are read as views of the
  // ads' own text, and the charged claims met with the claimed slots in one
  // pass over both, in name order (a simulated cycle spent a tenth of its
  // time here, in copies and a map of every claimed slot's name).
  static const classad::Symbol kState = classad::intern("State"), kName = classad::intern("Name");
  std::deque<std::string> evaluated;  // names that are expressions, evaluated
  std::string scratch;
  auto name_of = [&](const classad::ClassAd& ad) -> std::string_view {
    const std::string_view n = string_attr(ad, kName, scratch);
    if (n.empty() || n.data() != scratch.data()) return n;
    return evaluated.emplace_back(scratch);
  };
  Claimed claimed;
  std::vector<std::string_view> matched;  // matched last cycle, not claimed yet: still charged
  for (const classad::ClassAd& s : slots) {
    if (in_shard && !in_shard(s)) continue;
    std::string state_text;
    const std::string_view state = string_attr(s, kState, state_text);
    if (state == "Matched") matched.push_back(name_of(s));
    if (state == "Claimed") claimed.emplace_back(name_of(s), &s);
  }
  // By name; of two slots with one name, the first counts.
  std::stable_sort(claimed.begin(), claimed.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  claimed.erase(std::unique(claimed.begin(), claimed.end(),
                            [](const auto& a, const auto& b) { return a.first == b.first; }),
                claimed.end());
  std::sort(matched.begin(), matched.end());
  return merge(charged, claimed, matched, use_slot_weights);
}

ChargeChanges reconcile(const std::map<std::string, accounting::ClaimRecord>& charged,
                        const negotiation::SlotBoard& board, bool use_slot_weights,
                        const std::function<bool(std::uint64_t key)>& in_shard) {
  // The board keeps them by name, each name's slots in key order: of two
  // slots with one name, the first in the shard counts.
  using Slots = negotiation::SlotBoard::Named::mapped_type;
  auto first_in_shard = [&](const Slots& slots) -> const classad::ClassAd* {
    for (const auto& [k, ad] : slots)
      if (!in_shard || in_shard(k)) return ad;
    return nullptr;
  };
  Claimed claimed;
  claimed.reserve(board.claimed().size());
  for (const auto& [name, slots] : board.claimed())
    if (const classad::ClassAd* ad = first_in_shard(slots)) claimed.emplace_back(name, ad);
  std::vector<std::string_view> matched;
  for (const auto& [name, slots] : board.matched())
    if (first_in_shard(slots) != nullptr) matched.push_back(name);
  return merge(charged, claimed, matched, use_slot_weights);
}

std::vector<std::string> charge(accounting::Accountant& accountant, const ChargeChanges& changes,
                                std::int64_t now) {
  std::vector<std::string> lost;
  for (const std::string& slot : changes.ended)
    if (Status s = accountant.end_claim(slot, now); !s)
      lost.push_back("the claim on " + slot + " still charged: " + s.error());
  for (const accounting::ClaimRecord& c : changes.begun)
    if (Status s = accountant.begin_claim(c, now); !s)
      lost.push_back("the claim on " + c.slot + " not charged to " + c.submitter + ": " + s.error());
  return lost;
}

accounting::ClaimRecord match_claim(const negotiation::Match& match, const classad::ClassAd& slot,
                                    const std::string& claim_id) {
  accounting::ClaimRecord c;
  c.slot = match.slot_name;
  const classad::Value pslot = classad::evaluate_attr(slot, "PartitionableSlot");
  // Its public part only: the record is stored, replicated and shown by
  // condor_userprio -getreslist; the secret is the schedd's alone.
  if (pslot.is_bool() && pslot.as_bool()) c.slot += "/" + std::string(public_claim_id(claim_id));
  c.submitter = match.submitter;
  c.weight = match.weight;
  return c;
}

Status charge_match(accounting::Accountant& accountant, const accounting::ClaimRecord& claim,
                    std::int64_t now) {
  if (accountant.claims().count(claim.slot)) {
    if (Status s = accountant.end_claim(claim.slot, now); !s)
      return Error{"the preempted claim on " + claim.slot + " still charged: " + s.error()};
  }
  if (Status s = accountant.begin_claim(claim, now); !s)
    return Error{"the match on " + claim.slot + " not charged to " + claim.submitter + ": " + s.error()};
  return Ok{};
}

}  // namespace cara::claim
