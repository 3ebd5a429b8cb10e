// Why a request ended short (CandidateQueue::rejection_reason and
// limit_refused): HTCondor's ladder asks it of the slots the job matched,
// looked at lazily, and only when the request ends without its slots.
#include <algorithm>
#include <vector>

#include "model/negotiation/candidate_queue.h"

namespace cara::negotiation {

// The busy classes a cut pool walk did not reach, looked at as verify()
// would have: a family known to match gives its reason for certain, one
// not asked yet only if it matches. Those the plain algorithm would not
// have listed (too heavy when the list was made) give none. The ladder
// asks from the most telling reason down, so the first sweep (at the top
// level asked) stops at the first reason that holds and keeps the others
// for the levels below; each family's match is evaluated once.
bool CandidateQueue::past_cut_holds(PastCut& pc, Unfit level) {
  if (pc.swept) {
    for (const PastCut::Reason& r : pc.pending)
      if (r.why == level && past_cut_gives(pc, r)) return true;
    return false;
  }
  pc.swept = true;
  const std::vector<ClassRanks::BusyClass>& busy = ranks_.pool_busy();  // in the pool-wide order
  // Those the walk passed over, and from the cut on (if it was cut) all.
  auto first = !pool_cut_
                   ? busy.end()
                   : std::partition_point(busy.begin(), busy.end(), [&](const ClassRanks::BusyClass& b) {
                       return !after_cut(ranks_.rank(b.cls));
                     });
  const int submitter = ranks_.remote_id(request_.submitter);
  // By family: whether the request lists it (-1: not known yet), and the
  // most telling reason kept (one match decides for all of a family's
  // classes, so a less telling reason of the same family never holds
  // where a more telling one did not).
  std::vector<signed char> listed(classes_.families(), -1);
  pc.given.assign(classes_.families(), Unfit::None);
  for (auto it = busy.begin(); it != busy.end(); ++it) {
    const ClassRanks::BusyClass& b = *it;
    if (it < first && !ranks_.reasons_only(b.cls)) continue;  // the walk looked at it
    if (classes_.empty(b.cls)) continue;                      // preempted this cycle
    // The class's reason from its own facts (busy_reason()'s rule): it
    // decides for most without looking further.
    const Unfit why = priority_rule(preemption_denied(b.retiring, b.current_rank, b.remote == submitter,
                                                      b.remote_eup, request_.eup, b.slot_rank),
                                    b.reason, b.cls);
    // None: a candidate (limit_refused() finds it).
    if (why <= telling_) continue;
    const auto f = static_cast<std::size_t>(b.family);
    if (why <= pc.given[f]) continue;
    const signed char state = family_state(b.family);
    if (state == kClosed) continue;
    if (listed[f] < 0)
      listed[f] = ranks_.in_pool(b.family) && family_independent(b.family) && affordable_(b.weight) ? 1 : 0;
    if (listed[f] == 0) continue;
    pc.given[f] = why;
    const PastCut::Reason r{why, b.family, classes_.head(b.cls), state == kOpen || state == kRefused};
    if (why == level && past_cut_gives(pc, r)) return true;
    pc.pending.push_back(r);
  }
  return false;
}

bool CandidateQueue::past_cut_gives(PastCut& pc, const PastCut::Reason& r) {
  if (r.known) return true;
  if (pc.matched.empty()) pc.matched.assign(classes_.families(), -1);
  signed char& m = pc.matched[static_cast<std::size_t>(r.family)];
  if (m < 0) m = matches(request_, pool_.slots()[r.head], env_) ? 1 : 0;
  return m == 1;
}

Unfit CandidateQueue::rejection_reason() {
  PastCut past;
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
    read_untakeable_ = true;
    for (std::size_t slot : classes_.untakeable())
      if (untakeable_reason(slot) == why && matches(request_, pool_.slots()[slot], env_)) return why;
    if (pool_walked_ && past_cut_holds(past, why)) return why;
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
      return !classes_.empty(c) && (!classes_.busy(c) || busy_reason(c) == Unfit::None);
    });
    if (takeable == members.end()) return false;
    return family_matches(f, pool_.slots()[classes_.head(*takeable)]);
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
      return !classes_.busy(c) || busy_reason(c) == Unfit::None;
    if (state != kUnasked) return false;
    state = kClosed;
    return ranks_.may_be_taken(f) && (!prefilter_ || family_may_match(f)) && family_has_candidate(f);
  };
  const std::vector<int>& order = ranks_.order(ClassRanks::kPool);
  const std::vector<int>& families = ranks_.pool_families();
  // Classes of families no job may take, and those with no slot left, are
  // passed over in one step (has_candidate() would say no to each).
  for (std::size_t i = ranks_.next_candidate(pool_cut_pos_); i < order.size();
       i = ranks_.next_candidate(i + 1)) {
    const signed char state = family_state(families[i]);
    if (state == kClosed || state == kRefused) continue;  // has_candidate() would say no
    if (has_candidate(order[i])) return true;
  }
  const std::vector<PoolPlace>& late = ranks_.late();
  for (std::size_t i = pool_cut_after_ ? late_group(pool_cut_key_).second : late_group(pool_cut_key_).first;
       i < late.size(); ++i)
    if (has_candidate(late[i].cls)) return true;
  return false;
}

}  // namespace cara::negotiation
