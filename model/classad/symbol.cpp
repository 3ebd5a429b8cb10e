#include "model/classad/symbol.h"

#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/classad/text_hash.h"

namespace cara::classad {
namespace {

struct FoldHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return hash_text<true>(s); }
};
struct FoldEq {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const { return iequals(a, b); }
};

// The process-wide table: symbols by case-insensitive name, and every
// distinct spelling ever interned. Strings live in a deque so views into
// them stay valid; nothing is ever removed.
struct Table {
  std::mutex mu;
  std::deque<std::string> strings;
  std::vector<std::string_view> by_id;  // first spelling of each symbol
  std::unordered_map<std::string_view, Symbol, FoldHash, FoldEq> ids;
  std::unordered_map<std::string_view, Interned> spellings;  // exact bytes
};

Table& table() {
  static Table* t = new Table;  // never destroyed: symbols outlive static teardown
  return *t;
}

Interned intern_locked(std::string_view name) {
  Table& t = table();
  std::lock_guard lock(t.mu);
  if (auto it = t.spellings.find(name); it != t.spellings.end()) return it->second;
  std::string_view stored = t.strings.emplace_back(name);
  Symbol sym;
  if (auto it = t.ids.find(name); it != t.ids.end()) {
    sym = it->second;
  } else {
    sym = static_cast<Symbol>(t.by_id.size());
    t.by_id.push_back(stored);
    t.ids.emplace(stored, sym);
  }
  Interned out{sym, stored};
  t.spellings.emplace(stored, out);
  return out;
}

// A per-thread, lock-free cache of exact spellings in front of the table,
// so parsing many ads takes the lock only for names a thread has not seen.
// Open addressing on the exact bytes; the keys view the table's strings.
class Cache {
 public:
  Interned find_or_add(std::string_view name) {
    const std::uint64_t h = hash_text<false>(name);
    if (!entries_.empty()) {
      const std::size_t mask = entries_.size() - 1;
      for (std::size_t i = h & mask;; i = (i + 1) & mask) {
        const Entry& e = entries_[i];
        if (e.name.data() == nullptr) break;
        if (e.hash == h && e.name.size() == name.size() &&
            std::memcmp(e.name.data(), name.data(), name.size()) == 0) {
          return Interned{e.symbol, e.name};
        }
      }
    }
    Interned found = intern_locked(name);
    add(Entry{h, found.spelling, found.symbol});
    return found;
  }

 private:
  struct Entry {
    std::uint64_t hash = 0;
    std::string_view name;  // null data() = empty slot
    Symbol symbol = 0;
  };

  void add(const Entry& e) {
    if ((count_ + 1) * 2 > entries_.size()) grow();
    place(e);
    ++count_;
  }
  void place(const Entry& e) {
    const std::size_t mask = entries_.size() - 1;
    std::size_t i = e.hash & mask;
    while (entries_[i].name.data() != nullptr) i = (i + 1) & mask;
    entries_[i] = e;
  }
  void grow() {
    std::vector<Entry> old = std::move(entries_);
    entries_.assign(old.empty() ? 256 : old.size() * 2, Entry{});
    for (const Entry& e : old) {
      if (e.name.data() != nullptr) place(e);
    }
  }

  std::vector<Entry> entries_;
  std::size_t count_ = 0;
};

}  // namespace

Interned intern_spelling(std::string_view name) {
  thread_local Cache cache;
  return cache.find_or_add(name);
}

std::string_view symbol_name(Symbol sym) {
  Table& t = table();
  std::lock_guard lock(t.mu);
  return sym < t.by_id.size() ? t.by_id[sym] : std::string_view{};
}

}  // namespace cara::classad
