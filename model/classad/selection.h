// A query's selection: the ads a constraint is true of, projected onto
// some of their attributes (condor_q and condor_status -constraint with
// -af/-attributes). The collector's ad store and the schedd's queue
// answer queries with it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/expr.h"
#include "model/common/result.h"

namespace cara::classad {

// Whether `e`, evaluated in `ad` at `now` (time() in it), is true.
bool true_at(const ExprTree& e, const ClassAd& ad, std::int64_t now);

struct Selection {
  ExprPtr constraint;                   // null: every ad
  std::vector<std::string> projection;  // empty: every attribute

  // From a query's text; an empty constraint selects every ad. The error
  // names the constraint (parse_constraint).
  static Result<Selection> parse(std::string_view constraint, std::vector<std::string> projection);

  // Whether the constraint is true of `ad` at `now` (time() in it).
  bool selects(const ClassAd& ad, std::int64_t now) const;
  // `ad` with only the projected attributes (all when none is named).
  ClassAd project(const ClassAd& ad) const;
};

}  // namespace cara::classad
