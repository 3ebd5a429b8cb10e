// Which attributes an expression refers to, as HTCondor's
// ClassAd::GetInternalReferences / GetExternalReferences report them: the
// autoclusters of the schedd are keyed by the job attributes that slot and
// negotiator expressions read (central-manager-configuration
// "SIGNIFICANT_ATTRIBUTES"), so those names must be found without
// evaluating anything.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/expr.h"

namespace cara::classad {

// Case-insensitive ordered set of attribute names (first spelling kept),
// searched without making a string.
struct NameLess {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const;
};
using NameSet = std::set<std::string, NameLess>;

struct References {
  NameSet internal;  // attributes of MY (the context ad), followed transitively
  NameSet external;  // attributes of TARGET: `TARGET.X`, or `X` absent from MY
};

// Adds the references of `expr`, evaluated in `my` (which may be null: then
// every unscoped name is external), to `refs`. A MY attribute that is
// itself an expression is followed, so `Requirements = Memory > Need` with
// `Need = RequestMemory * 2` reports RequestMemory too; cycles end.
void collect_references(const ExprTree& expr, const ClassAd* my, References& refs);

// The same references by Symbol, each once, in the order first met: for a
// caller that adds those of a few expressions per slot class, and of
// thousands of classes per cycle (class_ranks.h), and needs no spelling.
struct SymbolReferences {
  std::vector<Symbol> internal, external;
};
void collect_references(const ExprTree& expr, const ClassAd* my, SymbolReferences& refs);

}  // namespace cara::classad
