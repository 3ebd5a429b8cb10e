// Attribute names interned to integers, so that evaluation looks attributes
// up by number (no string hashing on the hot path; DESIGN.md "Performance
// shape"). ClassAd attribute names are case-insensitive: "Memory" and
// "MEMORY" intern to the same Symbol.
#pragma once

#include <cstdint>
#include <string_view>

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

// Lower-cases ASCII letters (ClassAd names and keywords are ASCII).
inline char ascii_lower(char c) {
  return (c >= 'A' && c <= 'Z') ? char(c + 32) : c;
}

// Case-insensitive ASCII equality, as ClassAd attribute names compare.
bool iequals(std::string_view a, std::string_view b);

}  // namespace cara::classad
