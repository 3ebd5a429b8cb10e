#include "model/negotiation/class_ranks.h"

#include <algorithm>
#include <bit>
#include <map>
#include <optional>
#include <utility>

#include "model/accounting/accountant_config.h"
#include "model/classad/references.h"
#include "model/common/parallel.h"
#include "model/common/text.h"
#include "model/negotiation/slot_assessment.h"
#include "model/negotiation/slot_memo.h"

namespace cara::negotiation {
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

ClassRanks::ClassRanks(const SlotPool& pool, const SlotClasses& classes, const NegotiatorPolicy& policy,
                       const classad::EvalEnv& env, bool presort, std::vector<classad::Value> group_values,
                       Threads threads)
    : pool_(pool),
      classes_(classes),
      policy_(policy),
      env_(env),
      presort_(presort),
      groups_(pool, env),
      values_(std::move(group_values)) {
  ranks_.resize(classes.size());
  in_order_.resize(classes.size());
  families_.resize(classes.families());
  in_pool_.assign(classes.families(), 0);
  if (!presort) return;
  const bool priority_preemption = policy.priority_preemption_possible();
  // Each family's classes and their rank group, in family order: group_of
  // numbers the groups as it meets them.
  struct Draft {
    std::vector<int> order;
    int group = -2;  // its classes' rank group, once one is seen
    bool presortable = true;
    classad::SymbolReferences refs;
  };
  std::vector<Draft> drafts(classes.families());
  for (std::size_t f = 0; f < classes.families(); ++f) {
    Draft& d = drafts[f];
    for (int c : classes.members(static_cast<int>(f))) {
      if (classes.empty(c)) continue;
      const int g = groups_.group_of(classes.head(c));
      if ((d.group != -2 && g != d.group) || !rankable(pool.slots()[classes.head(c)], g)) {
        d.presortable = false;
        break;
      }
      d.group = g;
      d.order.push_back(c);
    }
  }
  // Their ranks, on the cycle's threads (issue 30): each class's are its
  // own to write, each family's references its own to collect.
  parallel_chunks(drafts.size(), threads.count, threads.min_slots, [&](std::size_t begin, std::size_t end) {
    for (std::size_t f = begin; f < end; ++f) {
      Draft& d = drafts[f];
      if (!d.presortable) continue;
      for (int c : d.order) ranks_[static_cast<std::size_t>(c)] = rank_of(c, d.group, d.refs);
    }
  });
  for (std::size_t f = 0; f < classes.families(); ++f) {
    FamilyOrder& fo = families_[f];
    const bool presortable = drafts[f].presortable;
    const int group = drafts[f].group;
    const classad::SymbolReferences& refs = drafts[f].refs;
    fo.order = std::move(drafts[f].order);
    if (!presortable) {
      fo.order.clear();
      outside_.push_back(static_cast<int>(f));
      continue;
    }
    fo.rank_group = std::max(group, -1);
    fo.may_be_taken = std::any_of(fo.order.begin(), fo.order.end(), [&](int c) {
      const PoolSlot& s = pool.slots()[classes.head(c)];
      return s.use != SlotUse::Busy ||
             (!s.retiring &&
              (ranks_[static_cast<std::size_t>(c)].slot_rank > s.current_rank || priority_preemption));
    });
    fo.presorted = true;
    in_pool_[f] = 1;
    sort_groups(fo);
    fo.job_names = intern(refs);
    set_key(f, fo.job_names, fo.rank_group);
    if (!fo.may_be_taken) {
      reasons_only_.resize(classes.size(), 0);
      for (int c : fo.order) reasons_only_[static_cast<std::size_t>(c)] = 1;  // all busy
    }
    global_.order.insert(global_.order.end(), fo.order.begin(), fo.order.end());
    for (int c : fo.order) {
      in_order_[static_cast<std::size_t>(c)] = 1;
      note_pool_class(c);
    }
  }
  // The classes of every presorted family in one order: a request whose
  // job Rank is one value for all slots walks those whose ranks are its
  // own (independent()) together.
  sort_groups(global_);
  global_families_.reserve(global_.order.size());
  for (int c : global_.order) global_families_.push_back(classes.family_of(c));
  std::stable_sort(busy_.begin(), busy_.end(), [&](const BusyClass& a, const BusyClass& b) {
    return goes_before(ranks_[static_cast<std::size_t>(a.cls)], ranks_[static_cast<std::size_t>(b.cls)]);
  });
  busy_sorted_ = true;
  global_pos_.assign(classes.size(), -1);
  open_bits_.assign(global_.order.size() / 64 + 1, 0);
  for (std::size_t i = 0; i < global_.order.size(); ++i) {
    global_pos_[static_cast<std::size_t>(global_.order[i])] = static_cast<int>(i);
    refresh(global_.order[i]);
  }
}

void ClassRanks::refresh(int c) {
  const auto k = static_cast<std::size_t>(c);
  if (k >= global_pos_.size() || global_pos_[k] < 0) {
    // A class made during the cycle. Those every slot left stay in late()
    // until they are a quarter of it (each walk would pass them one by
    // one: a partitionable slot moves to a new class with each match);
    // swept, one is ranked again should a slot come back to it.
    if (k < in_order_.size() && in_order_[k] != 0 && classes_.empty(c) && ++late_emptied_ * 4 >= late_.size())
      sweep_late();
    return;
  }
  const auto pos = static_cast<std::size_t>(global_pos_[k]);
  const std::uint64_t bit = std::uint64_t{1} << (pos % 64);
  if (!classes_.empty(c) && !reasons_only(c)) {
    open_bits_[pos / 64] |= bit;
  } else {
    open_bits_[pos / 64] &= ~bit;
  }
}

void ClassRanks::sweep_late() {
  // A walk under way holds places, not positions (late_range() finds them
  // again by late_version()).
  auto gone = std::stable_partition(late_.begin(), late_.end(),
                                    [&](const PoolPlace& p) { return !classes_.empty(p.cls); });
  for (auto it = gone; it != late_.end(); ++it) in_order_[static_cast<std::size_t>(it->cls)] = 0;
  late_.erase(gone, late_.end());
  ++late_version_;
  late_emptied_ = 0;
}

std::size_t ClassRanks::next_open(std::size_t pos) const {
  const std::size_t n = global_.order.size();
  if (pos >= n) return n;
  std::size_t w = pos / 64;
  std::uint64_t bits = open_bits_[w] & (~std::uint64_t{0} << (pos % 64));
  while (bits == 0) {
    if (++w >= open_bits_.size()) return n;
    bits = open_bits_[w];
  }
  return std::min(n, w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
}

bool ClassRanks::rankable(const PoolSlot& s, int group) {
  // A busy slot's reason must not depend on the job (its Rank reads none
  // of it, or only through its group's value); an idle slot's Rank is not
  // asked. A partitionable slot that may preempt its dynamic slots offers
  // what they hold.
  return !(s.use == SlotUse::Busy && !s.rank_constant && group < 0) && s.children.empty();
}

bool ClassRanks::at_presorted_rank(int group, const classad::ClassAd& job) const {
  const std::optional<classad::Value> v = groups_.value_for(group, job);
  return v && v->identical(ranked_value(group));
}

ClassRank ClassRanks::rank_of(int c, int group, classad::SymbolReferences& refs) const {
  static const classad::ClassAd kNoJob;
  const std::size_t head = classes_.head(c);
  const PoolSlot& slot = pool_.slots()[head];
  const bool busy = slot.use == SlotUse::Busy;
  // What an unchanged slot's ad gave the same expressions in a cycle
  // before (slot_memo.h, RememberedSlot::ranks).
  RememberedSlot* known = group < 0 ? pool_.remembered(head) : nullptr;
  if (known != nullptr && known->ranks && known->ranks->busy == busy &&
      known->ranks->pre_expr == policy_.pre_job_rank && known->ranks->post_expr == policy_.post_job_rank &&
      known->ranks->preemption_expr == policy_.preemption_rank) {
    const RememberedSlot::KeptRanks& k = *known->ranks;
    ClassRank r;
    r.pre = k.pre;
    r.post = k.post;
    if (busy) {
      r.preemption_rank = k.preemption;
      r.slot_rank = slot.rank_value;
      r.reason = slot.rank_value > slot.current_rank ? MatchReason::Rank : MatchReason::Priority;
    }
    for (const classad::Symbol name : k.external)
      if (std::find(refs.external.begin(), refs.external.end(), name) == refs.external.end())
        refs.external.push_back(name);
    return r;
  }
  // The slot with its Rank at its group's value: what the negotiator's
  // expressions read through My.Rank is then no longer the job's.
  std::optional<classad::ClassAd> at_value;
  double slot_rank = slot.rank_value;
  if (group >= 0) {
    const classad::Value& v = ranked_value(group);
    at_value = with_rank(*slot.ad, v);
    if (!v.number(slot_rank)) slot_rank = 0;  // classad::rank's rule
  }
  const classad::ClassAd& ad = at_value ? *at_value : *slot.ad;
  bool outside = false;
  classad::EvalEnv probe = env_;
  probe.outside_read = &outside;
  ClassRank r;
  std::vector<const classad::ExprPtr*> read = {&policy_.pre_job_rank, &policy_.post_job_rank};
  r.pre = negotiator_rank(policy_.pre_job_rank, ad, kNoJob, probe);
  r.post = negotiator_rank(policy_.post_job_rank, ad, kNoJob, probe);
  if (busy) {
    r.preemption_rank = negotiator_rank(policy_.preemption_rank, ad, kNoJob, probe);
    r.slot_rank = slot_rank;
    r.reason = slot_rank > slot.current_rank ? MatchReason::Rank : MatchReason::Priority;
    read.push_back(&policy_.preemption_rank);
  }
  classad::SymbolReferences own;
  for (const classad::ExprPtr* e : read)
    if (*e) classad::collect_references(**e, &ad, own);
  for (const classad::Symbol name : own.external)
    if (std::find(refs.external.begin(), refs.external.end(), name) == refs.external.end())
      refs.external.push_back(name);
  if (known != nullptr && !outside)
    known->ranks = RememberedSlot::KeptRanks{
        policy_.pre_job_rank, policy_.post_job_rank,  policy_.preemption_rank, busy, r.pre, r.post,
        r.preemption_rank,    std::move(own.external)};
  return r;
}

void ClassRanks::note_pool_class(int c) {
  const std::size_t head = classes_.head(c);
  const PoolSlot& slot = pool_.slots()[head];
  if (slot.use == SlotUse::Busy) {
    const ClassRank& r = ranks_[static_cast<std::size_t>(c)];
    BusyClass b;
    b.cls = c;
    b.family = classes_.family_of(c);
    b.remote = remotes_.emplace(slot.remote_key, static_cast<int>(remotes_.size())).first->second;
    b.retiring = slot.retiring;
    b.reason = r.reason;
    b.weight = slot.weight;
    b.current_rank = slot.current_rank;
    b.slot_rank = r.slot_rank;
    b.remote_eup = slot.remote_eup;
    // In the pool-wide order: the constructor sorts them once at its end,
    // one added later goes to its place.
    auto at = busy_sorted_ ? std::upper_bound(busy_.begin(), busy_.end(), b,
                                              [&](const BusyClass& x, const BusyClass& y) {
                                                return goes_before(ranks_[static_cast<std::size_t>(x.cls)],
                                                                   ranks_[static_cast<std::size_t>(y.cls)]);
                                              })
                           : busy_.end();
    busy_.insert(at, b);
  }
  if (!slot.partitionable || !policy_.use_slot_weights) {
    weights_.fixed_min = std::min(weights_.fixed_min, slot.partitionable ? 1.0 : slot.weight);
  } else if (slot.weight_signature < 0) {
    weights_.unweighed = true;
  } else if (std::none_of(weights_.signatures.begin(), weights_.signatures.end(),
                          [&](const auto& s) { return s.first == slot.weight_signature; })) {
    weights_.signatures.emplace_back(slot.weight_signature, head);
  }
}

void ClassRanks::set_key(std::size_t f, int names, int group) {
  if (keys_.size() <= f) keys_.resize(std::max(f + 1, families_.size()), -1);
  auto [it, fresh] = key_by_pair_.emplace(std::make_pair(names, group), static_cast<int>(key_pairs_.size()));
  if (fresh) {
    key_pairs_.emplace_back(names, group);
    by_key_.emplace_back();
  }
  keys_[f] = it->second;
  by_key_[static_cast<std::size_t>(it->second)].push_back(static_cast<int>(f));
}

int ClassRanks::intern(const classad::SymbolReferences& refs) {
  std::vector<classad::Symbol> names = refs.external;
  std::sort(names.begin(), names.end());
  auto [it, fresh] = interned_.emplace(names, static_cast<int>(name_sets_.size()));
  if (fresh) name_sets_.push_back(std::move(names));
  return it->second;
}

void ClassRanks::add_class(int c) {
  const auto k = static_cast<std::size_t>(c);
  if (ranks_.size() <= k) {
    ranks_.resize(k + 1);
    in_order_.resize(k + 1);
  }
  const int f = classes_.family_of(c);
  const auto fk = static_cast<std::size_t>(f);
  const bool fresh_family = families_.size() <= fk;
  if (fresh_family) {
    // Families made during the cycle: outside the pool-wide order unless
    // this one joins it below (it is the last of them).
    for (std::size_t g = families_.size(); g <= fk; ++g) outside_.push_back(static_cast<int>(g));
    families_.resize(fk + 1);
    in_pool_.resize(fk + 1, 0);
  }
  FamilyOrder& fo = families_[fk];
  if (!fo.may_be_taken) ++flips_;
  fo.may_be_taken = true;  // what a slot left over offers is not known ahead
  if (in_order_[k]) return;
  if (!presort_ || classes_.empty(c)) return note_unranked(c);
  const int group = groups_.group_of(classes_.head(c));
  if (!rankable(pool_.slots()[classes_.head(c)], group)) return note_unranked(c);  // a fresh family stays out
  classad::SymbolReferences refs;
  const ClassRank r = rank_of(c, group, refs);
  const int names = intern(refs);
  if (fresh_family) {
    outside_.pop_back();  // it is in the pool after all
    in_pool_[fk] = 1;
    fo.job_names = names;
    fo.rank_group = group;
    set_key(fk, names, group);
  }
  // A class whose ranks look up other names than its family's, or rank at
  // another group's value, stays out (requests assess it on its own):
  // whether a request walks a family must not change while it walks.
  if (in_pool_[fk] == 0 || names != fo.job_names || group != fo.rank_group) return note_unranked(c);
  ranks_[k] = r;
  in_order_[k] = 1;
  note_pool_class(c);
  const PoolPlace place{r, c};
  ++late_version_;
  late_.insert(std::upper_bound(late_.begin(), late_.end(), place,
                                [](const PoolPlace& a, const PoolPlace& b) {
                                  if (goes_before(a.rank, b.rank)) return true;
                                  if (goes_before(b.rank, a.rank)) return false;
                                  return a.cls < b.cls;
                                }),
               place);
}

void ClassRanks::note_unranked(int c) {
  const auto k = static_cast<std::size_t>(c);
  if (in_unranked_.size() <= k) in_unranked_.resize(k + 1, 0);
  if (in_unranked_[k] != 0) return;
  in_unranked_[k] = 1;
  unranked_late_.push_back(c);
}

void ClassRanks::sort_groups(FamilyOrder& fo) const {
  auto before = [&](int a, int b) {
    return goes_before(ranks_[static_cast<std::size_t>(a)], ranks_[static_cast<std::size_t>(b)]);
  };
  if (fo.order.size() <= 16) {
    // Most families hold one class or a few: sorted by insertion, which
    // is as stable as std::stable_sort (the same order) and needs none of
    // the buffer that allocates at every call (every family, every cycle).
    for (std::size_t i = 1; i < fo.order.size(); ++i) {
      const int item = fo.order[i];
      std::size_t j = i;
      for (; j > 0 && before(item, fo.order[j - 1]); --j) fo.order[j] = fo.order[j - 1];
      fo.order[j] = item;
    }
  } else {
    std::stable_sort(fo.order.begin(), fo.order.end(), before);
  }
  fo.group_end.assign(fo.order.size(), static_cast<int>(fo.order.size()));
  for (std::size_t i = fo.order.size(); i-- > 1;) {
    const bool tie = same_place(ranks_[static_cast<std::size_t>(fo.order[i - 1])],
                                ranks_[static_cast<std::size_t>(fo.order[i])]);
    fo.group_end[i - 1] = tie ? fo.group_end[i] : static_cast<int>(i);
  }
}

bool ClassRanks::independent(int set, const classad::ClassAd& job) const {
  for (const classad::Symbol name : name_sets_[static_cast<std::size_t>(set)])
    if (job.find(name) != nullptr) return false;
  return true;
}

}  // namespace cara::negotiation
