#include "model/negotiation/class_names.h"

namespace cara::negotiation {

ClassNames class_names(const NegotiatorPolicy& policy, const std::vector<SubmitterRequests>& submitters) {
  ClassNames out;
  for (const classad::ExprPtr* e : {&policy.pre_job_rank, &policy.post_job_rank,
                                    &policy.preemption_requirements, &policy.preemption_rank}) {
    if (!*e) continue;
    classad::References refs;
    classad::collect_references(**e, nullptr, refs);
    out.names.insert(refs.internal.begin(), refs.internal.end());
    out.names.insert(refs.external.begin(), refs.external.end());
  }
  for (const SubmitterRequests& s : submitters) {
    for (const Request& r : s.requests) {
      for (const char* attr :
           {"Requirements", "Rank", "ConcurrencyLimitsExpr", "RequestCpus", "RequestMemory", "RequestDisk"}) {
        const classad::Attribute* a = r.job->find(attr);
        if (a == nullptr || !a->expr) continue;
        classad::References refs;
        classad::collect_references(*a->expr, r.job, refs);
        out.match_names.insert(refs.external.begin(), refs.external.end());
      }
    }
  }
  return out;
}

}  // namespace cara::negotiation
