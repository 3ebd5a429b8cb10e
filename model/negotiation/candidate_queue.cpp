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
enum : signed char { kUnasked = 0, kOpen = 1, kClosed = 2 };  // a family, in the pool walk

}  // namespace

CandidateQueue::CandidateQueue(const RequestContext& request, const SlotPool& pool,
                               const SlotClasses& classes, const ClassRanks& ranks,
                               const NegotiatorPolicy& policy, const classad::EvalEnv& env, CycleStats& stats,
                               bool prefilter)
    : request_(request),
      pool_(pool),
      classes_(classes),
      ranks_(ranks),
      policy_(policy),
      env_(env),
      stats_(stats),
      independent_(ranks.job_name_sets(), -1),
      weights_(static_cast<std::size_t>(pool.weight_signatures()), std::numeric_limits<double>::quiet_NaN()) {
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

bool CandidateQueue::family_independent(int family) {
  const int set = ranks_.job_names(family);
  signed char& known = independent_[static_cast<std::size_t>(set)];
  if (known < 0) known = ranks_.independent(set, *request_.job) ? 1 : 0;
  return known == 1;
}

void CandidateQueue::assess_class(int c) {
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
  Assessment a = assess(request_, slot, policy_, env_);
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

bool CandidateQueue::family_open(int f) {
  signed char& state = family_state_[static_cast<std::size_t>(f)];
  if (state != kUnasked) return state == kOpen;
  state = kClosed;
  if (!family_independent(f)) return false;  // fill() lists it on its own
  if (prefilter_ && !family_may_match(f)) {
    ++stats_.prefiltered;
    return false;
  }
  double w = known_weight(f);
  if (!std::isnan(w) && !affordable_(w)) {
    deferred_.emplace_back(f, w);
    return false;
  }
  const std::vector<int>& members = classes_.members(f);
  auto first = std::find_if(members.begin(), members.end(), [&](int c) { return !classes_.empty(c); });
  if (first == members.end()) return false;
  const PoolSlot& slot = pool_.slots()[classes_.head(*first)];
  if (std::isnan(w)) w = weight(slot);
  if (!affordable_(w)) {
    deferred_.emplace_back(f, w);
    return false;
  }
  ++stats_.slot_evaluations;
  if (!idle_candidate(request_, slot, env_)) return false;
  ++stats_.presorted_walks;
  state = kOpen;
  return true;
}

void CandidateQueue::fill(const std::function<bool(double weight)>& affordable) {
  ++stats_.candidate_lists;
  affordable_ = affordable;
  // A job Rank that is one value for every slot: the presorted families
  // whose ranks are the request's own (the job defines none of the names
  // they look up in it) are walked together, each asked whether it matches
  // only when the walk reaches it.
  std::optional<double> pool_rank;
  if (ranks_.pool_presorted()) pool_rank = constant_job_rank();
  for (int f : classes_.live_families()) {
    if (pool_rank && ranks_.presorted(f) && family_independent(f)) continue;
    // The family's classes agree on every slot attribute the requests'
    // Requirements read: one look at its row rules them all out. (Not a
    // partitionable slot whose busy dynamic slots it may preempt: the job
    // is matched against it with their resources added.)
    if (prefilter_ && !classes_.with_children(f) && !family_may_match(f)) {
      ++stats_.prefiltered;
      continue;
    }
    // Too heavy for the request's limits, known from the family alone when
    // its weight signature was weighed already (most families, most
    // requests: a small slice refuses most partitionable slots).
    double w = known_weight(f);
    if (!std::isnan(w) && !affordable(w)) {
      deferred_.emplace_back(f, w);
      continue;
    }
    const std::vector<int>& members = classes_.members(f);
    auto first = std::find_if(members.begin(), members.end(), [&](int c) { return !classes_.empty(c); });
    if (first == members.end()) continue;
    const PoolSlot& slot = pool_.slots()[classes_.head(*first)];
    // Every slot of a family weighs the same for the job.
    if (std::isnan(w)) w = weight(slot);
    if (!affordable(w)) {
      deferred_.emplace_back(f, w);
      continue;
    }
    if (!ranks_.presorted(f) || !family_independent(f)) {
      for (int c : members)
        if (!classes_.empty(c)) assess_class(c);
      continue;
    }
    ++stats_.slot_evaluations;
    if (!idle_candidate(request_, slot, env_)) continue;
    ++stats_.presorted_walks;
    Walk& walk = walks_[f];
    walk = Walk{};
    walk.job_rank = classad::rank(*request_.job, *slot.ad, env_);
    push_group(f, walk, 0);
  }
  // Classes made this cycle (a partitionable slot that gave resources
  // away) are in no presorted order: assessed one by one.
  for (int c : classes_.late_live()) {
    const int f = classes_.family_of(c);
    if (ranks_.presorted(f) && family_independent(f)) assess_class(c);
  }
  if (pool_rank) {
    family_state_.assign(classes_.families(), kUnasked);
    Walk& walk = walks_[kPool];
    walk = Walk{};
    walk.job_rank = *pool_rank;
    push_group(kPool, walk, 0);
  }
}

bool CandidateQueue::push_group(int f, Walk& walk, std::size_t pos) {
  const std::vector<int>& order = ranks_.order(f);
  while (pos < order.size()) {
    const std::size_t end = ranks_.group_end(f, pos);
    std::size_t lowest = kNone;
    for (std::size_t i = pos; i < end; ++i)
      if (!classes_.empty(order[i]) &&
          (f != kPool || family_state_[static_cast<std::size_t>(classes_.family_of(order[i]))] != kClosed))
        lowest = std::min(lowest, classes_.head(order[i]));
    if (lowest != kNone) {
      walk.pos = pos;
      walk.viable.clear();
      const ClassRank& r = ranks_.rank(order[pos]);
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
      return true;
    }
    pos = end;
  }
  return false;
}

void CandidateQueue::verify(int f, Walk& walk) {
  const std::vector<int>& order = ranks_.order(f);
  for (std::size_t i = walk.pos, end = ranks_.group_end(f, walk.pos); i < end; ++i) {
    const int c = order[i];
    if (classes_.empty(c)) continue;
    if (f == kPool && !family_open(classes_.family_of(c))) continue;
    const PoolSlot& slot = pool_.slots()[classes_.head(c)];
    Unfit why = Unfit::None;
    if (slot.use == SlotUse::Busy) {
      // The family matched the job, so a reason found here is the job's.
      why = preemption_denied(request_, slot, slot.rank_value);
      if (why == Unfit::None && ranks_.rank(c).reason == MatchReason::Priority &&
          !preemption_allowed(request_, slot, policy_, env_))
        why = Unfit::PreemptionRequirements;
    }
    if (why == Unfit::None) {
      walk.viable.push_back(c);
    } else if (why > telling_) {
      telling_ = why;
    }
  }
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
    push_group(e.family, walk, ranks_.group_end(e.family, walk.pos));
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
      if (!e.verified) {
        verify(e.family, walk);
        e.verified = true;
      }
      const auto viable = viable_head(walk);
      if (viable.second < 0) {
        push_group(e.family, walk, ranks_.group_end(e.family, walk.pos));
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

void CandidateQueue::refused(double weight) {
  if (!refused_ || weight < *refused_) refused_ = weight;
  if (last_.family != kPool) return;  // a class, or a family: all of it weighs the same
  // In the pool walk only the candidate's family is dropped.
  const int f = classes_.family_of(last_.cls);
  family_state_[static_cast<std::size_t>(f)] = kClosed;
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

Unfit CandidateQueue::rejection_reason() const {
  // The most telling reason whose slot the job matches: reasons from the
  // most telling down, each matched only if no better one held.
  auto untakeable_reason = [&](std::size_t slot) {
    const PoolSlot& s = pool_.slots()[slot];
    const Unfit why = preemption_denied(request_, s, s.rank_value);
    // Busy slots nobody can take: PREEMPTION_REQUIREMENTS == False for a
    // user it would otherwise let preempt.
    return why == Unfit::None ? Unfit::PreemptionRequirements : why;
  };
  for (int level = static_cast<int>(Unfit::PreemptionRequirements); level > static_cast<int>(telling_);
       --level) {
    const auto why = static_cast<Unfit>(level);
    for (const auto& [reason, slot] : unmatched_)
      if (reason == why && matches(request_, pool_.slots()[slot], env_)) return why;
    for (std::size_t slot : classes_.untakeable())
      if (untakeable_reason(slot) == why && matches(request_, pool_.slots()[slot], env_)) return why;
  }
  return telling_;
}

bool CandidateQueue::family_has_candidate(int f) {
  const std::vector<int>& members = classes_.members(f);
  if (ranks_.presorted(f) && family_independent(f)) {
    // One match decides for the whole family; then only whether a busy
    // class may be taken, which evaluates nothing but the
    // PREEMPTION_REQUIREMENTS of a priority preemption.
    auto live = std::find_if(members.begin(), members.end(), [&](int c) { return !classes_.empty(c); });
    if (live == members.end()) return false;
    ++stats_.slot_evaluations;
    if (!idle_candidate(request_, pool_.slots()[classes_.head(*live)], env_)) return false;
    for (int c : members) {
      if (classes_.empty(c)) continue;
      const PoolSlot& slot = pool_.slots()[classes_.head(c)];
      if (slot.use != SlotUse::Busy) return true;
      if (preemption_denied(request_, slot, slot.rank_value) != Unfit::None) continue;
      if (ranks_.rank(c).reason == MatchReason::Rank || preemption_allowed(request_, slot, policy_, env_))
        return true;
    }
    return false;
  }
  for (int c : members) {
    if (classes_.empty(c)) continue;
    const PoolSlot& slot = pool_.slots()[classes_.head(c)];
    if (slot.use == SlotUse::Busy && slot.rank_constant &&
        preemption_denied(request_, slot, slot.rank_value) != Unfit::None)
      continue;
    Assessment a = assess(request_, slot, policy_, env_);
    ++stats_.slot_evaluations;
    if (!a.candidate() && !slot.children.empty())
      a = assess_pslot_preemption(request_, slot, pool_.slots(), policy_, env_);
    if (a.candidate()) return true;
  }
  return false;
}

std::optional<double> CandidateQueue::limit_refused_match() {
  // The lightest such slot: the same whichever order the list was walked
  // in (a limit that refuses it refuses every heavier one).
  std::optional<double> lightest = refused_;
  std::stable_sort(deferred_.begin(), deferred_.end(),
                   [](const auto& a, const auto& b) { return a.second < b.second; });
  for (const auto& [f, weight] : deferred_) {
    if (lightest && *lightest <= weight) break;
    if (family_has_candidate(f)) {
      lightest = weight;
      break;
    }
  }
  return lightest;
}

}  // namespace cara::negotiation
