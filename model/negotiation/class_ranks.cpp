#include "model/negotiation/class_ranks.h"

#include <algorithm>
#include <map>

#include "model/accounting/accountant_config.h"
#include "model/classad/references.h"
#include "model/common/text.h"
#include "model/negotiation/slot_assessment.h"

namespace cara::negotiation {
namespace {

// Ranks tie when every key of the potential match list but the job Rank
// (one value per family and request) is equal.
bool same_place(const ClassRank& a, const ClassRank& b) {
  return a.pre == b.pre && a.post == b.post && a.reason == b.reason && a.preemption_rank == b.preemption_rank;
}

bool goes_before(const ClassRank& a, const ClassRank& b) {
  if (a.pre != b.pre) return a.pre > b.pre;
  if (a.post != b.post) return a.post > b.post;
  if (a.reason != b.reason) return a.reason < b.reason;
  return a.preemption_rank > b.preemption_rank;
}

}  // namespace

ClassRanks::ClassRanks(const SlotPool& pool, const SlotClasses& classes, const NegotiatorPolicy& policy,
                       const classad::EvalEnv& env, bool presort) {
  static const classad::ClassAd kNoJob;
  ranks_.resize(classes.size());
  known_classes_ = classes.size();
  families_.resize(classes.families());
  if (!presort) return;
  std::map<std::vector<std::string>, int> interned;
  for (std::size_t f = 0; f < classes.families(); ++f) {
    FamilyOrder& fo = families_[f];
    classad::References refs;
    bool presortable = true;
    for (int c : classes.members(static_cast<int>(f))) {
      if (classes.empty(c)) continue;
      const PoolSlot& slot = pool.slots()[classes.head(c)];
      // A busy slot's reason must not depend on the job (its Rank reads
      // none of it); an idle slot's Rank is not asked. A partitionable
      // slot that may preempt its dynamic slots offers what they hold.
      if ((slot.use == SlotUse::Busy && !slot.rank_constant) || !slot.children.empty()) {
        presortable = false;
        break;
      }
      ClassRank& r = ranks_[static_cast<std::size_t>(c)];
      const classad::ClassAd& ad = *slot.ad;
      std::vector<const classad::ExprPtr*> read = {&policy.pre_job_rank, &policy.post_job_rank};
      r.pre = negotiator_rank(policy.pre_job_rank, ad, kNoJob, env);
      r.post = negotiator_rank(policy.post_job_rank, ad, kNoJob, env);
      if (slot.use == SlotUse::Busy) {
        r.preemption_rank = negotiator_rank(policy.preemption_rank, ad, kNoJob, env);
        r.reason = slot.rank_value > slot.current_rank ? MatchReason::Rank : MatchReason::Priority;
        read.push_back(&policy.preemption_rank);
      }
      for (const classad::ExprPtr* e : read)
        if (*e) classad::collect_references(**e, &ad, refs);
      fo.order.push_back(c);
    }
    if (!presortable) {
      fo.order.clear();
      continue;
    }
    fo.presorted = true;
    sort_groups(fo);
    std::vector<std::string> names;
    for (const std::string& n : refs.external) names.push_back(to_lower(n));
    auto [it, fresh] = interned.emplace(names, static_cast<int>(name_sets_.size()));
    if (fresh) name_sets_.push_back(std::move(names));
    fo.job_names = it->second;
    global_.order.insert(global_.order.end(), fo.order.begin(), fo.order.end());
  }
  // The classes of every presorted family in one order: a request whose
  // job Rank is one value for all slots walks those whose ranks are its
  // own (independent()) together.
  sort_groups(global_);
  global_.presorted = !global_.order.empty();
}

void ClassRanks::sort_groups(FamilyOrder& fo) const {
  std::stable_sort(fo.order.begin(), fo.order.end(), [&](int a, int b) {
    return goes_before(ranks_[static_cast<std::size_t>(a)], ranks_[static_cast<std::size_t>(b)]);
  });
  fo.group_end.assign(fo.order.size(), static_cast<int>(fo.order.size()));
  for (std::size_t i = fo.order.size(); i-- > 1;) {
    const bool tie = same_place(ranks_[static_cast<std::size_t>(fo.order[i - 1])],
                                ranks_[static_cast<std::size_t>(fo.order[i])]);
    fo.group_end[i - 1] = tie ? fo.group_end[i] : static_cast<int>(i);
  }
}

bool ClassRanks::independent(int set, const classad::ClassAd& job) const {
  for (const std::string& name : name_sets_[static_cast<std::size_t>(set)])
    if (job.find(name) != nullptr) return false;
  return true;
}

}  // namespace cara::negotiation
