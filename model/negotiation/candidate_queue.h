// The potential match list of one request (central-manager-configuration,
// "The Negotiation Cycle": find the slots the job matches and may take,
// best first by NEGOTIATOR_PRE_JOB_RANK, job Rank, NEGOTIATOR_POST_JOB_RANK,
// reason, PREEMPTION_RANK), built lazily: a presorted family
// (class_ranks.h) is one entry that yields its classes in order, and a
// busy class is asked whether the job may preempt it only when the walk
// reaches it. Other classes are assessed up front (slot_assessment.h).
// The order, ties broken by the lowest slot index, is the plain
// algorithm's exactly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/classad/eval_env.h"
#include "model/negotiation/class_ranks.h"
#include "model/negotiation/cycle_types.h"
#include "model/negotiation/family_matches.h"
#include "model/negotiation/match_memo.h"
#include "model/negotiation/negotiator_policy.h"
#include "model/negotiation/request_prefilter.h"
#include "model/negotiation/slot_assessment.h"
#include "model/negotiation/slot_classes.h"
#include "model/negotiation/slot_pool.h"

namespace cara::negotiation {

struct Candidate {
  std::size_t slot = 0;  // index into the pool
  int cls = -1;
  Assessment assessment;
};

class CandidateQueue {
 public:
  // `matches`: what the request's job gave each family's match in earlier
  // spins (renewed by the caller), or null.
  CandidateQueue(const RequestContext& request, const SlotPool& pool, const SlotClasses& classes,
                 const ClassRanks& ranks, const NegotiatorPolicy& policy, const classad::EvalEnv& env,
                 CycleStats& stats, bool prefilter = true, FamilyMatches* matches = nullptr);

  // What earlier cycles' matches of the request's job gave each family
  // key (match_memo.h), asked when `matches` does not know, or null.
  void keep_in(MatchMemo::Job* kept) { kept_ = kept; }

  // The SlotWeight a match of the request to `slot` would charge
  // (match_weight), computed once per weight signature.
  double weight(const PoolSlot& slot);

  // Lists the live slots; a family whose slots `affordable` refuses by
  // their match weight can give the request nothing, so it is set aside
  // unassessed: whether the job would have matched it matters only for
  // the rejection reason (limit_refused()).
  // `affordable_now` says what the limits allow as matches are made: the
  // pool walk, which looks at a family only when it reaches it, does not
  // match one it could not take now.
  void fill(const std::function<bool(double weight)>& affordable,
            const std::function<bool(double weight)>& affordable_now);

  // The best candidate left. After each, the caller says what became of
  // it: refused() (its weight is over a limit: its family is dropped),
  // skipped() (a concurrency limit: its class is dropped) or took().
  std::optional<Candidate> next();
  void refused();
  void skipped();
  // The candidate's slot left its class (classes.take), or moved to class
  // `moved` (a partitionable slot that stays on offer with what is left).
  void took(int moved = -1);

  // The request can take no more slots (a concurrency limit every
  // candidate would exceed): the pool walk goes on only to find families
  // the limits refuse (limit_refused()), without matching those they do
  // not (they could give nothing).
  void only_refusals() { only_refusals_ = true; }

  // Why the request has no candidate, once next() found none: the most
  // telling reason among the slots the job matches.
  Unfit rejection_reason();
  // Whether rejection_reason() asked the busy slots no request can take
  // (SlotClasses::untakeable(), or those a board left out).
  bool read_untakeable() const { return read_untakeable_; }
  // Whether a limit refused a slot the job matches and may take
  // (HTCondor's rejForSubmitterLimit: a limit is a reason only then): a
  // refused candidate, or a family set aside unassessed (or not reached by
  // a pool walk the limit ended) that has such a slot — assessed now, at
  // the rejection, never before.
  bool limit_refused();

 private:
  struct Entry {
    Assessment a;
    std::size_t head = 0;
    int cls = -1;     // an assessed class (family -1), or
    int family = -1;  // a presorted family or the pool walk (ClassRanks::kPool), at its tie group
    bool verified = false;
    bool from_pool = false;  // a class the pool walk listed on its own (expand())
  };
  struct Walk {                    // a presorted family's progress, or the pool walk's
    std::size_t pos = 0, end = 0;  // the current tie group in the family's order
    ClassRank key;                 // the pool walk's current tie group: its part in late()
    double job_rank = 0;
    std::vector<int> viable;  // classes of the tie group at pos the job may take
    // The pool walk's tie group in late(), as of ClassRanks::late_version().
    std::pair<std::size_t, std::size_t> late{0, 0};
    std::uint64_t late_version = ~std::uint64_t{0};
  };
  // A family, in the pool walk: not asked yet; it may give the request a
  // slot; it gives none; it matched but its slots weigh more than is left.
  enum : signed char { kUnasked = 0, kOpen = 1, kClosed = 2, kRefused = 3 };
  static bool worse(const Entry& x, const Entry& y) { return ranks_before(y.a, y.head, x.a, x.head); }
  void push(const Entry& e);
  // `facts`: what its family gave the job already (assess()).
  void assess_class(int c, FamilyFacts* facts = nullptr);
  // Whether the family's presorted ranks are the request's own: the job
  // defines none of the names of set `names` they read in it, and gives
  // the slots' Rank the value of rank group `group` (if any).
  // Asked for every family of every walk and sweep: decided once per
  // independence key (few: the families' name sets and rank groups).
  bool family_independent(int family) {
    const int key = ranks_.independence_key(family);
    if (key < 0) return false;
    const auto k = static_cast<std::size_t>(key);
    return k < key_independent_.size() && key_independent_[k] >= 0 ? key_independent_[k] == 1
                                                                   : key_independent(key);
  }
  bool key_independent(int key);
  bool ranks_independent(int names, int group);
  // Moves the walk of family `f` (or the pool walk) to its first tie
  // group, or the one after the current, that has a live class, and
  // pushes it (unverified: its head a lower bound); false when none is left.
  bool advance(int f, Walk& walk, bool first);
  void push_walk(int f, const Walk& walk, const ClassRank& r, std::size_t lowest);
  // The run of late() in tie group `key`; that of the pool walk's group.
  std::pair<std::size_t, std::size_t> late_group(const ClassRank& key) const;
  std::pair<std::size_t, std::size_t> late_range(const Walk& walk) const;
  void verify(int f, Walk& walk);
  // The pool walk of a job whose Rank reads the slot (`by_pre_`): the
  // classes of its current tie group the job may take join the list one
  // by one, and the walk moves on.
  void expand(Walk& walk);
  bool by_pre_ = false;
  bool pool_walked_ = false;  // fill() started the pool walk
  bool only_refusals_ = false;
  // The lowest slot index among the viable classes, with its class.
  std::pair<std::size_t, int> viable_head(const Walk& walk) const;
  void repush_family(Entry e);
  bool family_has_candidate(int family);
  // The job's Rank when it is one value for every slot (absent, or reading
  // only the job), else null.
  std::optional<double> constant_job_rank() const;
  // The family's match weight when known without weighing a slot, else NaN.
  double known_weight(int family) const;
  // In the pool walk: whether the family may give the request a slot
  // (prefilter, limits, one match), asked once.
  bool family_open(int family);
  signed char& family_state(int family) {
    const auto k = static_cast<std::size_t>(family);
    if (family_state_.size() <= k) family_state_.resize(classes_.families(), kUnasked);  // one made since
    return family_state_[k];
  }
  // The pool walk reached family `f`, which weighs more than the limits
  // allow now, not when the list was made.
  void set_aside_now(int f);
  // In the pool walk: busy class `c` the job may not take, of a family not
  // asked yet, gives its reason without the family's match (true), or is
  // left to family_open (false).
  bool busy_denied_unasked(int c);

  const RequestContext& request_;
  const SlotPool& pool_;
  const SlotClasses& classes_;
  const ClassRanks& ranks_;
  const NegotiatorPolicy& policy_;
  const classad::EvalEnv& env_;
  CycleStats& stats_;
  std::vector<Entry> heap_;
  std::unordered_map<int, Walk> walks_;
  std::vector<signed char> key_independent_;  // by ClassRanks::independence_key: -1 unknown
  Entry last_;
  std::vector<int> deferred_;                                // families set aside by their weight
  std::function<bool(double)> affordable_, affordable_now_;  // fill()'s, for the pool walk
  std::vector<signed char> family_state_;                    // by family, in the pool walk
  bool refused_ = false;
  // The pool walk ended where nothing left could be afforded (pool_floor):
  // at tie group `pool_cut_key_`, past it when it had been verified;
  // `pool_cut_pos_`: where the unreached part of the order made at the
  // start begins.
  bool pool_cut_ = false, pool_cut_after_ = false;
  ClassRank pool_cut_key_;
  std::size_t pool_cut_pos_ = 0;
  std::optional<double> pool_floor_;
  // The least weight a match in the pool walk can charge this request.
  double pool_floor();
  void cut_pool(const Walk& walk, bool verified);
  bool after_cut(const ClassRank& r) const;
  // The reasons of the busy classes the pool walk did not look at (those
  // past its cut, and those of families no job may take, which it passes
  // over), asked level by level from the most telling
  // (candidate_queue_reasons.cpp).
  struct PastCut {
    struct Reason {
      Unfit why;
      int family;
      std::size_t head;
      bool known;  // the family is known to match
    };
    bool swept = false;
    std::vector<Unfit> given;          // by family: the most telling reason kept
    std::vector<Reason> pending;       // kept for the levels below
    std::vector<signed char> matched;  // by family: -1 not evaluated yet
  };
  bool past_cut_holds(PastCut& pc, Unfit level);
  bool past_cut_gives(PastCut& pc, const PastCut::Reason& r);
  // Why the job may not take busy class `c` of a family it matches; None
  // when it may (by Rank, or by priority as PREEMPTION_REQUIREMENTS allows).
  Unfit busy_reason(int c);
  // `denied` (preemption_denied) of busy class `c`, where the job would
  // take it by priority (`reason`), with PREEMPTION_REQUIREMENTS applied.
  Unfit priority_rule(Unfit denied, MatchReason reason, int c);
  bool requests_read_slot_ = true;  // the job's Request* read the slot (TARGET)
  std::vector<double> weights_;     // by weight signature; NaN: not yet known
  std::optional<RequestPrefilter> prefilter_;
  // PREEMPTION_REQUIREMENTS may let some job preempt by priority (else
  // it is not evaluated: False, or absent).
  bool priority_preemption_ = true;
  std::vector<int> prefilter_columns_;  // by prefilter test: its column in classes_, or -1
  bool family_may_match(int family) const;
  // idle_candidate() of family `family`, whose live slot `slot` is, asked
  // of matches_ first.
  bool family_matches(int family, const PoolSlot& slot);
  FamilyMatches* matches_ = nullptr;
  MatchMemo::Job* kept_ = nullptr;
  Unfit telling_ = Unfit::NoMatch;
  bool read_untakeable_ = false;
  std::vector<std::pair<Unfit, std::size_t>> unmatched_;  // reasons that hold only if the ads match
};

}  // namespace cara::negotiation
