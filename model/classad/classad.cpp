#include "model/classad/classad.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "model/classad/literal.h"

namespace cara::classad {
namespace {

// Attributes beyond this many cannot be indexed (24-bit positions); no real
// ad comes near it.
constexpr std::size_t kMaxAttributes = (std::size_t{1} << 24) - 2;

}  // namespace

Value Attribute::literal() const {
  return literal_value(*expr, expr->root());
}

void ClassAd::fill_inline(IndexSlot& slot, const Attribute& a) {
  slot.tag = IndexSlot::None;
  slot.v.expr = a.expr.get();
  if (!a.is_literal()) return;
  const Value v = a.literal();
  switch (v.type()) {
    case ValueType::Undefined: slot.tag = IndexSlot::Undefined; break;
    case ValueType::Error: slot.tag = IndexSlot::Error; break;
    case ValueType::Boolean:
      slot.tag = IndexSlot::Boolean;
      slot.v.i = v.as_bool();
      break;
    case ValueType::Integer:
      slot.tag = IndexSlot::Integer;
      slot.v.i = v.as_int();
      break;
    case ValueType::Real:
      slot.tag = IndexSlot::Real;
      slot.v.r = v.as_real();
      break;
    case ValueType::String:
      if (v.as_string().size() <= sizeof slot.v.s) {
        slot.tag = static_cast<std::uint8_t>(IndexSlot::String0 + v.as_string().size());
        std::memcpy(slot.v.s, v.as_string().data(), v.as_string().size());
      }
      break;
    default: break;
  }
}

void ClassAd::index_insert(std::uint32_t pos) {
  const Attribute& a = attrs_[pos];
  const std::uint32_t mask = static_cast<std::uint32_t>(index_.size() - 1);
  for (std::uint32_t i = mix(a.symbol) & mask;; i = (i + 1) & mask) {
    if (index_[i].pos1 == 0) {
      IndexSlot& slot = index_[i];
      slot.symbol = a.symbol;
      slot.pos1 = pos + 1;
      fill_inline(slot, a);
      return;
    }
  }
}

void ClassAd::reserve(std::size_t n) {
  if (n <= attrs_.capacity()) return;
  attrs_.reserve(n);
  index_capacity_hint_ = n;
  rebuild_index();
}

void ClassAd::rebuild_index() {
  std::size_t cap = 8;
  while (cap * 3 < std::max(attrs_.size(), index_capacity_hint_) * 4) cap *= 2;
  index_.assign(cap, IndexSlot{});
  for (std::uint32_t p = 0; p < attrs_.size(); ++p) index_insert(p);
}

const Attribute* ClassAd::find_by_name(std::string_view name) const {
  for (const Attribute& a : attrs_) {
    if (iequals(a.name, name)) return &a;
  }
  return nullptr;
}

void ClassAd::insert(std::string_view name, ExprPtr expr) {
  const Interned interned = intern_spelling(name);
  const Symbol sym = interned.symbol;
  if (const IndexSlot* existing = find_slot(sym)) {
    auto& a = attrs_[existing->pos1 - 1];
    a.name = interned.spelling;
    a.expr = std::move(expr);
    fill_inline(const_cast<IndexSlot&>(*existing), a);
    return;
  }
  if (attrs_.size() >= kMaxAttributes) throw std::length_error("ClassAd: too many attributes");
  // Filled in place: an Attribute built on the stack and then moved was
  // read back with wider loads than its fields were written with, which
  // stalls (store-to-load forwarding; bench/RESULTS.md, parse_ads_per_s).
  Attribute& a = attrs_.emplace_back();
  a.symbol = sym;
  a.expr = std::move(expr);
  a.name = interned.spelling;
  if (attrs_.size() * 4 > index_.size() * 3) {
    rebuild_index();
  } else {
    index_insert(static_cast<std::uint32_t>(attrs_.size() - 1));
  }
}

void ClassAd::set(std::string_view name, std::int64_t i) {
  insert(name, make_literal_expr(i));
}
void ClassAd::set(std::string_view name, double r) {
  insert(name, make_literal_expr(r));
}
void ClassAd::set(std::string_view name, bool b) {
  insert(name, make_literal_expr(b));
}
void ClassAd::set(std::string_view name, std::string_view s) {
  insert(name, make_literal_expr(s));
}

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
