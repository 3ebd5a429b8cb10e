// A bounded table of entries by hash, two slots per hash, the newest entries
// winning: what the expression cache (expr_cache.h) and the shared literal
// trees (expr.cpp) keep. It starts small and grows fourfold, up to its
// capacity, as entries come: a daemon soon has the whole table, and a
// short-lived `cara submit` does not pay for zeroing it (its page faults
// were a tenth of the process's start; bench/RESULTS.md).
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace cara::classad {

// Entry: default-constructible and movable, with `std::uint64_t hash` and
// `bool empty() const`.
//
// Two-way: a hash may sit in either slot of its pair, the newer entry in
// the first. One slot per hash made two texts used together (two
// attributes of every job read back) evict each other on every use when
// their hashes met, so neither was ever shared.
template <class Entry>
class SlotTable {
 public:
  explicit SlotTable(std::size_t capacity) : capacity_(std::bit_ceil(std::max<std::size_t>(capacity, 2))) {}

  // The entry holding `hash`, or null.
  const Entry* find(std::uint64_t hash) const {
    if (slots_.empty()) return nullptr;
    const std::size_t i = pair_of(hash);
    for (std::size_t k = i; k < i + 2; ++k)
      if (!slots_[k].empty() && slots_[k].hash == hash) return &slots_[k];
    return nullptr;
  }

  // The slot for `hash`, for the caller to overwrite: the one holding it,
  // else the pair's first, whose entry moves to the second (the older one
  // there is dropped).
  Entry& place(std::uint64_t hash) {
    if (slots_.size() < capacity_ && ++placed_ > slots_.size() / 2) grow();
    return settle(hash);
  }

 private:
  static constexpr std::size_t kFirst = 32;

  std::size_t pair_of(std::uint64_t hash) const { return hash & (slots_.size() - 1) & ~std::size_t{1}; }

  Entry& settle(std::uint64_t hash) {
    const std::size_t i = pair_of(hash);
    Entry& first = slots_[i];
    Entry& second = slots_[i + 1];
    if (!first.empty() && first.hash == hash) return first;
    if (!second.empty() && second.hash == hash) return second;
    if (!first.empty()) {
      second = std::move(first);
      first = Entry{};
    }
    return first;
  }

  void grow() {
    std::vector<Entry> old = std::move(slots_);
    slots_ = std::vector<Entry>(std::min(capacity_, std::max(kFirst, old.size() * 4)));
    // Each pair's older entry first, so that the newer stays in front.
    for (std::size_t i = 0; i + 1 < old.size(); i += 2)
      for (Entry* e : {&old[i + 1], &old[i]})
        if (!e->empty()) {
          const std::uint64_t h = e->hash;
          settle(h) = std::move(*e);
        }
    placed_ = 0;
  }

  std::size_t capacity_;
  std::vector<Entry> slots_;
  std::size_t placed_ = 0;
};

}  // namespace cara::classad
