// An integer or a string read for a comparison without making a Value: a
// literal node, or an attribute whose lookup-index entry holds it inline.
// Matchmaking compares `TARGET.Memory >= 2048` and `OpSys == "LINUX"` this
// way; every other case goes through the evaluator, which gives the same
// answer (operators.cpp: integers compare as integers, == and != on strings
// ignore case).
#pragma once

#include <cstdint>
#include <string_view>

#include "model/classad/classad.h"
#include "model/classad/expr.h"
#include "model/classad/operators.h"
#include "model/common/text.h"

namespace cara::classad {

struct Scalar {
  enum Kind : std::uint8_t { None, Int, Str } kind = None;
  std::int64_t i = 0;
  std::string_view s;

  // A literal integer (without a unit suffix, which makes it real) or string.
  static Scalar of(const ExprTree& t, const Node& n) {
    if (n.kind == NodeKind::Integer && n.aux == 0) return Scalar{Int, n.num.i, {}};
    if (n.kind == NodeKind::String) return Scalar{Str, 0, t.string_literal(n)};
    return Scalar{};
  }
  // The inline value of an index entry, when an integer or a string.
  static Scalar of(const ClassAd::IndexSlot& slot) {
    if (slot.tag == ClassAd::IndexSlot::Integer) return Scalar{Int, slot.v.i, {}};
    if (slot.tag >= ClassAd::IndexSlot::String0) {
      return Scalar{Str, 0, std::string_view(slot.v.s, slot.tag - ClassAd::IndexSlot::String0)};
    }
    return Scalar{};
  }
};

// `a op b` for a comparison other than =?= and =!=: 1 true, 0 false, -1
// when the scalars do not decide it (other kinds, or strings ordered).
inline int compare_scalars(Op op, const Scalar& a, const Scalar& b) {
  if (a.kind != b.kind || a.kind == Scalar::None) return -1;
  if (a.kind == Scalar::Int) return compare_ordered(op, a.i, b.i);
  if (op != Op::Eq && op != Op::NotEq) return -1;
  return iequals(a.s, b.s) == (op == Op::Eq);
}

// Whether `op` is a comparison that compare_scalars() may decide.
inline bool is_plain_comparison(Op op) {
  return is_comparison(op) && op != Op::MetaEq && op != Op::MetaNotEq;
}

}  // namespace cara::classad
