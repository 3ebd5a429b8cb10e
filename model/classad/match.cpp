#include "model/classad/match.h"

#include "model/classad/eval.h"
#include "model/classad/requirements_plan.h"

namespace cara::classad {

const MatchSymbols& MatchSymbols::get() {
  static const MatchSymbols symbols;
  return symbols;
}

namespace {

bool met(const ClassAd::IndexSlot* req, const ClassAd& ad, const ClassAd& other, const EvalEnv& env) {
  if (!req) return false;
  if (!req->has_inline_value()) return detail::holds_fast(*req->v.expr, &ad, &other, env);
  bool b = false;
  return req->inline_value().bool_equiv(b) && b;
}

}  // namespace

bool requirements_met(const ClassAd& ad, const ClassAd& other, const EvalEnv& env) {
  return met(ad.find_slot(MatchSymbols::get().requirements), ad, other, env);
}

namespace {

void prefetch_lines(const void* p, int lines) {
  const char* at = static_cast<const char*>(p);
  for (int line = 0; line < lines; ++line) __builtin_prefetch(at + 64 * line);
}

}  // namespace

void match_each(const ClassAd& job, std::span<const ClassAd* const> slots,
                std::vector<std::uint32_t>& matched, const EvalEnv& env) {
  // How far ahead: the index of slot k + 8 and the tree of slot k + 4 are
  // on their way while slot k is matched (measured: 8 % more matches per
  // second than without; the ads of 10,000 slots do not fit in L2).
  constexpr std::size_t kIndexAhead = 8, kTreeAhead = 4;
  const Symbol requirements = MatchSymbols::get().requirements;
  const RequirementsPlan job_side(job);
  const std::size_t n = slots.size();
  for (std::size_t k = 0; k < n; ++k) {
    if (k + kIndexAhead < n) slots[k + kIndexAhead]->prefetch_index();
    if (k + kTreeAhead < n) {
      const ClassAd::IndexSlot* req = slots[k + kTreeAhead]->find_slot(requirements);
      if (req && !req->has_inline_value()) prefetch_lines(req->v.expr, 6);
    }
    const ClassAd& slot = *slots[k];
    if (job_side.holds(slot, env) && met(slot.find_slot(requirements), slot, job, env)) {
      matched.push_back(static_cast<std::uint32_t>(k));
    }
  }
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
