// Helpers shared by the built-in function families.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/classad/functions.h"
#include "model/classad/value.h"

namespace cara::classad::fn {

// HTCondor convertValueToStringValue: strings as they are, numbers, booleans,
// lists and ads as their unparsed text, times as their canonical text;
// undefined and error stay as they are.
Value to_string_value(const Value& v);

// A string's numeric value as strtod reads it, with a unit suffix
// (2K = 2048); nullopt when it does not start with a number.
std::optional<double> parse_number(std::string_view s);

// The tokens of a string list: split at any of `delims`, each trimmed of
// white space, empty tokens dropped (HTCondor StringTokenIterator).
std::vector<std::string_view> tokens(std::string_view list, std::string_view delims);

using cara::to_lower;

}  // namespace cara::classad::fn
