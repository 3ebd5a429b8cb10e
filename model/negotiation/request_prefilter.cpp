#include "model/negotiation/request_prefilter.h"

#include <optional>

#include "model/classad/eval.h"
#include "model/classad/literal.h"
#include "model/classad/references.h"

namespace cara::negotiation {
namespace {

// Integers beyond 2^53 do not survive the trip through a double: such a
// value is left to the evaluation (which compares integers exactly).
constexpr std::int64_t kExactInDouble = std::int64_t{1} << 53;

bool exact_number(const classad::Value& v, double& out) {
  if (v.is_int() && (v.as_int() > kExactInDouble || v.as_int() < -kExactInDouble)) return false;
  return v.is_number() && v.number(out);
}

using classad::Node;
using classad::NodeKind;
using classad::Op;

bool is_target_attr(const Node& n) {
  return n.kind == NodeKind::ScopedAttr && static_cast<classad::Scope>(n.aux) == classad::Scope::Target;
}

// A number the job fixes whatever the slot: a numeric literal, or a job
// attribute (`RequestMemory`, `MY.RequestCpus`) whose expression reads
// nothing of the slot.
std::optional<double> job_constant(const classad::ClassAd& job, const classad::ExprTree& t, const Node& n,
                                   const classad::EvalEnv& env) {
  if (n.kind == NodeKind::Integer || n.kind == NodeKind::Real) {
    double d = 0;
    if (exact_number(classad::literal_value(t, n), d)) return d;
    return std::nullopt;
  }
  const bool mine = n.kind == NodeKind::Attr || (n.kind == NodeKind::ScopedAttr &&
                                                 static_cast<classad::Scope>(n.aux) == classad::Scope::My);
  if (!mine) return std::nullopt;
  // Unscoped, the name is the job's only if the job has it (else TARGET's).
  const classad::Attribute* a = job.find(static_cast<classad::Symbol>(n.a));
  if (a == nullptr || !a->expr) return std::nullopt;
  if (!a->is_literal()) {
    classad::References refs;
    classad::collect_references(*a->expr, &job, refs);
    if (!refs.external.empty()) return std::nullopt;
  }
  double d = 0;
  if (exact_number(classad::evaluate_attr(job, a->name, nullptr, env), d)) return d;
  return std::nullopt;
}

// `value op slot` as `slot op' value`.
Op mirrored(Op op) {
  switch (op) {
    case Op::Less: return Op::Greater;
    case Op::LessEq: return Op::GreaterEq;
    case Op::Greater: return Op::Less;
    case Op::GreaterEq: return Op::LessEq;
    default: return op;
  }
}

bool numeric_comparison(Op op) {
  return op == Op::Less || op == Op::LessEq || op == Op::Greater || op == Op::GreaterEq || op == Op::Eq;
}

}  // namespace

RequestPrefilter::RequestPrefilter(const classad::ClassAd& job, const classad::EvalEnv& env) {
  const classad::Attribute* req = job.find("Requirements");
  if (req == nullptr || !req->expr) return;
  add_conjuncts(job, *req->expr, req->expr->root_index(), env);
}

void RequestPrefilter::add_conjuncts(const classad::ClassAd& job, const classad::ExprTree& t,
                                     classad::NodeIndex i, const classad::EvalEnv& env) {
  const Node& n = t.node(i);
  if (n.kind == NodeKind::Binary && n.op == Op::And) {
    add_conjuncts(job, t, n.a, env);
    add_conjuncts(job, t, n.b, env);
    return;
  }
  if (is_target_attr(n)) {
    tests_.push_back({static_cast<classad::Symbol>(n.a), Op::Not, 0});
    return;
  }
  if (n.kind != NodeKind::Binary || !numeric_comparison(n.op)) return;
  const Node& l = t.node(n.a);
  const Node& r = t.node(n.b);
  if (is_target_attr(l)) {
    if (auto v = job_constant(job, t, r, env))
      tests_.push_back({static_cast<classad::Symbol>(l.a), n.op, *v});
  } else if (is_target_attr(r)) {
    if (auto v = job_constant(job, t, l, env))
      tests_.push_back({static_cast<classad::Symbol>(r.a), mirrored(n.op), *v});
  }
}

SlotValue SlotValue::of(const classad::ClassAd& slot, classad::Symbol attr) {
  const classad::Attribute* a = slot.find(attr);
  if (a == nullptr) return {Kind::Absent, 0};
  if (!a->expr || !a->is_literal()) return {Kind::Unknown, 0};
  const classad::Value v = a->literal();
  if (v.is_bool()) return {v.as_bool() ? Kind::True : Kind::False, 0};
  if (v.is_undefined()) return {Kind::Undefined, 0};
  double d = 0;
  if (exact_number(v, d)) return {Kind::Number, d};
  return {Kind::Unknown, 0};  // strings, lists, error: the evaluation decides
}

bool RequestPrefilter::may_match(const classad::ClassAd& slot) const {
  for (const Test& test : tests_)
    if (!passes(test, SlotValue::of(slot, test.attr))) return false;
  return true;
}

}  // namespace cara::negotiation
