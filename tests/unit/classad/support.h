// Helpers for ClassAd tests: evaluate text and compare unparsed results.
#pragma once

#include <catch2/catch.hpp>
#include <string>

#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/classad/unparse.h"

namespace cara::classad::test {

inline ClassAd ad(const std::string& text) {
  auto r = parse_classad(text);
  INFO(text);
  REQUIRE(r.ok());
  return std::move(*r);
}

// Evaluates `expr` (new syntax) and returns the unparsed value, or
// "PARSE ERROR: ..." when it does not parse.
inline std::string ev(const std::string& expr, const ClassAd* my = nullptr, const ClassAd* target = nullptr,
                      const EvalEnv& env = {}) {
  auto e = parse_expression(expr);
  if (!e) return "PARSE ERROR: " + e.error();
  Value fast = evaluate(**e, my, target, env);
  Value ref = evaluate_reference(**e, my, target, env);
  // The fast and the reference evaluators must always agree.
  std::string f = unparse(fast), r = unparse(ref);
  if (f != r) return "MISMATCH fast=" + f + " reference=" + r;
  return f;
}

}  // namespace cara::classad::test
