#include "model/classad/selection.h"

#include "model/classad/eval.h"
#include "model/classad/parser.h"

namespace cara::classad {

Result<Selection> Selection::parse(std::string_view constraint, std::vector<std::string> projection) {
  Selection s;
  s.projection = std::move(projection);
  if (constraint.empty()) return s;
  auto e = parse_constraint(constraint);
  if (!e) return Error{e.error()};
  s.constraint = std::move(*e);
  return s;
}

bool true_at(const ExprTree& e, const ClassAd& ad, std::int64_t now) {
  EvalEnv env;
  env.now = now;
  bool b = false;
  return evaluate(e, &ad, nullptr, env).bool_equiv(b) && b;
}

bool Selection::selects(const ClassAd& ad, std::int64_t now) const {
  return !constraint || true_at(*constraint, ad, now);
}

ClassAd Selection::project(const ClassAd& ad) const {
  if (projection.empty()) return ad;
  ClassAd projected;
  for (const std::string& name : projection)
    if (const Attribute* a = ad.find(name)) projected.insert(*a);
  return projected;
}

}  // namespace cara::classad
