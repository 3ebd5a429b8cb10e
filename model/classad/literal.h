// The value of a literal node (number, string, boolean, undefined, error).
//
// Shared by the evaluator and by ClassAd, which caches the value of each
// literal attribute. A string value views the tree's pool, so it is valid
// while the tree lives.
#pragma once

#include "model/classad/expr.h"
#include "model/classad/value.h"

namespace cara::classad {

// A numeric literal's unit suffix multiplies it (HTCondor's Literal::
// MakeReal with a factor: 2K is 2048.0, a real).
inline double factor_scale(std::uint8_t factor) {
  switch (static_cast<Factor>(factor)) {
    case Factor::K: return 1024.0;
    case Factor::M: return 1024.0 * 1024.0;
    case Factor::G: return 1024.0 * 1024.0 * 1024.0;
    case Factor::T: return 1024.0 * 1024.0 * 1024.0 * 1024.0;
    default: return 1.0;
  }
}

// `n` must be a literal node of `t` (NodeKind Undefined..String); any other
// kind gives error.
inline Value literal_value(const ExprTree& t, const Node& n) {
  switch (n.kind) {
    case NodeKind::Undefined: return Value::undefined();
    case NodeKind::Boolean: return Value::boolean(n.aux != 0);
    case NodeKind::Integer:
      if (n.aux) return Value::real(static_cast<double>(n.num.i) * factor_scale(n.aux));
      return Value::integer(n.num.i);
    case NodeKind::Real: return Value::real(n.aux ? n.num.r * factor_scale(n.aux) : n.num.r);
    case NodeKind::String: return Value::string_view(t.string_literal(n));
    default: return Value::error();
  }
}

}  // namespace cara::classad
