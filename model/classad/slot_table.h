// A bounded table of one entry per hash slot, the newest entry winning its
// slot: what the expression cache (expr_cache.h) and the shared literal
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
template <class Entry>
class SlotTable {
 public:
  explicit SlotTable(std::size_t capacity) : capacity_(std::bit_ceil(std::max<std::size_t>(capacity, 1))) {}

  // The entry in `hash`'s slot if it holds that hash, else null.
  const Entry* find(std::uint64_t hash) const {
    if (slots_.empty()) return nullptr;
    const Entry& e = slots_[hash & (slots_.size() - 1)];
    return e.empty() || e.hash != hash ? nullptr : &e;
  }

  // The slot for `hash`, for the caller to overwrite.
  Entry& place(std::uint64_t hash) {
    if (slots_.size() < capacity_ && ++placed_ > slots_.size() / 2) grow();
    return slots_[hash & (slots_.size() - 1)];
  }

 private:
  static constexpr std::size_t kFirst = 32;

  void grow() {
    std::vector<Entry> old = std::move(slots_);
    slots_ = std::vector<Entry>(std::min(capacity_, std::max(kFirst, old.size() * 4)));
    for (Entry& e : old)
      if (!e.empty()) slots_[e.hash & (slots_.size() - 1)] = std::move(e);
    placed_ = 0;
  }

  std::size_t capacity_;
  std::vector<Entry> slots_;
  std::size_t placed_ = 0;
};

}  // namespace cara::classad
