// Slots whose own Rank reads the job and nothing of the slot (a site's
// preference for one group: ifThenElse(TARGET.AcctGroup =?= "cms", 10, 0)).
// The default NEGOTIATOR_PRE_JOB_RANK reads My.Rank and a busy slot's
// preemption reason compares Rank with CurrentRank, so such a slot's place
// in the potential match list (central-manager-configuration, "The
// Negotiation Cycle") depends on the job, but only through that one value.
// Slots whose Rank is spelled alike form a rank group: they are ranked
// once with Rank at the value it takes for no job (class_ranks.h), which
// most jobs give it too (the preferred group is one of many); a request
// whose job gives another value walks them in a view ranked at that value
// (rank_views.h), or assesses them one by one (issue 30).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/eval_env.h"
#include "model/classad/value.h"
#include "model/negotiation/slot_pool.h"

namespace cara::negotiation {

class RankGroups {
 public:
  // The arguments must outlive this object.
  RankGroups(const SlotPool& pool, const classad::EvalEnv& env) : pool_(pool), env_(env) {}

  // The group of pool slot `s`, made if new; -1 when its Rank is constant,
  // reads the slot (its value would differ from slot to slot) or takes a
  // value for no job that no literal Rank could stand for.
  int group_of(std::size_t s);
  std::size_t size() const { return groups_.size(); }
  // The value the group's slots are ranked at: their Rank for no job.
  const classad::Value& unread(int group) const { return groups_[static_cast<std::size_t>(group)].unread; }
  // The value `job` gives the group's Rank; none when a job attribute the
  // Rank reads is itself an expression (it may read the slot): the
  // group's slots are then assessed against the job, which is always
  // right.
  std::optional<classad::Value> value_for(int group, const classad::ClassAd& job) const;

 private:
  struct Group {
    classad::ExprPtr rank;  // the Rank of one of its slots
    std::size_t slot = 0;   // that slot
    classad::Value unread;
    std::vector<std::string> names;  // what it reads of the job
  };
  const SlotPool& pool_;
  const classad::EvalEnv& env_;
  std::map<std::string, int> by_text_;
  std::vector<Group> groups_;
};

// `ad` with its Rank at `value` (a chained copy: the other attributes are
// the slot's own, not copied).
classad::ClassAd with_rank(const classad::ClassAd& ad, const classad::Value& value);

}  // namespace cara::negotiation
