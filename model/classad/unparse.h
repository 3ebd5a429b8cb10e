// Canonical printing of expressions, values and ads (HTCondor sink.cpp).
// parse_expression(unparse(e)) is structurally equal to e.
#pragma once

#include <string>
#include <string_view>

#include "model/classad/classad.h"
#include "model/classad/expr.h"
#include "model/classad/value.h"

namespace cara::classad {

// How strings are written: New escapes backslashes and control characters
// (the syntax parse_expression reads by default); Old escapes only the quote,
// as old-ClassAd long form does.
enum class Quoting { New, Old };

void unparse(std::string& out, const ExprTree& expr, Quoting q = Quoting::New);
std::string unparse(const ExprTree& expr, Quoting q = Quoting::New);

void unparse(std::string& out, const Value& value, Quoting q = Quoting::New);
std::string unparse(const Value& value, Quoting q = Quoting::New);

// `[ a = 1; b = 2 ]`, in insertion order.
std::string unparse(const ClassAd& ad);
// One `Name = expr` per line, each ending in '\n' (condor_status -l style).
std::string unparse_long_form(const ClassAd& ad);

// Pieces shared with functions (string(), interval()).
void append_real(std::string& out, double r);
void append_quoted(std::string& out, std::string_view s, Quoting q);
// `s` as a ClassAd string literal (a tool's constraint names a value).
std::string quoted(std::string_view s, Quoting q = Quoting::New);
void append_attribute_name(std::string& out, std::string_view name);

}  // namespace cara::classad
