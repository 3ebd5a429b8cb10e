// Parsing ClassAd expressions and ads, in both syntaxes HTCondor uses:
//  - new: `[ a = 1; b = "x" ]`, expressions with C-like string escapes;
//  - old long form: one `Name = expr` per line, as `condor_status -l` and
//    `condor_q -l` print, where a backslash in a string is literal.
// Errors name the line and column and what was expected.
#pragma once

#include <string_view>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/expr.h"
#include "model/classad/lexer.h"
#include "model/common/result.h"

namespace cara::classad {

class ExprCache;

// Parses one whole expression; trailing text is an error.
Result<ExprPtr> parse_expression(std::string_view text, StringSyntax strings = StringSyntax::New);

// The same, but the same text gives the same shared tree (the thread's
// expression cache, expr_cache.h): for texts that many objects parse alike,
// such as the policy expressions of every slot of a startd.
Result<ExprPtr> parse_expression_shared(std::string_view text, StringSyntax strings = StringSyntax::New);

// A query's constraint: an expression whose error names it as such
// ("constraint 'X' does not parse: ...").
Result<ExprPtr> parse_constraint(std::string_view text);

// Parses `[ ... ]` (new syntax); trailing text other than whitespace and
// comments is an error.
Result<ClassAd> parse_new_classad(std::string_view text);

// The same for many ads that spell most values alike, as the jobs of one
// cluster do (HTCondor keeps those once, in the cluster ad): a value whose
// text `shared` holds takes that tree, and a new text's tree goes into it,
// so the ads share one immutable tree per spelling instead of a copy each.
// The ad makes room for `reserve` attributes up front (0: grows as read).
Result<ClassAd> parse_new_classad_sharing(std::string_view text, ExprCache& shared, std::size_t reserve = 0);

// Parses one ad in old long form. Blank lines and lines starting with '#'
// are skipped.
Result<ClassAd> parse_long_form(std::string_view text);

// Parses several long-form ads separated by blank lines.
Result<std::vector<ClassAd>> parse_long_form_ads(std::string_view text);

// Parses one ad in either syntax: new if the first token is '['.
Result<ClassAd> parse_classad(std::string_view text);

// Parses one `Name = expr` line of long form into `ad` (old string syntax).
// `line` is used in error messages; the tree goes into `arena` if given.
Result<bool> insert_long_form_line(ClassAd& ad, std::string_view text, int line = 1,
                                   const ArenaPtr& arena = nullptr);

}  // namespace cara::classad
