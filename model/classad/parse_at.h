// The expression grammar at a place in a larger text, for the readers
// built on it (long_form.cpp): errors name the line and column in that
// text, after `context` ("in the value of X: "). Internal to the classad
// model; parser.h is the public face.
#pragma once

#include <string_view>

#include "model/classad/classad.h"
#include "model/classad/expr.h"
#include "model/classad/lexer.h"
#include "model/common/result.h"

namespace cara::classad {

Result<ExprPtr> parse_expression_at(std::string_view text, StringSyntax strings, int line, int column,
                                    ArenaPtr arena, std::string_view context);
Result<ClassAd> parse_new_classad_at(std::string_view text, int line, int column);

}  // namespace cara::classad
