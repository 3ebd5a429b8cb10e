#include "model/negotiation/submitter_attributes.h"

#include "model/classad/eval.h"
#include "model/classad/references.h"
#include "model/classad/symbol.h"

namespace cara::negotiation {
namespace {

constexpr const char* kNames[] = {
    "SubmitterUserPrio",           "SubmitterUserResourcesInUse", "SubmitterGroup",
    "SubmitterNegotiatingGroup",   "SubmitterAutoregroup",        "SubmitterGroupQuota",
    "SubmitterGroupResourcesInUse"};

}  // namespace

void add_submitter_attributes(classad::ClassAd& job, const SubmitterAttributes& a) {
  job.set(kNames[0], a.user_prio);
  job.set(kNames[1], a.resources_in_use);
  job.set(kNames[2], a.group);
  job.set(kNames[3], a.negotiating_group);
  job.set(kNames[4], a.autoregroup);
  if (a.group_quota) job.set(kNames[5], *a.group_quota);
  if (a.group_resources_in_use) job.set(kNames[6], *a.group_resources_in_use);
}

bool reads_submitter_attributes(const classad::ClassAd& job) {
  for (const classad::Attribute& a : job.attributes()) {
    if (!a.expr || a.is_literal()) continue;
    classad::References refs;
    classad::collect_references(*a.expr, &job, refs);
    for (const char* name : kNames)
      if (refs.internal.count(name) != 0 || refs.external.count(name) != 0) return true;
  }
  return false;
}

bool slots_read_submitter_attributes(const SlotClasses& classes) {
  for (const char* name : kNames)
    if (classes.reads(classad::intern(name))) return true;
  return false;
}

std::vector<classad::Value> submitter_attribute_values(const classad::ClassAd& job,
                                                       const classad::EvalEnv& env) {
  std::vector<classad::Value> values;
  for (const char* name : kNames) values.push_back(classad::evaluate_attr(job, name, nullptr, env));
  return values;
}

}  // namespace cara::negotiation
