#include "model/negotiation/submitter_attributes.h"

#include <unordered_map>

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

namespace {

// Whether `tree` itself names one of them, in any scope. The question is
// asked of every job of every cycle, and the jobs of a submission share
// their trees (the schedd parses a text once, parser.h): kept by tree, on
// the calling thread (cycles run on several), the trees held so that an
// address is not reused while kept. Bounded: a run of distinct trees
// starts it afresh.
bool tree_reads_submitter(const classad::ExprPtr& tree) {
  struct Kept {
    classad::ExprPtr tree;
    bool reads = false;
  };
  thread_local std::unordered_map<const classad::ExprTree*, Kept> kept;
  if (auto it = kept.find(tree.get()); it != kept.end()) return it->second.reads;
  // Without an ad every name is the tree's own reference: nothing is
  // followed, each attribute's tree is asked on its own.
  classad::References refs;
  classad::collect_references(*tree, nullptr, refs);
  bool reads = false;
  for (const char* name : kNames)
    reads = reads || refs.internal.count(name) != 0 || refs.external.count(name) != 0;
  if (kept.size() >= 4096) kept.clear();
  kept.emplace(tree.get(), Kept{tree, reads});
  return reads;
}

}  // namespace

bool reads_submitter_attributes(const classad::ClassAd& job) {
  // What an expression of the job reads through the job's other
  // attributes is read by those attributes' own trees, which the loop
  // asks too: the names of every visible tree, each on its own, are the
  // names the expressions read.
  for (const classad::Attribute& a : job.attributes()) {
    if (!a.expr || a.is_literal()) continue;
    if (tree_reads_submitter(a.expr)) return true;
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
