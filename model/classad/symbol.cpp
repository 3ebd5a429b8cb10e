#include "model/classad/symbol.h"

#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace cara::classad {
namespace {

// FNV-1a over lower-cased bytes: short names, so simple is fast enough.
std::uint64_t hash_lower(std::string_view s) {
  std::uint64_t h = 1469598103934665603ull;
  for (char c : s) {
    h ^= static_cast<unsigned char>(ascii_lower(c));
    h *= 1099511628211ull;
  }
  return h;
}

struct LowerHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return hash_lower(s); }
};
struct LowerEq {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const { return iequals(a, b); }
};

// The process-wide table. Names live in a deque so views into them stay valid.
struct Table {
  std::mutex mu;
  std::deque<std::string> names;
  std::vector<std::string_view> by_id;
  std::unordered_map<std::string_view, Symbol, LowerHash, LowerEq> ids;
};

Table& table() {
  static Table* t = new Table;  // never destroyed: symbols outlive static teardown
  return *t;
}

// A small per-thread cache in front of the locked table, so parsing many ads
// on one thread takes the lock only for names it has not seen yet.
struct Cache {
  std::unordered_map<std::string, Symbol, LowerHash, LowerEq> ids;
};

}  // namespace

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  }
  return true;
}

Symbol intern(std::string_view name) {
  thread_local Cache cache;
  if (auto it = cache.ids.find(name); it != cache.ids.end()) return it->second;
  Table& t = table();
  Symbol sym;
  {
    std::lock_guard lock(t.mu);
    if (auto it = t.ids.find(name); it != t.ids.end()) {
      sym = it->second;
    } else {
      t.names.emplace_back(name);
      std::string_view stored = t.names.back();
      sym = static_cast<Symbol>(t.by_id.size());
      t.by_id.push_back(stored);
      t.ids.emplace(stored, sym);
    }
  }
  cache.ids.emplace(std::string(name), sym);
  return sym;
}

std::string_view symbol_name(Symbol sym) {
  Table& t = table();
  std::lock_guard lock(t.mu);
  return sym < t.by_id.size() ? t.by_id[sym] : std::string_view{};
}

}  // namespace cara::classad
