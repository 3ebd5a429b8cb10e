#include "model/classad/match.h"

#include "model/classad/eval.h"

namespace cara::classad {

const MatchSymbols& MatchSymbols::get() {
  static const MatchSymbols symbols;
  return symbols;
}

namespace {

bool met(const ClassAd::IndexSlot* req, const ClassAd& ad, const ClassAd& other, const EvalEnv& env) {
  if (!req) return false;
  Value v =
      req->has_inline_value() ? req->inline_value() : detail::evaluate_fast(*req->v.expr, &ad, &other, env);
  bool b = false;
  return v.bool_equiv(b) && b;
}

}  // namespace

bool requirements_met(const ClassAd& ad, const ClassAd& other, const EvalEnv& env) {
  return met(ad.find_slot(MatchSymbols::get().requirements), ad, other, env);
}

bool symmetric_match(const ClassAd& job, const ClassAd& slot, const EvalEnv& env) {
  // Matching walks many slots, each cold in cache: start fetching the
  // slot's Requirements tree now, so the load overlaps the job's side.
  const ClassAd::IndexSlot* slot_req = slot.find_slot(MatchSymbols::get().requirements);
  // The header and the nodes after it (ExprTree::make lays them out
  // contiguously); a few lines cover a typical slot Requirements.
  if (slot_req && !slot_req->has_inline_value()) {
    const char* at = reinterpret_cast<const char*>(slot_req->v.expr);
    for (int line = 0; line < 6; ++line) __builtin_prefetch(at + 64 * line);
  }
  return met(job.find_slot(MatchSymbols::get().requirements), job, slot, env) &&
         met(slot_req, slot, job, env);
}

double rank(const ClassAd& ad, const ClassAd& other, const EvalEnv& env) {
  const Attribute* r = ad.find(MatchSymbols::get().rank);
  if (!r) return 0.0;
  Value v = detail::evaluate_fast(*r->expr, &ad, &other, env);
  double d = 0.0;
  return v.number(d) ? d : 0.0;
}

}  // namespace cara::classad
