// Why a request ended short (CandidateQueue::rejection_reason and
// limit_refused): HTCondor's ladder asks it of the slots the job matched,
// looked at lazily, and only when the request ends without its slots.
#include <algorithm>
#include <vector>

#include "model/negotiation/candidate_queue.h"

namespace cara::negotiation {

void CandidateQueue::reasons_past_cut() {
  // The busy classes the cut pool walk did not reach, as verify() would
  // have seen them: a family known to match gives its reasons now, one
  // not asked yet only if it matches (unmatched_). Those the plain
  // algorithm would not have listed (too heavy when the list was made)
  // give none. Each class's reason is read first from its own facts (it
  // decides for most without looking further).
  const std::vector<ClassRanks::BusyClass>& busy = ranks_.pool_busy();  // in the pool-wide order
  auto first = std::partition_point(busy.begin(), busy.end(), [&](const ClassRanks::BusyClass& b) {
    return !after_cut(ranks_.rank(b.cls));
  });
  const int submitter = ranks_.remote_id(request_.submitter);
  // By family: whether the request lists it (-1: not known yet), and the
  // most telling reason it gave so far (one match decides for all of a
  // family's classes, so a less telling reason of the same family can
  // never be the one that holds).
  std::vector<signed char> listed(classes_.families(), -1);
  std::vector<Unfit> given(classes_.families(), Unfit::None);
  for (auto it = first; it != busy.end(); ++it) {
    const ClassRanks::BusyClass& b = *it;
    Unfit why = preemption_denied(b.retiring, b.current_rank, b.remote == submitter, b.remote_eup,
                                  request_.eup, b.slot_rank);
    if (why == Unfit::None && b.reason == MatchReason::Priority &&
        !(priority_preemption_ &&
          preemption_allowed(request_, pool_.slots()[classes_.head(b.cls)], policy_, env_)))
      why = Unfit::PreemptionRequirements;  // busy_reason()'s rule
    // None: a candidate (limit_refused() finds it).
    if (why <= telling_) continue;
    const auto f = static_cast<std::size_t>(b.family);
    if (why <= given[f]) continue;
    const signed char state = family_state(b.family);
    if (state == kClosed) continue;
    if (listed[f] < 0)
      listed[f] = ranks_.in_pool(b.family) && family_independent(b.family) && affordable_(b.weight) ? 1 : 0;
    if (listed[f] == 0 || classes_.empty(b.cls)) continue;
    given[f] = why;
    if (state == kOpen || state == kRefused) {
      telling_ = why;
    } else {
      unmatched_.emplace_back(why, classes_.head(b.cls));
    }
  }
}

Unfit CandidateQueue::rejection_reason() {
  if (pool_cut_) reasons_past_cut();
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
    // One match decides for the whole family, asked only if it has a
    // class the job may take: an idle one, or a busy one whose use allows
    // it (which evaluates nothing but the PREEMPTION_REQUIREMENTS of a
    // priority preemption). Most busy families have none.
    if (!ranks_.may_be_taken(f)) return false;
    auto takeable = std::find_if(members.begin(), members.end(), [&](int c) {
      return !classes_.empty(c) &&
             (pool_.slots()[classes_.head(c)].use != SlotUse::Busy || busy_reason(c) == Unfit::None);
    });
    if (takeable == members.end()) return false;
    ++stats_.slot_evaluations;
    return idle_candidate(request_, pool_.slots()[classes_.head(*takeable)], env_);
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

bool CandidateQueue::limit_refused() {
  if (refused_) return true;
  for (int f : deferred_)
    if (family_has_candidate(f)) return true;
  if (!pool_cut_) return false;
  // What the cut pool walk did not reach: the first family there with a
  // slot the job could take (the plain algorithm listed it, or set it
  // aside, and the limit refused it either way).
  auto has_candidate = [&](int c) {
    if (classes_.empty(c)) return false;
    const int f = classes_.family_of(c);
    if (!ranks_.in_pool(f) || !family_independent(f)) return false;
    signed char& state = family_state(f);
    if (state == kOpen)  // matched: this class is a candidate if the job may take it
      return pool_.slots()[classes_.head(c)].use != SlotUse::Busy || busy_reason(c) == Unfit::None;
    if (state != kUnasked) return false;
    state = kClosed;
    return ranks_.may_be_taken(f) && (!prefilter_ || family_may_match(f)) && family_has_candidate(f);
  };
  const std::vector<int>& order = ranks_.order(ClassRanks::kPool);
  for (std::size_t i = pool_cut_pos_; i < order.size(); ++i)
    if (has_candidate(order[i])) return true;
  const std::vector<PoolPlace>& late = ranks_.late();
  for (std::size_t i = pool_cut_after_ ? late_group(pool_cut_key_).second : late_group(pool_cut_key_).first;
       i < late.size(); ++i)
    if (has_candidate(late[i].cls)) return true;
  return false;
}

}  // namespace cara::negotiation
