#include "model/classad/requirements_plan.h"

#include "model/classad/conjuncts.h"
#include "model/classad/eval.h"
#include "model/classad/match.h"

namespace cara::classad {

RequirementsPlan::RequirementsPlan(const ClassAd& my) : my_(&my) {
  const ClassAd::IndexSlot* req = my.find_slot(MatchSymbols::get().requirements);
  if (!req) return;
  if (req->has_inline_value()) {
    bool b = false;
    literal_true_ = req->inline_value().bool_equiv(b) && b;
    return;
  }
  tree_ = req->v.expr;
  all_conjuncts(*tree_, [&](NodeIndex at, int depth) {
    const Node& n = tree_->node(at);
    Conjunct c{at, depth, false, n.op, {}, {}};
    if (n.kind == NodeKind::Binary && is_plain_comparison(n.op)) {
      c.a = operand(n.a);
      c.b = operand(n.b);
      c.comparison = c.a.kind != Operand::Unknown && c.b.kind != Operand::Unknown;
    }
    conjuncts_.push_back(c);
    return true;
  });
}

RequirementsPlan::Operand RequirementsPlan::operand(NodeIndex i) const {
  const Node& n = tree_->node(i);
  Operand o;
  if (n.kind <= NodeKind::String) {
    o.value = Scalar::of(*tree_, n);
    if (o.value.kind != Scalar::None) o.kind = Operand::Known;
    return o;
  }
  const bool scoped = n.kind == NodeKind::ScopedAttr;
  if (!scoped && n.kind != NodeKind::Attr) return o;
  const Scope scope = scoped ? static_cast<Scope>(n.aux) : Scope::My;
  if (scope == Scope::Root) return o;
  if (scope == Scope::My) {
    // MY's own value; an unscoped name MY lacks is the target's (eval.h).
    if (const ClassAd::IndexSlot* slot = my_->find_slot(n.a)) {
      o.value = Scalar::of(*slot);
      if (o.value.kind != Scalar::None) o.kind = Operand::Known;
      return o;
    }
    if (scoped) return o;  // undefined: the evaluator says so
  }
  o.kind = Operand::FromTarget;
  o.symbol = n.a;
  return o;
}

bool RequirementsPlan::holds(const ClassAd& target, const EvalEnv& env) const {
  if (!tree_) return literal_true_;
  for (const Conjunct& c : conjuncts_) {
    if (c.comparison) {
      Scalar a = c.a.value, b = c.b.value;
      if (c.a.kind == Operand::FromTarget) {
        const ClassAd::IndexSlot* slot = target.find_slot(c.a.symbol);
        if (slot) a = Scalar::of(*slot);
      }
      if (c.b.kind == Operand::FromTarget) {
        const ClassAd::IndexSlot* slot = target.find_slot(c.b.symbol);
        if (slot) b = Scalar::of(*slot);
      }
      const int r = compare_scalars(c.op, a, b);
      if (r == 0) return false;
      if (r == 1) continue;
    }
    if (!detail::holds_at_fast(*tree_, c.node, c.depth, my_, &target, env)) return false;
  }
  return true;
}

}  // namespace cara::classad
