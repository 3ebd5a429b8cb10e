// A cheap first look at whether a job's Requirements can hold against a
// slot (issue 30, section 3: a cycle that does not grow as requests x
// slots). The top-level conjuncts of the Requirements that compare a slot
// attribute with a number the job fixes (`TARGET.Memory >= RequestMemory`,
// `TARGET.Cpus >= 4`) or test a slot attribute alone (`TARGET.HasDocker`)
// are checked against the slot's literal values, without evaluating
// anything. A conjunct that is not true makes an && chain not true
// (ClassAd logic: only true && true is true), so a slot one fails cannot
// match; a slot whose attribute is an expression, or a conjunct of any
// other shape, is left to the full evaluation. Exact by construction: the
// prefilter only ever says "no" where the match would.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/eval_env.h"
#include "model/classad/expr.h"

namespace cara::negotiation {

// What the prefilter needs to know of one slot attribute: whether it is
// absent, a literal it can compare, or anything else (left to the
// evaluation).
struct SlotValue {
  enum class Kind : std::uint8_t { Absent, Unknown, Number, True, False, Undefined };
  Kind kind = Kind::Unknown;
  double number = 0;
  static SlotValue of(const classad::ClassAd& slot, classad::Symbol attr);
};

class RequestPrefilter {
 public:
  struct Test {
    classad::Symbol attr;  // the slot's attribute
    classad::Op op;        // slot value `op` value; Op::Not: the attribute alone must be true
    double value = 0;
  };

  RequestPrefilter(const classad::ClassAd& job, const classad::EvalEnv& env);

  // False when `slot` cannot satisfy the job's Requirements.
  bool may_match(const classad::ClassAd& slot) const;
  const std::vector<Test>& tests() const { return tests_; }
  // Whether a slot whose attribute `test.attr` is `v` may pass `test`
  // (inline: asked once per request and family).
  static bool passes(const Test& test, const SlotValue& v) {
    using Kind = SlotValue::Kind;
    using classad::Op;
    // An absent attribute is undefined, which is not true either alone or
    // compared.
    if (v.kind == Kind::Absent) return false;
    if (test.op == Op::Not) {
      if (v.kind == Kind::False || v.kind == Kind::Undefined) return false;
      return !(v.kind == Kind::Number && v.number == 0);
    }
    if (v.kind != Kind::Number) return v.kind != Kind::Undefined;
    const double d = v.number;
    switch (test.op) {
      case Op::Less: return d < test.value;
      case Op::LessEq: return d <= test.value;
      case Op::Greater: return d > test.value;
      case Op::GreaterEq: return d >= test.value;
      case Op::Eq: return d == test.value;
      default: return true;
    }
  }

 private:
  void add_conjuncts(const classad::ClassAd& job, const classad::ExprTree& tree, classad::NodeIndex i,
                     const classad::EvalEnv& env);
  std::vector<Test> tests_;
};

}  // namespace cara::negotiation
