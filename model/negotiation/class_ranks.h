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
// whether it matches only when the walk reaches it (issue 30).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/eval_env.h"
#include "model/negotiation/cycle_types.h"
#include "model/negotiation/negotiator_policy.h"
#include "model/negotiation/slot_classes.h"
#include "model/negotiation/slot_pool.h"

namespace cara::negotiation {

struct ClassRank {
  double pre = 0, post = 0, preemption_rank = 0;
  MatchReason reason = MatchReason::NoPreemption;
};

class ClassRanks {
 public:
  // With `presort` off no family is presorted (the plain algorithm).
  ClassRanks(const SlotPool& pool, const SlotClasses& classes, const NegotiatorPolicy& policy,
             const classad::EvalEnv& env, bool presort);

  // The classes there were when the orders were made (later ones, from
  // partitionable slots that gave resources away, are in none).
  std::size_t known_classes() const { return known_classes_; }

  // The pool-wide order: the classes of every presorted family, best
  // first, in tie groups as a family's; `kPool` stands for it where a
  // family is asked for (order, group_end).
  static constexpr int kPool = -2;
  bool pool_presorted() const { return global_.presorted; }

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

  // The names a presorted family's ranks look up in the job (an interned
  // set: families that read the same names share an index).
  int job_names(int family) const { return of(family).job_names; }
  std::size_t job_name_sets() const { return name_sets_.size(); }
  // Whether `job` defines none of the names of set `set`: the presorted
  // ranks are then its own.
  bool independent(int set, const classad::ClassAd& job) const;

 private:
  struct FamilyOrder {
    bool presorted = false;
    std::vector<int> order;
    std::vector<int> group_end;
    int job_names = -1;
  };
  const FamilyOrder& of(int family) const {
    return family == kPool ? global_ : families_[static_cast<std::size_t>(family)];
  }
  void sort_groups(FamilyOrder& fo) const;

  std::vector<ClassRank> ranks_;
  std::vector<FamilyOrder> families_;
  FamilyOrder global_;
  std::size_t known_classes_ = 0;
  std::vector<std::vector<std::string>> name_sets_;
};

}  // namespace cara::negotiation
