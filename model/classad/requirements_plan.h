// One ad's Requirements made ready to be asked against many targets
// (matchmaking: a job against thousands of slots).
//
// The conjuncts (conjuncts.h) are read once; in each comparison, what the
// ad itself supplies as an inline integer or string (`MY.RequestMemory`,
// `RequestCpus`, a literal) is taken then, so that asking a target reads
// only the target's attributes. Anything the plan cannot compare as scalars
// is evaluated by the evaluator, node by node, exactly as evaluating the
// whole Requirements would: the answer is the same as requirements_met().
#pragma once

#include <cstdint>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/eval_env.h"
#include "model/classad/expr.h"
#include "model/classad/scalar.h"

namespace cara::classad {

class RequirementsPlan {
 public:
  // `my`'s Requirements, with `my` as MY. `my` must outlive the plan and
  // stay unchanged while it is used.
  explicit RequirementsPlan(const ClassAd& my);

  // Whether MY.Requirements is true with `target` as TARGET.
  bool holds(const ClassAd& target, const EvalEnv& env = {}) const;

 private:
  // One side of a comparison: known now, read from the target by symbol,
  // or neither (the evaluator decides the conjunct).
  struct Operand {
    enum Kind : std::uint8_t { Known, FromTarget, Unknown } kind = Unknown;
    Symbol symbol = 0;
    Scalar value;
  };
  struct Conjunct {
    NodeIndex node;
    int depth;
    bool comparison;  // a plain comparison whose operands are below
    Op op;
    Operand a, b;
  };
  Operand operand(NodeIndex i) const;

  const ClassAd* my_;
  const ExprTree* tree_ = nullptr;  // null: Requirements absent or a literal
  bool literal_true_ = false;       // the literal's answer
  std::vector<Conjunct> conjuncts_;
};

}  // namespace cara::classad
