#include "model/negotiation/negotiator_ads.h"

#include <algorithm>

#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/classad/unparse.h"
#include "model/config/config.h"

namespace cara::negotiation {

std::string negotiator_name(const config::Config& config) {
  for (const char* knob : {"NEGOTIATOR_NAME", "FULL_HOSTNAME"}) {
    auto name = config.string(knob);
    if (name && !name->empty()) return *name;
  }
  return "negotiator";
}

classad::ClassAd negotiator_ad(const std::string& name, std::int64_t cycles, const CycleStats& last,
                               const std::string& address) {
  classad::ClassAd ad;
  ad.set("MyType", "Negotiator");
  ad.set("Name", name);
  if (!address.empty()) ad.set("MyAddress", address);
  ad.set("NegotiationCycles", cycles);
  for (const auto& [attr, value] : last.attributes()) ad.set(attr, value);
  return ad;
}

void set_active_term(classad::ClassAd& ad, const ActiveTerm& t) {
  ad.set("HadActive", true);
  ad.set("HadTerm", t.term);
  ad.set("HadActiveSince", t.since);
}

std::int64_t active_term_of(const classad::ClassAd& ad) {
  const classad::Value v = classad::evaluate_attr(ad, "HadTerm");
  return v.is_int() ? v.as_int() : 0;
}

classad::ClassAd accounting_ad(const accounting::CustomerRecord& r, const std::string& negotiator) {
  classad::ClassAd a;
  a.set("MyType", "Accounting");
  a.set("Name", r.name);
  if (!negotiator.empty()) a.set("NegotiatorName", negotiator);
  a.set("IsAccountingGroup", r.is_group);
  a.set("Priority", r.priority);
  a.set("PriorityFactor", r.factor);
  a.set("EffectivePriority", r.eup());
  a.set("ResourcesUsed", r.resources_used);
  a.set("WeightedResourcesUsed", r.weighted_resources_used);
  a.set("AccumulatedUsage", r.accumulated_usage);
  a.set("WeightedAccumulatedUsage", r.weighted_accumulated_usage);
  a.set("BeginUsageTime", r.begin_usage_time);
  a.set("LastUsageTime", r.last_usage_time);
  if (r.floor) a.set("Floor", r.floor->value);
  if (r.ceiling) a.set("Ceiling", r.ceiling->value);
  return a;
}

std::vector<classad::ClassAd> submitter_cycle_ads(const CycleResult& result, std::int64_t cycle_time) {
  std::vector<classad::ClassAd> out;
  for (const SubmitterOutcome& s : result.submitters) {
    std::vector<std::string> reasons;
    if (!s.held_back.empty()) reasons.push_back(s.held_back);
    for (const Rejection& r : result.rejections)
      if (r.submitter == s.name && std::find(reasons.begin(), reasons.end(), r.reason) == reasons.end())
        reasons.push_back(r.reason);
    classad::ClassAd a;
    a.set("Name", s.name);
    a.set("CycleTime", cycle_time);
    a.set("Matched", s.matched);
    std::string list;
    for (const std::string& r : reasons) list += (list.empty() ? "" : ", ") + classad::quoted(r);
    if (auto e = classad::parse_expression("{" + list + "}")) a.insert("Rejections", *e);
    out.push_back(std::move(a));
  }
  return out;
}

classad::ClassAd claim_ad(const accounting::ClaimRecord& c) {
  classad::ClassAd a;
  a.set("Name", c.slot);
  a.set("Submitter", c.submitter);
  a.set("SlotWeight", c.weight);
  a.set("StartTime", c.start);
  return a;
}

classad::ClassAd group_ad(const GroupOutcome& o, std::int64_t cycle) {
  classad::ClassAd a;
  a.set("MyType", "Accounting");
  a.set("Name", o.name);
  a.set("IsAccountingGroup", true);
  a.set("ConfigQuota", o.configured_quota);
  a.set("EffectiveQuota", o.effective_quota);
  a.set("SubtreeQuota", o.subtree_quota);
  a.set("SurplusPolicy", o.accept_surplus ? "byquota" : "no");
  a.set("Requested", o.requested);
  a.set("GroupResourcesAllocated", o.allocated);
  a.set("GroupResourcesInUse", o.usage);
  a.set("Oversubscribed", o.oversubscribed);
  a.set("MatchesLastCycle", o.matched);
  a.set("GroupSortKey", o.sort_key);
  a.set("NegotiationTurn", static_cast<std::int64_t>(o.turn));
  a.set("LastCycle", cycle);
  return a;
}

}  // namespace cara::negotiation
