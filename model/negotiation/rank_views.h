// The pool-wide orders of one cycle (issue 30). The base order ranks the
// slots of each rank group (rank_groups.h: a Rank that reads the job and
// nothing of the slot, such as a site's preference for one group) at the
// value that Rank takes for no job; a request whose job gives it another
// value (the preferred group's jobs, which such slots would take by rank
// preemption) cannot walk those families with the pool and assesses them
// one by one, which grows as requests × machines. A view is the same
// order with the groups ranked at the values some requests' jobs give
// them: those requests walk the pool in it. Same candidates in the same
// order as the plain algorithm either way (central-manager-configuration,
// "The Negotiation Cycle"); a view only spares the work.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/eval_env.h"
#include "model/classad/value.h"
#include "model/negotiation/class_ranks.h"
#include "model/negotiation/negotiator_policy.h"
#include "model/negotiation/slot_classes.h"
#include "model/negotiation/slot_pool.h"

namespace cara::negotiation {

class RankViews {
 public:
  // Views are made for the value sets `jobs` give most often (at most
  // kMaxViews besides the base): each costs a ranking of every class.
  static constexpr std::size_t kMaxViews = 4;

  // The arguments must outlive this object; `jobs` need not. Each view is
  // ranked on `threads`.
  RankViews(const SlotPool& pool, const SlotClasses& classes, const NegotiatorPolicy& policy,
            const classad::EvalEnv& env, bool presort, const std::vector<const classad::ClassAd*>& jobs,
            Threads threads = {});

  // The view ranked at the values `job` gives the rank groups, else the
  // base (its families of those groups are then assessed one by one).
  const ClassRanks& for_job(const classad::ClassAd& job) const;
  const ClassRanks& base() const { return *views_.front(); }
  std::size_t size() const { return views_.size(); }
  // A class made during the cycle joins every view.
  void add_class(int c);
  // Class `c` gained its first slot or lost its last (ClassRanks::refresh).
  void refresh(int c);

 private:
  // The values `job` gives the rank groups known at the start; none when
  // one cannot be known before a slot is matched, or could not rank a
  // slot (neither a number nor a boolean).
  std::optional<std::vector<classad::Value>> values_of(const classad::ClassAd& job) const;

  std::vector<std::unique_ptr<ClassRanks>> views_;   // [0]: the base
  std::vector<std::vector<classad::Value>> values_;  // by view; [0] empty
  // The rank groups known at the start (a group made during the cycle is
  // at its value for no job in every view).
  std::size_t groups_ = 0;
};

}  // namespace cara::negotiation
