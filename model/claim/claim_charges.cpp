#include "model/claim/claim_charges.h"

#include <set>

#include "model/claim/claim_id.h"
#include "model/classad/eval.h"
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

ChargeChanges reconcile(const std::map<std::string, accounting::ClaimRecord>& charged,
                        const std::vector<classad::ClassAd>& slots, bool use_slot_weights,
                        const std::function<bool(const classad::ClassAd&)>& in_shard) {
  std::map<std::string, const classad::ClassAd*> claimed;
  std::set<std::string> matched;  // matched last cycle, not claimed yet: still charged
  for (const classad::ClassAd& s : slots) {
    if (in_shard && !in_shard(s)) continue;
    const std::string state = string_attr(s, "State");
    if (state == "Matched") matched.insert(string_attr(s, "Name"));
    if (state == "Claimed") claimed.emplace(string_attr(s, "Name"), &s);
  }
  ChargeChanges out;
  for (const auto& [slot, claim] : charged)
    if (!claimed.count(slot) && !matched.count(slot)) out.ended.push_back(slot);
  for (const auto& [name, ad] : claimed) {
    if (charged.count(name)) continue;
    std::string user = string_attr(*ad, "AccountingGroup");
    if (user.empty()) user = string_attr(*ad, "RemoteUser");
    if (user.empty()) continue;
    // AccountingGroup holds group.user; the submitter adds the domain.
    const std::string remote = string_attr(*ad, "RemoteUser");
    if (user.find('@') == std::string::npos && remote.find('@') != std::string::npos)
      user += remote.substr(remote.find('@'));
    accounting::ClaimRecord c;
    c.slot = name;
    c.submitter = user;
    c.weight = weight_of(*ad, use_slot_weights);
    out.begun.push_back(std::move(c));
  }
  return out;
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
