#include "model/classad/classad.h"

#include <algorithm>

namespace cara::classad {
namespace {

inline std::uint32_t mix(Symbol s) {
  std::uint32_t h = s * 0x9E3779B1u;
  return h ^ (h >> 15);
}

}  // namespace

void ClassAd::index_insert(Symbol sym, std::uint32_t pos) {
  const std::uint32_t mask = static_cast<std::uint32_t>(index_.size() - 1);
  for (std::uint32_t i = mix(sym) & mask;; i = (i + 1) & mask) {
    if (index_[i] == 0) {
      index_[i] = pos + 1;
      return;
    }
  }
}

void ClassAd::rebuild_index() {
  std::size_t cap = 8;
  while (cap < attrs_.size() * 2) cap *= 2;
  index_.assign(cap, 0);
  for (std::uint32_t p = 0; p < attrs_.size(); ++p) index_insert(attrs_[p].symbol, p);
}

const Attribute* ClassAd::find(Symbol sym) const {
  if (index_.empty()) return nullptr;
  const std::uint32_t mask = static_cast<std::uint32_t>(index_.size() - 1);
  for (std::uint32_t i = mix(sym) & mask;; i = (i + 1) & mask) {
    std::uint32_t slot = index_[i];
    if (slot == 0) return nullptr;
    const Attribute& a = attrs_[slot - 1];
    if (a.symbol == sym) return &a;
  }
}

const Attribute* ClassAd::find_by_name(std::string_view name) const {
  for (const Attribute& a : attrs_) {
    if (iequals(a.name, name)) return &a;
  }
  return nullptr;
}

void ClassAd::insert(std::string_view name, ExprPtr expr) {
  Symbol sym = intern(name);
  if (const Attribute* existing = find(sym)) {
    auto& a = const_cast<Attribute&>(*existing);
    a.name.assign(name);
    a.expr = std::move(expr);
    return;
  }
  attrs_.push_back(Attribute{sym, std::string(name), std::move(expr)});
  if (attrs_.size() * 2 > index_.size()) {
    rebuild_index();
  } else {
    index_insert(sym, static_cast<std::uint32_t>(attrs_.size() - 1));
  }
}

void ClassAd::set(std::string_view name, std::int64_t i) { insert(name, make_literal_expr(i)); }
void ClassAd::set(std::string_view name, double r) { insert(name, make_literal_expr(r)); }
void ClassAd::set(std::string_view name, bool b) { insert(name, make_literal_expr(b)); }
void ClassAd::set(std::string_view name, std::string_view s) { insert(name, make_literal_expr(s)); }

bool ClassAd::erase(std::string_view name) {
  const Attribute* a = find(name);
  if (!a) return false;
  attrs_.erase(attrs_.begin() + (a - attrs_.data()));
  rebuild_index();
  return true;
}

void ClassAd::clear() {
  attrs_.clear();
  index_.clear();
}

bool ClassAd::same_as(const ClassAd& other) const {
  if (size() != other.size()) return false;
  return std::all_of(attrs_.begin(), attrs_.end(), [&](const Attribute& a) {
    const Attribute* b = other.find(a.symbol);
    return b && a.expr->same_as(*b->expr);
  });
}

}  // namespace cara::classad
