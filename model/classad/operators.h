// Operator semantics on Values, as HTCondor's operators.cpp defines them
// under old-ClassAd rules (STRICT_CLASSAD_EVALUATION = false):
//  - strict operators: error in an operand wins, then undefined;
//  - booleans act as 0/1 in arithmetic and comparison with numbers;
//  - == != < ... compare strings case-insensitively; =?= =!= never yield
//    undefined and compare type and value (strings case-sensitively);
//  - && || ?: are non-strict and treat non-zero numbers as true.
#pragma once

#include "model/classad/expr.h"
#include "model/classad/value.h"

namespace cara::classad {

// A comparison operator (< <= == != >= > =?= =!=) on two ordered values of
// one type; for integers this is the whole of HTCondor's rule, which lets
// the evaluator answer `TARGET.Memory >= 2048` without a call.
template <class T>
bool compare_ordered(Op op, T a, T b) {
  switch (op) {
    case Op::Less: return a < b;
    case Op::LessEq: return a <= b;
    case Op::Eq:
    case Op::MetaEq: return a == b;
    case Op::NotEq:
    case Op::MetaNotEq: return a != b;
    case Op::GreaterEq: return a >= b;
    case Op::Greater: return a > b;
    default: return false;
  }
}

inline bool is_comparison(Op op) {
  return op <= Op::MetaNotEq;
}

// Unary + - ! ~ applied to an evaluated operand.
Value apply_unary(Op op, const Value& v);

// A strict or meta binary operator (comparison, arithmetic, bitwise,
// subscript on a list or ad). Not for && and ||, which evaluate lazily.
Value apply_binary(Op op, const Value& a, const Value& b);

// && and || once both sides are known (the evaluator short-circuits first).
Value apply_logical(Op op, const Value& a, const Value& b);

// Whether `a` alone decides `a && ...` / `a || ...` (HTCondor shortCircuit).
bool short_circuits(Op op, const Value& a, Value& result);

// Case-insensitive ASCII comparison (strcasecmp), as == and < use on strings.
int compare_nocase(std::string_view a, std::string_view b);

}  // namespace cara::classad
