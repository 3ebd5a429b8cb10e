#include "model/negotiation/significant_attributes.h"

#include "model/classad/references.h"
#include "model/schedd/autocluster.h"

namespace cara::negotiation {

std::vector<std::string> significant_attributes(const NegotiatorPolicy& policy,
                                                const std::vector<classad::ClassAd>& slots) {
  std::vector<const classad::ClassAd*> slot_ptrs;
  slot_ptrs.reserve(slots.size());
  for (const classad::ClassAd& s : slots) slot_ptrs.push_back(&s);
  std::vector<const classad::ExprTree*> exprs;
  for (const classad::ExprPtr* e : {&policy.pre_job_rank, &policy.post_job_rank,
                                    &policy.preemption_requirements, &policy.preemption_rank})
    if (*e) exprs.push_back(e->get());
  classad::NameSet names = schedd::SignificantAttributes::from_slots(slot_ptrs, exprs).names();
  // NEGOTIATOR_JOB_CONSTRAINT reads the job (its MY): an autocluster's
  // jobs are then all inside it or all outside.
  if (policy.job_constraint) {
    classad::References refs;
    classad::collect_references(*policy.job_constraint, nullptr, refs);
    names.insert(refs.external.begin(), refs.external.end());
  }
  return std::vector<std::string>(names.begin(), names.end());
}

}  // namespace cara::negotiation
