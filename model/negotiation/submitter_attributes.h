// The ephemeral Submitter* attributes the negotiator adds to a job's copy
// for its match (user-priorities-and-negotiation, "Priorities in
// Negotiation and Preemption"), so that slot and negotiator expressions
// see them through TARGET. One list: what is added is what a kept match
// (family_matches.h) must watch.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/eval_env.h"
#include "model/classad/value.h"
#include "model/negotiation/slot_classes.h"

namespace cara::negotiation {

struct SubmitterAttributes {
  double user_prio = 0, resources_in_use = 0;
  std::string group, negotiating_group;
  bool autoregroup = false;
  // Of a submitter in a group below the root.
  std::optional<double> group_quota, group_resources_in_use;
};

void add_submitter_attributes(classad::ClassAd& job, const SubmitterAttributes& a);

// Whether an expression of `job` reads one of them.
bool reads_submitter_attributes(const classad::ClassAd& job);
// Whether a slot expression the classes followed reads one of them.
bool slots_read_submitter_attributes(const SlotClasses& classes);
// Their values in `job`, in one order.
std::vector<classad::Value> submitter_attribute_values(const classad::ClassAd& job,
                                                       const classad::EvalEnv& env);

}  // namespace cara::negotiation
