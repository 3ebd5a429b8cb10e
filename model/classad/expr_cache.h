// Expression trees shared by every ad that spells a value the same way.
//
// The ads of one cluster of jobs carry the same Requirements, RequestMemory
// and PeriodicRemove text, as the slot ads of one machine type carry the same
// START; HTCondor's ClassAd library shares such expressions through its
// ClassAd cache (classad/classadCache.h, ENABLE_CLASSAD_CACHING). Parsing
// the text costs hundreds of nanoseconds per expression, finding it here
// tens, and the ads then share one immutable tree instead of a copy each.
//
// A cache belongs to one thread (no locks); its size is fixed (a slot per
// hash, the newest text wins), so it never grows with the pool. Trees it
// hands out are ordinary shared ExprPtrs and may go to any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/classad/expr.h"
#include "model/classad/lexer.h"
#include "model/classad/slot_table.h"

namespace cara::classad {

class ExprCache {
 public:
  // Texts longer than this are not kept (one odd giant expression should
  // not pin its memory).
  static constexpr std::size_t kMaxText = 2048;

  explicit ExprCache(std::size_t slots = 1024);

  // The tree cached for exactly `text`, or null.
  ExprPtr find(std::string_view text) const;
  // Remembers `tree` as the parse of `text` (replacing what shared its slot).
  void put(std::string_view text, ExprPtr tree);

  std::size_t hits() const { return hits_; }
  std::size_t misses() const { return misses_; }

  // The calling thread's cache for texts in `syntax` (a text means
  // different things in the two), or null while caching is off on this
  // thread (set_enabled(false): benchmarks measure the parser itself so).
  static ExprCache* for_this_thread(StringSyntax syntax);
  static void set_enabled(bool on);

 private:
  struct Entry {
    std::uint64_t hash = 0;
    std::string text;
    ExprPtr tree;
    bool empty() const { return !tree; }
  };
  SlotTable<Entry> entries_;
  mutable std::size_t hits_ = 0, misses_ = 0;
};

}  // namespace cara::classad
