// The conjuncts of an expression: `a && b && c` read as the list a, b, c.
//
// Requirements are such chains, and whether a chain is true needs only its
// conjuncts: && gives true exactly when both of its operands are true
// (HTCondor operators.cpp doLogical, numbers counting as booleans), and
// gives a value that is not true otherwise, error or undefined included. So
// matchmaking asks each conjunct in turn and stops at the first one that is
// not true, without making a Value for each && node.
#pragma once

#include <cstdint>

#include "model/classad/expr.h"

namespace cara::classad {

// Calls `fn(node, depth)` for each conjunct of `t`'s root, left to right as
// && evaluates them, until `fn` returns false; returns whether it never
// did. `depth` is the number of && nodes above the conjunct (the
// evaluator's nesting depth there). Chains nested deeper than any written by
// hand end in a conjunct that is itself an && node.
template <class Fn>
bool all_conjuncts(const ExprTree& t, Fn&& fn) {
  // One word per entry (node | depth << 32): two 4-byte stores read back
  // as one 8-byte load would stall store-to-load forwarding.
  constexpr int kReach = 32;
  std::uint64_t stack[kReach];
  int top = 0;
  stack[top++] = t.root_index();
  while (top > 0) {
    const std::uint64_t p = stack[--top];
    const NodeIndex at = static_cast<NodeIndex>(p);
    const std::uint64_t depth = p >> 32;
    const Node& n = t.node(at);
    if (n.kind == NodeKind::Binary && n.op == Op::And && top + 2 <= kReach) {
      stack[top++] = n.b | (depth + 1) << 32;  // pushed first: the left one is asked first
      stack[top++] = n.a | (depth + 1) << 32;
      continue;
    }
    if (!fn(at, static_cast<int>(depth))) return false;
  }
  return true;
}

}  // namespace cara::classad
