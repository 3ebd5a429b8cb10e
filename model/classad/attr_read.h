// Reading one attribute of an ad as a plain C++ value, for code that sums
// or shows ads (the pool history, the web endpoint's summary): evaluated
// with no target, and a neutral value when missing or of another type.
#pragma once

#include <string>
#include <string_view>

#include "model/classad/classad.h"

namespace cara::classad {

// The string value of `name` (empty when missing or not a string).
std::string attr_string(const ClassAd& ad, std::string_view name);
// The number value of `name`, integer or real (0 when missing or not a number).
double attr_number(const ClassAd& ad, std::string_view name);
// The boolean value of `name` (`otherwise` when missing or not a boolean).
bool attr_bool(const ClassAd& ad, std::string_view name, bool otherwise);

}  // namespace cara::classad
