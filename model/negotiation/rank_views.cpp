#include "model/negotiation/rank_views.h"

#include <algorithm>
#include <utility>

namespace cara::negotiation {

RankViews::RankViews(const SlotPool& pool, const SlotClasses& classes, const NegotiatorPolicy& policy,
                     const classad::EvalEnv& env, bool presort,
                     const std::vector<const classad::ClassAd*>& jobs, Threads threads) {
  views_.push_back(std::make_unique<ClassRanks>(pool, classes, policy, env, presort,
                                                std::vector<classad::Value>{}, threads));
  values_.emplace_back();
  groups_ = base().rank_groups().size();
  if (!presort || groups_ == 0) return;
  // The value sets other than the base's, by how many requests give them
  // (ties: the first given first — a stable sort —, so the choice is
  // deterministic).
  struct Seen {
    std::vector<classad::Value> values;
    std::size_t count = 0;
  };
  std::vector<Seen> seen;
  for (const classad::ClassAd* job : jobs) {
    std::optional<std::vector<classad::Value>> v = values_of(*job);
    if (!v) continue;
    bool unread = true;
    for (std::size_t g = 0; g < v->size() && unread; ++g)
      unread = (*v)[g].identical(base().rank_groups().unread(static_cast<int>(g)));
    if (unread) continue;
    auto it = std::find_if(seen.begin(), seen.end(),
                           [&](const Seen& s) { return classad::identical(s.values, *v); });
    if (it == seen.end()) {
      seen.push_back({std::move(*v), 1});
    } else {
      ++it->count;
    }
  }
  std::stable_sort(seen.begin(), seen.end(), [](const Seen& a, const Seen& b) { return a.count > b.count; });
  if (seen.size() > kMaxViews) seen.resize(kMaxViews);
  for (Seen& s : seen) {
    views_.push_back(std::make_unique<ClassRanks>(pool, classes, policy, env, presort, s.values, threads));
    values_.push_back(std::move(s.values));
  }
}

std::optional<std::vector<classad::Value>> RankViews::values_of(const classad::ClassAd& job) const {
  const RankGroups& groups = base().rank_groups();
  std::vector<classad::Value> values;
  values.reserve(groups_);
  for (std::size_t g = 0; g < groups_; ++g) {
    std::optional<classad::Value> v = groups.value_for(static_cast<int>(g), job);
    if (!v || !(v->is_number() || v->is_bool())) return std::nullopt;
    values.push_back(std::move(*v));
  }
  return values;
}

const ClassRanks& RankViews::for_job(const classad::ClassAd& job) const {
  if (views_.size() == 1) return base();
  const std::optional<std::vector<classad::Value>> v = values_of(job);
  if (v)
    for (std::size_t i = 1; i < views_.size(); ++i)
      if (classad::identical(values_[i], *v)) return *views_[i];
  return base();
}

void RankViews::refresh(int c) {
  for (auto& view : views_) view->refresh(c);
}

void RankViews::add_class(int c) {
  for (auto& view : views_) view->add_class(c);
}

}  // namespace cara::negotiation
