#include "model/negotiation/candidate_queue.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/classad/match.h"
#include "model/classad/references.h"

namespace cara::negotiation {
namespace {

constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
constexpr int kClassEntry = -1;  // Entry::family of an assessed class
constexpr int kPool = ClassRanks::kPool;

}  // namespace

CandidateQueue::CandidateQueue(const RequestContext& request, const SlotPool& pool,
                               const SlotClasses& classes, const ClassRanks& ranks,
                               const NegotiatorPolicy& policy, const classad::EvalEnv& env, CycleStats& stats,
                               bool prefilter, FamilyMatches* matches)
    : request_(request),
      pool_(pool),
      classes_(classes),
      ranks_(ranks),
      policy_(policy),
      env_(env),
      stats_(stats),
      weights_(static_cast<std::size_t>(pool.weight_signatures()), std::numeric_limits<double>::quiet_NaN()),
      priority_preemption_(policy.priority_preemption_possible()),
      matches_(matches) {
  if (prefilter) {
    prefilter_.emplace(*request.job, env);
    for (const RequestPrefilter::Test& t : prefilter_->tests())
      prefilter_columns_.push_back(classes.column_of(t.attr));
  }
  requests_read_slot_ = false;
  for (const char* attr : {"RequestCpus", "RequestMemory", "RequestDisk"}) {
    const classad::Attribute* a = request.job->find(attr);
    if (a == nullptr || !a->expr || a->is_literal()) continue;
    classad::References refs;
    classad::collect_references(*a->expr, request.job, refs);
    requests_read_slot_ = requests_read_slot_ || !refs.external.empty();
  }
}

double CandidateQueue::weight(const PoolSlot& slot) {
  if (slot.weight_signature < 0 || (!slot.consumption_policy && requests_read_slot_))
    return match_weight(slot, *request_.job, policy_, env_);
  double& w = weights_[static_cast<std::size_t>(slot.weight_signature)];
  if (std::isnan(w)) w = match_weight(slot, *request_.job, policy_, env_);
  return w;
}

void CandidateQueue::push(const Entry& e) {
  heap_.push_back(e);
  std::push_heap(heap_.begin(), heap_.end(), worse);
}

bool CandidateQueue::key_independent(int key) {
  const auto k = static_cast<std::size_t>(key);
  if (key_independent_.size() <= k) key_independent_.resize(ranks_.independence_keys(), -1);  // made since
  signed char& known = key_independent_[k];
  if (known < 0) known = ranks_independent(ranks_.key_names(key), ranks_.key_group(key)) ? 1 : 0;
  return known == 1;
}

bool CandidateQueue::ranks_independent(int names, int group) {
  if (!ranks_.independent(names, *request_.job)) return false;
  // A family ranked at its slots' Rank's value for no job: the order is
  // the request's own only if its job gives Rank that value too.
  return group < 0 || ranks_.at_presorted_rank(group, *request_.job);
}

void CandidateQueue::assess_class(int c, FamilyFacts* facts) {
  const std::size_t head = classes_.head(c);
  const PoolSlot& slot = pool_.slots()[head];
  // A busy slot whose constant Rank cannot prefer the job, and whose user
  // the job may not preempt, is no candidate: known without evaluating
  // anything (most busy slots, most of the time). Whether the job matches
  // it is asked only if the reason it gives decides the rejection.
  if (slot.use == SlotUse::Busy && slot.rank_constant) {
    const Unfit why = preemption_denied(request_, slot, slot.rank_value);
    if (why != Unfit::None) {
      if (why > telling_) unmatched_.emplace_back(why, head);
      return;
    }
  }
  Assessment a = assess(request_, slot, policy_, env_, facts);
  ++stats_.slot_evaluations;
  if (!a.candidate() && !slot.children.empty())
    a = assess_pslot_preemption(request_, slot, pool_.slots(), policy_, env_);
  if (a.candidate()) {
    push({a, head, c, -1, true});
  } else if (a.unmatched) {
    if (a.unfit > telling_) unmatched_.emplace_back(a.unfit, head);
  } else if (a.unfit > telling_) {
    telling_ = a.unfit;
  }
}

bool CandidateQueue::family_may_match(int f) const {
  const std::vector<RequestPrefilter::Test>& tests = prefilter_->tests();
  for (std::size_t i = 0; i < tests.size(); ++i) {
    // A name the family key does not read has no cell: that test is left
    // to the evaluation (the prefilter only ever spares work).
    const int column = prefilter_columns_[i];
    if (column >= 0 && !RequestPrefilter::passes(tests[i], classes_.cell(f, column))) return false;
  }
  return true;
}

bool CandidateQueue::family_matches(int family, const PoolSlot& slot) {
  if (matches_ != nullptr) {
    const signed char known = matches_->get(family);
    if (known != FamilyMatches::kUnknown) return known == FamilyMatches::kYes;
  }
  const std::string* key = kept_ != nullptr ? classes_.family_key(family) : nullptr;
  if (key != nullptr) {
    if (const signed char kept = kept_->get(*key); kept != MatchMemo::kUnknown) {
      ++stats_.kept_matches;
      if (matches_ != nullptr) matches_->set(family, kept == MatchMemo::kYes);
      return kept == MatchMemo::kYes;
    }
  }
  ++stats_.slot_evaluations;
  bool matched = false;
  if (key == nullptr) {
    matched = idle_candidate(request_, slot, env_);
  } else {
    // Kept only when the answer reads nothing of the world outside the
    // two ads.
    bool outside = false;
    classad::EvalEnv probe = env_;
    probe.outside_read = &outside;
    matched = idle_candidate(request_, slot, probe);
    if (outside && env_.outside_read != nullptr) *env_.outside_read = true;
    if (!outside) kept_->set(*key, matched);
  }
  if (matches_ != nullptr) matches_->set(family, matched);
  return matched;
}

std::optional<double> CandidateQueue::constant_job_rank() const {
  static const classad::ClassAd kNoSlot;
  const classad::Attribute* rank = request_.job->find("Rank");
  if (rank != nullptr && rank->expr && !rank->is_literal()) {
    classad::References refs;
    classad::collect_references(*rank->expr, request_.job, refs);
    if (!refs.external.empty()) return std::nullopt;  // reads the slot
  }
  return classad::rank(*request_.job, kNoSlot, env_);
}

double CandidateQueue::known_weight(int f) const {
  double w = classes_.fixed_weight(f);
  if (const int sig = classes_.weight_signature(f);
      sig >= 0 && (pool_.signature_consumption(sig) || !requests_read_slot_))
    w = weights_[static_cast<std::size_t>(sig)];
  return w;
}

void CandidateQueue::fill(const std::function<bool(double weight)>& affordable,
                          const std::function<bool(double weight)>& affordable_now) {
  ++stats_.candidate_lists;
  affordable_ = affordable;
  affordable_now_ = affordable_now;
  // A job Rank that is one value for every slot: the presorted families
  // whose ranks are the request's own (the job defines none of the names
  // they look up in it) are walked together, each asked whether it matches
  // only when the walk reaches it.
  // A job Rank that reads the slot walks them too, run by run of equal
  // NEGOTIATOR_PRE_JOB_RANK (expand()), unless PREEMPTION_REQUIREMENTS may
  // let the job preempt by priority: a walk the limits cut short then
  // owes the reasons of every busy class past the cut, each evaluating
  // PREEMPTION_REQUIREMENTS (past_cut_holds), where a family walked on its
  // own is dropped whole when the limit refuses it.
  std::optional<double> pool_rank;
  if (ranks_.pool_presorted()) pool_rank = constant_job_rank();
  const bool pool_walk = ranks_.pool_presorted() && (pool_rank || !priority_preemption_);
  auto list = [&](int f) {
    // The family's classes agree on every slot attribute the requests'
    // Requirements read: one look at its row rules them all out. (Not a
    // partitionable slot whose busy dynamic slots it may preempt: the job
    // is matched against it with their resources added.)
    if (prefilter_ && !classes_.with_children(f) && !family_may_match(f)) {
      ++stats_.prefiltered;
      return;
    }
    // Too heavy for the request's limits, known from the family alone when
    // its weight signature was weighed already (most families, most
    // requests: a small slice refuses most partitionable slots).
    double w = known_weight(f);
    if (!std::isnan(w) && !affordable(w)) {
      deferred_.push_back(f);
      return;
    }
    const int live = classes_.live_member(f);
    if (live < 0) return;
    const PoolSlot& slot = pool_.slots()[classes_.head(live)];
    const std::vector<int>& members = classes_.members(f);
    // Every slot of a family weighs the same for the job.
    if (std::isnan(w)) w = weight(slot);
    if (!affordable(w)) {
      deferred_.push_back(f);
      return;
    }
    if (!ranks_.presorted(f) || !family_independent(f)) {
      // Every class of a family gives the job alike what the family key
      // holds (the match, both Ranks): evaluated once for all of them.
      FamilyFacts facts;
      for (int c : members)
        if (!classes_.empty(c)) assess_class(c, &facts);
      return;
    }
    if (!family_matches(f, slot)) return;
    ++stats_.presorted_walks;
    Walk& walk = walks_[f];
    walk = Walk{};
    walk.job_rank = classad::rank(*request_.job, *slot.ad, env_);
    advance(f, walk, true);
  };
  if (pool_walk) {
    // The pool walk holds the families whose ranks are the request's own:
    // list only the others, found by key, not by a sweep of the pool.
    for (int f : ranks_.outside_pool())
      if (classes_.family_live(f)) list(f);
    for (std::size_t key = 0; key < ranks_.independence_keys(); ++key) {
      if (key_independent(static_cast<int>(key))) continue;
      for (int f : ranks_.families_with_key(static_cast<int>(key)))
        if (classes_.family_live(f)) list(f);
    }
  } else {
    for (int f : classes_.live_families()) list(f);
  }
  // Classes made this cycle (a partitionable slot that gave resources
  // away) are in no family's order, and in the pool-wide one only when
  // ranked: the others are assessed one by one.
  auto list_late = [&](int c) {
    const int f = classes_.family_of(c);
    if (pool_walk && ranks_.in_pool(f) && family_independent(f)) {
      if (!ranks_.ranked(c)) assess_class(c);
    } else if (ranks_.presorted(f) && family_independent(f)) {
      assess_class(c);
    }
  };
  if (pool_walk) {
    // A ranked class is walked in the pool-wide order (its family is in
    // the pool) or left to list() (its family's ranks are not the job's):
    // only those the ranks left out can need listing here.
    for (int c : ranks_.unranked_late())
      if (classes_.late(c) && !classes_.empty(c)) list_late(c);
  } else {
    for (int c : classes_.late_live()) list_late(c);
  }
  if (pool_walk) {
    pool_walked_ = true;
    family_state_.assign(classes_.families(), kUnasked);
    Walk& walk = walks_[kPool];
    walk = Walk{};
    // Each tie group of the pool-wide order stands in the list for what
    // it holds: at the job's Rank when that is one value, else above any
    // value, so that it comes up before every candidate of its
    // NEGOTIATOR_PRE_JOB_RANK and gives them their own places.
    by_pre_ = !pool_rank;
    walk.job_rank = pool_rank ? *pool_rank : std::numeric_limits<double>::infinity();
    advance(kPool, walk, true);
  }
}

void CandidateQueue::push_walk(int f, const Walk& walk, const ClassRank& r, std::size_t lowest) {
  Entry e;
  e.a.unfit = Unfit::None;
  e.a.reason = r.reason;
  e.a.pre = r.pre;
  e.a.job_rank = walk.job_rank;
  e.a.post = r.post;
  e.a.preemption_rank = r.preemption_rank;
  e.head = lowest;  // a lower bound until the group is verified
  e.family = f;
  e.verified = false;
  push(e);
}

bool CandidateQueue::advance(int f, Walk& walk, bool first) {
  walk.viable.clear();
  const std::vector<int>& order = ranks_.order(f);
  std::size_t pos = first ? 0 : walk.end;
  if (f != kPool) {
    for (; pos < order.size(); pos = ranks_.group_end(f, pos)) {
      const std::size_t end = ranks_.group_end(f, pos);
      std::size_t lowest = kNone;
      for (std::size_t i = pos; i < end; ++i)
        if (!classes_.empty(order[i])) lowest = std::min(lowest, classes_.head(order[i]));
      if (lowest != kNone) {
        walk.pos = pos;
        walk.end = end;
        push_walk(f, walk, ranks_.rank(order[pos]), lowest);
        return true;
      }
    }
    return false;
  }
  // The pool walk merges the order made at the start with the classes
  // made since (late()), group by group.
  const std::vector<PoolPlace>& late = ranks_.late();
  std::size_t lpos = first ? 0 : late_range(walk).second;
  auto open = [&](int c) {
    if (classes_.empty(c)) return false;
    // A busy class of a family no job may take gives only reasons:
    // rejection_reason() sweeps them, should the request end short.
    if (ranks_.reasons_only(c)) return false;
    const signed char state = family_state(classes_.family_of(c));
    return state == kOpen || state == kUnasked;
  };
  while (true) {
    // Past the classes every slot has left (next_open): they would only
    // be looked at and passed.
    pos = ranks_.next_open(pos);
    if (pos >= order.size() && lpos >= late.size()) break;
    ClassRank key;
    if (lpos >= late.size() || (pos < order.size() && !goes_before(late[lpos].rank, ranks_.rank(order[pos]))))
      key = ranks_.rank(order[pos]);
    else
      key = late[lpos].rank;
    const std::size_t end =
        pos < order.size() && same_place(ranks_.rank(order[pos]), key) ? ranks_.group_end(f, pos) : pos;
    std::size_t lend = lpos;
    while (lend < late.size() && same_place(late[lend].rank, key)) ++lend;
    std::size_t lowest = kNone;
    for (std::size_t i = pos; i < end; ++i)
      if (open(order[i])) lowest = std::min(lowest, classes_.head(order[i]));
    for (std::size_t i = lpos; i < lend; ++i)
      if (open(late[i].cls)) lowest = std::min(lowest, classes_.head(late[i].cls));
    if (lowest != kNone) {
      walk.pos = pos;
      walk.end = end;
      walk.key = key;
      walk.late = {lpos, lend};
      walk.late_version = ranks_.late_version();
      push_walk(f, walk, key, lowest);
      return true;
    }
    pos = end;
    lpos = lend;
  }
  return false;
}

void CandidateQueue::verify(int f, Walk& walk) {
  auto check = [&](int c) {
    if (classes_.empty(c)) return;
    if (f == kPool && ranks_.reasons_only(c)) return;  // as advance()
    const bool busy = classes_.busy(c);
    if (f == kPool && busy && busy_denied_unasked(c)) return;
    if (f == kPool && !family_open(classes_.family_of(c))) {
      // A family the limit refused matched: its busy classes' reasons
      // hold (its takeable ones were refused).
      if (family_state(classes_.family_of(c)) == kRefused && busy) {
        const Unfit why = busy_reason(c);
        if (why > telling_) telling_ = why;
      }
      return;
    }
    Unfit why = Unfit::None;
    // The family matched the job, so a reason found here is the job's.
    if (busy) why = busy_reason(c);
    if (why == Unfit::None) {
      walk.viable.push_back(c);
    } else if (why > telling_) {
      telling_ = why;
    }
  };
  const std::vector<int>& order = ranks_.order(f);
  for (std::size_t i = walk.pos; i < walk.end; ++i) check(order[i]);
  if (f != kPool) return;
  // The classes made since the walk reached this group are here too.
  const auto [first, last] = late_range(walk);
  for (std::size_t i = first; i < last; ++i) check(ranks_.late()[i].cls);
}

std::pair<std::size_t, int> CandidateQueue::viable_head(const Walk& walk) const {
  std::pair<std::size_t, int> best{kNone, -1};
  for (int c : walk.viable)
    if (!classes_.empty(c) && classes_.head(c) < best.first) best = {classes_.head(c), c};
  return best;
}

void CandidateQueue::repush_family(Entry e) {
  Walk& walk = walks_[e.family];
  const auto [head, c] = viable_head(walk);
  if (c < 0) {
    advance(e.family, walk, false);
    return;
  }
  e.head = head;
  push(e);
}

std::optional<Candidate> CandidateQueue::next() {
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), worse);
    Entry e = heap_.back();
    heap_.pop_back();
    int cls = e.cls;
    std::size_t head = kNone;
    if (e.family == kClassEntry) {
      if (classes_.empty(cls)) continue;
      head = classes_.head(cls);
    } else {
      Walk& walk = walks_[e.family];
      if (e.family == kPool && !affordable_now_(pool_floor())) {
        // Nothing the pool walk has left can be afforded now, nor later in
        // this list: it ends here; what it did not reach is looked at only
        // for the reason, should the request end short.
        cut_pool(walk, e.verified);
        continue;
      }
      if (e.family == kPool && by_pre_) {
        expand(walk);
        continue;
      }
      if (!e.verified) {
        verify(e.family, walk);
        e.verified = true;
      }
      const auto viable = viable_head(walk);
      if (viable.second < 0) {
        advance(e.family, walk, false);
        continue;
      }
      head = viable.first;
      cls = viable.second;
    }
    if (head != e.head) {  // the first slot went to an earlier job: a later place in the list
      e.head = head;
      push(e);
      continue;
    }
    last_ = e;
    last_.cls = cls;
    return Candidate{head, cls, e.a};
  }
  return std::nullopt;
}

Unfit CandidateQueue::busy_reason(int c) {
  const PoolSlot& slot = pool_.slots()[classes_.head(c)];
  // The family is walked in its presorted order, so the job gives the
  // slot's Rank the value it was ranked at.
  return priority_rule(
      preemption_denied(request_, slot, slot.rank_constant ? slot.rank_value : ranks_.rank(c).slot_rank),
      ranks_.rank(c).reason, c);
}

Unfit CandidateQueue::priority_rule(Unfit denied, MatchReason reason, int c) {
  // The job's priority alone would take the slot: PREEMPTION_REQUIREMENTS
  // decides (not evaluated when it can never be true).
  if (denied != Unfit::None || reason != MatchReason::Priority) return denied;
  if (priority_preemption_ && preemption_allowed(request_, pool_.slots()[classes_.head(c)], policy_, env_))
    return Unfit::None;
  return Unfit::PreemptionRequirements;
}

void CandidateQueue::refused() {
  refused_ = true;
  // A class the pool walk listed on its own (expand()): its family is
  // refused, as below, for the groups the walk has yet to reach.
  if (last_.from_pool) family_state(classes_.family_of(last_.cls)) = kRefused;
  if (last_.family != kPool) return;  // a class, or a family: all of it weighs the same
  // In the pool walk only the candidate's family is dropped.
  const int f = classes_.family_of(last_.cls);
  family_state(f) = kRefused;
  std::vector<int>& viable = walks_[kPool].viable;
  viable.erase(
      std::remove_if(viable.begin(), viable.end(), [&](int c) { return classes_.family_of(c) == f; }),
      viable.end());
  repush_family(last_);
}

void CandidateQueue::skipped() {
  if (last_.family == kClassEntry) return;
  std::vector<int>& viable = walks_[last_.family].viable;
  viable.erase(std::remove(viable.begin(), viable.end(), last_.cls), viable.end());
  repush_family(last_);
}

void CandidateQueue::took(int moved) {
  if (last_.family != kClassEntry) {
    repush_family(last_);
  } else if (!classes_.empty(last_.cls)) {
    push(last_);  // the class's next slot, alike
  }
  // What the partitionable slot has left, in the class it moved to: on
  // offer again at its own place in the list (an order made before it moved
  // does not hold it where it is now).
  if (moved >= 0) assess_class(moved);
}

}  // namespace cara::negotiation
