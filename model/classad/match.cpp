#include "model/classad/match.h"

#include "model/classad/eval.h"

namespace cara::classad {

const MatchSymbols& MatchSymbols::get() {
  static const MatchSymbols symbols;
  return symbols;
}

bool requirements_met(const ClassAd& ad, const ClassAd& other, const EvalEnv& env) {
  const Attribute* req = ad.find(MatchSymbols::get().requirements);
  if (!req) return false;
  Value v = detail::evaluate_fast(*req->expr, &ad, &other, env);
  bool b = false;
  return v.bool_equiv(b) && b;
}

bool symmetric_match(const ClassAd& job, const ClassAd& slot, const EvalEnv& env) {
  return requirements_met(job, slot, env) && requirements_met(slot, job, env);
}

double rank(const ClassAd& ad, const ClassAd& other, const EvalEnv& env) {
  const Attribute* r = ad.find(MatchSymbols::get().rank);
  if (!r) return 0.0;
  Value v = detail::evaluate_fast(*r->expr, &ad, &other, env);
  double d = 0.0;
  return v.number(d) ? d : 0.0;
}

}  // namespace cara::classad
