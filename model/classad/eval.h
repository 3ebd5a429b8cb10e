// Evaluating expressions against a MY ad and an optional TARGET ad, with
// old-ClassAd scoping (spec: "an unscoped name is looked up in MY, then
// TARGET"): `Name` is looked up in the current ad, then its enclosing ads,
// then (from a top-level ad) in the target; `MY.Name` and `TARGET.Name`
// look in one ad only; an attribute of TARGET is evaluated with MY and
// TARGET swapped. A reference cycle evaluates to error.
//
// The fast path looks attributes up by Symbol; the reference path
// (evaluate_reference) scans by name and is kept to cross-check it.
#pragma once

#include <string_view>

#include "model/classad/classad.h"
#include "model/classad/eval_env.h"
#include "model/classad/expr.h"
#include "model/classad/value.h"

namespace cara::classad {

// Evaluates `expr` with MY = `my` and TARGET = `target` (either may be
// null). The result is detached: it does not refer to the ads or `expr`.
Value evaluate(const ExprTree& expr, const ClassAd* my, const ClassAd* target = nullptr,
               const EvalEnv& env = {});

// Evaluates attribute `name` of `my` (undefined when absent).
Value evaluate_attr(const ClassAd& my, std::string_view name, const ClassAd* target = nullptr,
                    const EvalEnv& env = {});
Value evaluate_attr(const ClassAd& my, Symbol name, const ClassAd* target = nullptr, const EvalEnv& env = {});

// The same evaluation through the plain name-scanning path.
Value evaluate_reference(const ExprTree& expr, const ClassAd* my, const ClassAd* target = nullptr,
                         const EvalEnv& env = {});

namespace detail {
// Hot-path entry points that skip detaching; the caller must not keep the
// result beyond the life of the ads and `expr`.
Value evaluate_fast(const ExprTree& expr, const ClassAd* my, const ClassAd* target, const EvalEnv& env);
// Whether evaluate_fast would give a true (or non-zero) result, decided
// conjunct by conjunct (what matchmaking asks of Requirements).
bool holds_fast(const ExprTree& expr, const ClassAd* my, const ClassAd* target, const EvalEnv& env);
// Whether node `node` of `expr` is true, evaluated as evaluate_fast would
// evaluate it `depth` levels down (a conjunct: conjuncts.h).
bool holds_at_fast(const ExprTree& expr, NodeIndex node, int depth, const ClassAd* my, const ClassAd* target,
                   const EvalEnv& env);
Value evaluate_reference_fast(const ExprTree& expr, const ClassAd* my, const ClassAd* target,
                              const EvalEnv& env);
}  // namespace detail

}  // namespace cara::classad
