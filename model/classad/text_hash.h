// A fast hash of short texts, eight bytes at a time: attribute names for
// the symbol table, expression texts for the expression cache.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace cara::classad {

// `fold` hashes case-insensitively (ASCII): setting bit 5 of every byte
// lower-cases letters; it also maps a few punctuation bytes onto others,
// which only costs a collision.
template <bool fold>
std::uint64_t hash_text(std::string_view s) {
  std::uint64_t h = 0x9E3779B97F4A7C15ull ^ s.size();
  std::size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    if constexpr (fold) w |= 0x2020202020202020ull;
    h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
  }
  std::uint64_t tail = 0;
  for (std::size_t k = 0; i + k < s.size(); ++k) {
    auto c = static_cast<unsigned char>(s[i + k]);
    if constexpr (fold) c |= 0x20;
    tail |= std::uint64_t{c} << (8 * k);
  }
  h = (h ^ tail) * 0x94D049BB133111EBull;
  return h ^ (h >> 29);
}

}  // namespace cara::classad
