// Attribute names interned to integers, so that evaluation looks attributes
// up by number (no string hashing on the hot path; DESIGN.md "Performance
// shape"). ClassAd attribute names are case-insensitive: "Memory" and
// "MEMORY" intern to the same Symbol.
#pragma once

#include <cstdint>
#include <string_view>

#include "model/common/text.h"

namespace cara::classad {

using Symbol = std::uint32_t;

// A name's symbol and a process-lifetime copy of that exact spelling (so an
// attribute can keep its spelling without owning a string).
struct Interned {
  Symbol symbol;
  std::string_view spelling;
};

// Returns the symbol for `name`, creating it on first use. Thread-safe.
// The caller must pass a non-empty name.
Interned intern_spelling(std::string_view name);
inline Symbol intern(std::string_view name) {
  return intern_spelling(name).symbol;
}

// Returns the spelling under which `sym` was first interned. The view stays
// valid for the life of the process.
std::string_view symbol_name(Symbol sym);

// ClassAd names and keywords are ASCII and compare without case.
using cara::ascii_lower;
using cara::iequals;

}  // namespace cara::classad
