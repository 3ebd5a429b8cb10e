// The pool walk's own steps (CandidateQueue, candidate_queue.h): whether
// a family the walk reaches may give the request a slot, the reasons of
// the busy classes it passes, the walk of a job whose Rank reads the
// slot, and where the limits cut it short.
#include <algorithm>
#include <cmath>
#include <limits>

#include "model/classad/match.h"
#include "model/negotiation/candidate_queue.h"

namespace cara::negotiation {
namespace {

constexpr int kPool = ClassRanks::kPool;

}  // namespace

bool CandidateQueue::family_open(int f) {
  signed char& state = family_state(f);
  if (state != kUnasked) return state == kOpen;
  state = kClosed;
  if (!ranks_.in_pool(f) || !family_independent(f)) return false;  // fill() lists it on its own
  if (prefilter_ && !family_may_match(f)) {
    ++stats_.prefiltered;
    return false;
  }
  double w = known_weight(f);
  if (!std::isnan(w) && !affordable_(w)) {
    deferred_.push_back(f);
    return false;
  }
  const int live = classes_.live_member(f);
  if (live < 0) return false;
  const PoolSlot& slot = pool_.slots()[classes_.head(live)];
  if (std::isnan(w)) w = weight(slot);
  if (!affordable_(w)) {
    deferred_.push_back(f);
    return false;
  }
  if (!affordable_now_(w)) {
    set_aside_now(f);
    return false;
  }
  if (only_refusals_) return false;  // affordable: its slots would only be skipped
  if (!family_matches(f, slot)) return false;
  ++stats_.presorted_walks;
  state = kOpen;
  return true;
}

bool CandidateQueue::busy_denied_unasked(int c) {
  // A busy class the job may not take, whatever the match, of a family the
  // walk has not asked yet: its reason holds if the job matches the family
  // (unmatched_, asked only should the request end short), as assess()
  // has it, so the match is not evaluated for it. A family the request
  // does not walk, rules out or cannot afford is left to family_open().
  const int f = classes_.family_of(c);
  if (family_state(f) != kUnasked || !ranks_.in_pool(f) || !family_independent(f)) return false;
  const double w = known_weight(f);
  if (std::isnan(w) || !affordable_(w) || (prefilter_ && !family_may_match(f))) return false;
  const Unfit why = busy_reason(c);
  if (why == Unfit::None) return false;
  if (why > telling_) unmatched_.emplace_back(why, classes_.head(c));
  return true;
}

void CandidateQueue::set_aside_now(int f) {
  // Affordable when the list was made, so the plain algorithm listed the
  // family and refused its slots one by one when they came up: the limit
  // is a reason if it has a slot the job could take (limit_refused), and
  // its busy classes give theirs should the job match them (unmatched_),
  // all without matching it now.
  deferred_.push_back(f);
  for (int c : classes_.members(f)) {
    if (classes_.empty(c) || !classes_.busy(c)) continue;
    const Unfit why = busy_reason(c);
    if (why > telling_) unmatched_.emplace_back(why, classes_.head(c));
  }
}

std::pair<std::size_t, std::size_t> CandidateQueue::late_group(const ClassRank& key) const {
  const std::vector<PoolPlace>& late = ranks_.late();
  // Sorted by place: the tie group is a run; late() is short.
  auto first = std::partition_point(late.begin(), late.end(),
                                    [&](const PoolPlace& p) { return goes_before(p.rank, key); });
  auto last =
      std::partition_point(first, late.end(), [&](const PoolPlace& p) { return same_place(p.rank, key); });
  return {static_cast<std::size_t>(first - late.begin()), static_cast<std::size_t>(last - late.begin())};
}

std::pair<std::size_t, std::size_t> CandidateQueue::late_range(const Walk& walk) const {
  // advance() found the range when it reached the group; a class made
  // since (late() grew) moves it.
  if (walk.late_version == ranks_.late_version()) return walk.late;
  return late_group(walk.key);
}

void CandidateQueue::expand(Walk& walk) {
  // The list's order is NEGOTIATOR_PRE_JOB_RANK, then the job's Rank, then
  // the rest (central-manager-configuration, "The Negotiation Cycle"): a
  // job Rank that reads the slot reorders only classes of equal
  // NEGOTIATOR_PRE_JOB_RANK, all of which come up after this group's
  // stand-in (its job Rank is above any). So each class the job may take
  // goes into the list at its own place, and the walk moves on to the
  // next group; where the walk stops (a cut, or enough matches) is where
  // the plain algorithm would.
  verify(kPool, walk);
  for (int c : walk.viable) {
    const ClassRank& r = ranks_.rank(c);
    Entry x;
    x.a.unfit = Unfit::None;
    x.a.reason = r.reason;
    x.a.pre = r.pre;
    x.a.job_rank = classad::rank(*request_.job, *pool_.slots()[classes_.head(c)].ad, env_);
    x.a.post = r.post;
    x.a.preemption_rank = r.preemption_rank;
    x.head = classes_.head(c);
    x.cls = c;
    x.verified = true;
    x.from_pool = true;
    push(x);
  }
  advance(kPool, walk, false);
}

double CandidateQueue::pool_floor() {
  if (pool_floor_) return *pool_floor_;
  const ClassRanks::PoolWeights& w = ranks_.pool_weights();
  double floor = w.unweighed ? 0 : w.fixed_min;
  for (const auto& [sig, slot] : w.signatures) {
    // A signature stands for the job's weight only when the job's
    // Request* read nothing of the slot, or a consumption policy decides.
    if (!pool_.signature_consumption(sig) && requests_read_slot_) {
      floor = 0;
      break;
    }
    floor = std::min(floor, weight(pool_.slots()[slot]));
  }
  pool_floor_ = floor;
  return floor;
}

void CandidateQueue::cut_pool(const Walk& walk, bool verified) {
  pool_cut_ = true;
  pool_cut_key_ = walk.key;
  pool_cut_after_ = verified;
  pool_cut_pos_ = verified ? walk.end : walk.pos;
  // A verified group's classes were candidates: the limit refuses them.
  if (verified && viable_head(walk).second >= 0) refused_ = true;
}

bool CandidateQueue::after_cut(const ClassRank& r) const {
  return goes_before(pool_cut_key_, r) || (!pool_cut_after_ && same_place(pool_cut_key_, r));
}

}  // namespace cara::negotiation
