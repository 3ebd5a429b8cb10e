// The negotiator's ranks of each slot class, evaluated once per cycle
// instead of once per request (DESIGN.md, "Performance shape").
//
// A candidate's place in the potential match list (central-manager-
// configuration, "The Negotiation Cycle") is NEGOTIATOR_PRE_JOB_RANK, job
// Rank, NEGOTIATOR_POST_JOB_RANK, reason, PREEMPTION_RANK. Within a family
// (slot_classes.h) the job Rank is one value per request, and the defaults
// of the three negotiator expressions read only the slot (RemoteOwner,
// Cpus, Memory, KFlops, SlotID, RemoteUserPrio, TotalJobRunTime). For a
// request whose job defines none of the names those expressions would
// look up in it, their values are the ones computed against an empty job,
// so a family's classes can be sorted once: a request then walks its
// matching families best first and stops as soon as it has its slots,
// instead of assessing every busy slot of the pool. A family with a busy
// slot whose Rank reads the job (the reason would depend on it), or with a
// partitionable slot that may preempt its dynamic slots, is not
// presorted; a request assesses its classes one by one.
//
// A request whose job Rank is one value for every slot (none, or one that
// reads only the job: most jobs) walks all presorted families at once in
// the pool-wide order, and stops when it has its slots: it asks a family
// whether it matches only when the walk reaches it (issue 30). A request
// whose job Rank reads the slot walks them too, each tie group's classes
// placed by their job Rank when the walk reaches them (it reorders only
// classes of equal NEGOTIATOR_PRE_JOB_RANK).
//
// A slot whose own Rank reads the job and nothing of the slot is ranked
// at the value that Rank takes for no job (rank_groups.h), or in a view at
// the value some jobs give it (rank_views.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/eval_env.h"
#include "model/classad/references.h"
#include "model/negotiation/cycle_types.h"
#include "model/negotiation/negotiator_policy.h"
#include "model/negotiation/rank_groups.h"
#include "model/negotiation/slot_classes.h"
#include "model/negotiation/slot_pool.h"

namespace cara::negotiation {

struct ClassRank {
  double pre = 0, post = 0, preemption_rank = 0;
  MatchReason reason = MatchReason::NoPreemption;
  double slot_rank = 0;  // a busy slot's Rank of the job, as ranked (not a key of the order)
};

// A class made during the cycle, at its place in the pool-wide order: its
// ranks, then its number.
struct PoolPlace {
  ClassRank rank;
  int cls = -1;
};
// Ranks in the order of the potential match list, the best first.
bool goes_before(const ClassRank& a, const ClassRank& b);
bool same_place(const ClassRank& a, const ClassRank& b);

class ClassRanks {
 public:
  // With `presort` off no family is presorted (the plain algorithm). The
  // arguments must outlive this object (add_class reads them).
  // `group_values`: the value each rank group's slots are ranked at, by
  // group (a view for the jobs that give them, rank_views.h); a group
  // past its end, at the value its Rank takes for no job. Each must be a
  // number or a boolean. The classes are ranked on `threads`.
  ClassRanks(const SlotPool& pool, const SlotClasses& classes, const NegotiatorPolicy& policy,
             const classad::EvalEnv& env, bool presort, std::vector<classad::Value> group_values = {},
             Threads threads = {});

  // A class made during the cycle (a partitionable slot that gave some of
  // its resources away, into a class no slot had before): ranked, and put
  // in the pool-wide order (late()) when its family's ranks allow.
  void add_class(int c);
  // The classes add_class() left out of the pool-wide order (each once,
  // in the order first given; some may be empty by now): of the classes
  // made during the cycle, the only ones a request that walks the pool
  // assesses on their own (CandidateQueue::fill), instead of passing over
  // every other one for each request.
  const std::vector<int>& unranked_late() const { return unranked_late_; }

  // The pool-wide order: the classes of every presorted family, best
  // first, in tie groups as a family's; `kPool` stands for it where a
  // family is asked for (order, group_end). Classes made during the cycle
  // are in late() instead, by their place.
  static constexpr int kPool = -2;
  const std::vector<PoolPlace>& late() const { return late_; }
  // The family of each class of the pool-wide order made at the start (a
  // sweep past a cut walk reads it, not each class, to skip the families
  // it is done with).
  const std::vector<int>& pool_families() const { return global_families_; }
  // Changes whenever late() does (a class added, or the empty ones swept).
  std::uint64_t late_version() const { return late_version_; }
  bool pool_presorted() const { return !global_.order.empty() || !late_.empty(); }
  // Whether the family walks in the pool-wide order: its classes are in it
  // but for those made during the cycle that ranked() says are not.
  bool in_pool(int family) const {
    return static_cast<std::size_t>(family) < in_pool_.size() &&
           in_pool_[static_cast<std::size_t>(family)] != 0;
  }
  // What a match to a class of the pool-wide order weighs at least, for
  // any job: the least weight of its slots that are not partitionable, and
  // the weight signatures of those that are (a request weighs each once:
  // representative slot `slot`); `unweighed` when one of them has none.
  struct PoolWeights {
    double fixed_min = std::numeric_limits<double>::infinity();
    std::vector<std::pair<int, std::size_t>> signatures;  // (signature, slot)
    bool unweighed = false;
  };
  const PoolWeights& pool_weights() const { return weights_; }
  // The busy classes of the pool-wide order (they give reasons), in its
  // order (busy classes are never made during the cycle), with what the
  // reason reads of each (a request scans them all when its pool walk is
  // cut short: kept together, they are read in one sweep).
  struct BusyClass {
    int cls = -1, family = -1;
    int remote = -1;  // remote_id() of the submitter running there
    bool retiring = false;
    MatchReason reason = MatchReason::Priority;
    double weight = 0, current_rank = 0, slot_rank = 0, remote_eup = 0;
  };
  const std::vector<BusyClass>& pool_busy() const { return busy_; }
  // The number pool_busy() gives a submitter (lower-cased), -1 when none
  // of those slots runs its jobs.
  int remote_id(const std::string& submitter) const {
    auto it = remotes_.find(submitter);
    return it == remotes_.end() ? -1 : it->second;
  }
  // Whether a presorted family has a class some job may take: an idle one,
  // or a busy one that is not retiring and that its Rank (as ranked) or
  // PREEMPTION_REQUIREMENTS may give up. False: it only ever gives reasons.
  bool may_be_taken(int family) const {
    return static_cast<std::size_t>(family) >= families_.size() ||
           families_[static_cast<std::size_t>(family)].may_be_taken;
  }

  // The first position from `pos` on, in the pool-wide order made at the
  // start, whose class may give a request a slot: every class between is
  // of a family no job may take, or has no slot left. While no family has
  // been made takeable since the start, a class that is not reasons_only()
  // is of a family some job may take, so that is next_open(); once one has
  // (a class added to it), `pos` itself.
  std::size_t next_candidate(std::size_t pos) const { return flips_ == 0 ? next_open(pos) : pos; }

  // The first position from `pos` on, in the pool-wide order made at the
  // start, whose class a walk may take something from: it has slots left
  // and is not reasons_only(). The classes between give a walk nothing: a
  // request late in the cycle passes the thousands emptied before it in
  // one step instead of one by one.
  std::size_t next_open(std::size_t pos) const;
  // Class `c` may have gained its first slot or lost its last (a match):
  // its place in next_open() follows; a class of late() that lost its last
  // is swept out of it with the others once they are a quarter of it.
  void refresh(int c);

  // A busy class of the pool-wide order whose family no job could take
  // when the order was made (may_be_taken()): the pool walk passes over it
  // and a request ends short asks its reason in one sweep instead
  // (CandidateQueue::past_cut_holds). Busy classes are never made during
  // the cycle, so this never changes.
  bool reasons_only(int c) const {
    return static_cast<std::size_t>(c) < reasons_only_.size() &&
           reasons_only_[static_cast<std::size_t>(c)] != 0;
  }

  // Whether class `c` is in the pool-wide order.
  bool ranked(int c) const {
    return static_cast<std::size_t>(c) < in_order_.size() && in_order_[static_cast<std::size_t>(c)] != 0;
  }

  bool presorted(int family) const {
    return static_cast<std::size_t>(family) < families_.size() &&
           families_[static_cast<std::size_t>(family)].presorted;
  }
  // The family's classes, best first; a group of classes whose ranks tie
  // runs from `pos` to group_end(family, pos).
  const std::vector<int>& order(int family) const { return of(family).order; }
  std::size_t group_end(int family, std::size_t pos) const {
    return static_cast<std::size_t>(of(family).group_end[pos]);
  }
  const ClassRank& rank(int c) const { return ranks_[static_cast<std::size_t>(c)]; }

  // Whether `job` defines none of the names of set `set` (the names a
  // family's ranks look up in the job, interned: families that read the
  // same names share a set): the presorted ranks are then its own.
  bool independent(int set, const classad::ClassAd& job) const;

  // The family's (name set, rank group) pair as one number: families with
  // the same are the request's own alike, so a request decides once per
  // number, not once per family. -1 when the family has no ranks.
  int independence_key(int family) const {
    return static_cast<std::size_t>(family) < keys_.size() ? keys_[static_cast<std::size_t>(family)] : -1;
  }
  std::size_t independence_keys() const { return key_pairs_.size(); }
  // The families with independence key `key` (some may have no slots
  // left by now), and those the pool-wide order does not hold (no key):
  // a request that walks the pool lists only these and the families of
  // keys that are not its own, not every family of the pool.
  const std::vector<int>& families_with_key(int key) const { return by_key_[static_cast<std::size_t>(key)]; }
  const std::vector<int>& outside_pool() const { return outside_; }
  int key_names(int key) const { return key_pairs_[static_cast<std::size_t>(key)].first; }
  int key_group(int key) const { return key_pairs_[static_cast<std::size_t>(key)].second; }
  // Whether `job` gives the Rank of rank group `group` the value its
  // families were ranked at (ranked_value).
  bool at_presorted_rank(int group, const classad::ClassAd& job) const;
  const classad::Value& ranked_value(int group) const {
    const auto g = static_cast<std::size_t>(group);
    return g < values_.size() ? values_[g] : groups_.unread(group);
  }
  const RankGroups& rank_groups() const { return groups_; }

 private:
  struct FamilyOrder {
    bool presorted = false;  // `order` holds its classes
    std::vector<int> order;
    std::vector<int> group_end;
    int job_names = -1;
    int rank_group = -1;
    bool may_be_taken = true;
  };
  const FamilyOrder& of(int family) const {
    return family == kPool ? global_ : families_[static_cast<std::size_t>(family)];
  }
  // Whether slot `s`'s ranks can be computed once for every job (of those
  // at its rank group's value, `group` >= 0).
  static bool rankable(const PoolSlot& s, int group);
  // Class `c`'s ranks against no job (with the slot's Rank at group
  // `group`'s value); adds what they look up in the job to `refs`.
  ClassRank rank_of(int c, int group, classad::SymbolReferences& refs) const;
  int intern(const classad::SymbolReferences& refs);
  // Class `c` joins the pool-wide order: its weight and use are noted.
  void note_pool_class(int c);
  void sort_groups(FamilyOrder& fo) const;

  const SlotPool& pool_;
  const SlotClasses& classes_;
  const NegotiatorPolicy& policy_;
  const classad::EvalEnv& env_;
  bool presort_;
  std::vector<ClassRank> ranks_;
  std::vector<unsigned char> in_order_;  // by class: in the pool-wide order
  std::vector<FamilyOrder> families_;
  FamilyOrder global_;
  std::vector<int> global_families_;
  std::vector<unsigned char> in_pool_;       // by family: the pool-wide order holds its classes (in_pool())
  std::vector<std::uint64_t> open_bits_;     // next_open(): by position in global_.order
  std::vector<int> global_pos_;              // by class: its position in global_.order, or -1
  std::vector<unsigned char> reasons_only_;  // by class
  std::size_t flips_ = 0;                    // families made takeable since
  std::vector<PoolPlace> late_;              // sorted by place (goes_before, then class)
  std::vector<int> unranked_late_;
  std::vector<unsigned char> in_unranked_;  // by class: in unranked_late_
  void note_unranked(int c);
  std::uint64_t late_version_ = 0;
  PoolWeights weights_;
  std::vector<BusyClass> busy_;
  bool busy_sorted_ = false;
  std::unordered_map<std::string, int> remotes_;
  std::size_t late_emptied_ = 0;  // classes of late_ refresh() found empty since the last sweep
  void sweep_late();
  std::map<std::vector<classad::Symbol>, int> interned_;  // sorted
  std::vector<std::vector<classad::Symbol>> name_sets_;
  // Family `f` ranks with name set `names` at rank group `group`.
  void set_key(std::size_t f, int names, int group);
  std::vector<int> keys_;  // by family
  std::vector<std::vector<int>> by_key_;
  std::vector<int> outside_;
  std::map<std::pair<int, int>, int> key_by_pair_;
  std::vector<std::pair<int, int>> key_pairs_;
  RankGroups groups_;
  std::vector<classad::Value> values_;  // by rank group; see the constructor
};

}  // namespace cara::negotiation
