#include "model/classad/classad.h"

#include <algorithm>
#include <atomic>
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

void ClassAd::index_insert(Body& b, std::uint32_t pos) {
  const Attribute& a = b.attrs[pos];
  const std::uint32_t mask = static_cast<std::uint32_t>(b.index.size() - 1);
  for (std::uint32_t i = mix(a.symbol) & mask;; i = (i + 1) & mask) {
    if (b.index[i].pos1 == 0) {
      IndexSlot& slot = b.index[i];
      slot.symbol = a.symbol;
      slot.pos1 = pos + 1;
      fill_inline(slot, a);
      return;
    }
  }
}

ClassAd::Body& ClassAd::mut() {
  if (!body_) {
    body_ = std::make_shared<Body>();
    sync();
  } else if (body_.use_count() > 1) {
    // Another ad shares this body (a copy): this one gets its own.
    body_ = std::make_shared<Body>(*body_);
    sync();
  } else {
    // A count of one: no other ad refers to the body (nobody may copy this
    // ad while it changes). The count is read relaxed; the fence orders the
    // writes below after the reads of an ad on another thread that shared
    // the body until it released it.
    std::atomic_thread_fence(std::memory_order_acquire);
  }
  return *body_;
}

const std::vector<Attribute>& ClassAd::attributes() const {
  static const std::vector<Attribute> kNone;
  return body_ ? body_->attrs : kNone;
}

void ClassAd::reserve(std::size_t n) {
  if (n <= (body_ ? body_->attrs.capacity() : 0)) return;
  Body& b = mut();
  b.attrs.reserve(n);
  b.index_capacity_hint = n;
  rebuild_index(b);
  sync();
}

void ClassAd::shrink_to_fit() {
  if (!body_ || body_->attrs.capacity() == body_->attrs.size()) return;
  mut().attrs.shrink_to_fit();
}

void ClassAd::rebuild_index(Body& b) {
  std::size_t cap = 8;
  while (cap * 3 < std::max(b.attrs.size(), b.index_capacity_hint) * 4) cap *= 2;
  b.index.assign(cap, IndexSlot{});
  for (std::uint32_t p = 0; p < b.attrs.size(); ++p) index_insert(b, p);
}

const Attribute* ClassAd::find_by_name(std::string_view name) const {
  for (const Attribute& a : attributes()) {
    if (iequals(a.name, name)) return &a;
  }
  return nullptr;
}

void ClassAd::insert(std::string_view name, ExprPtr expr) {
  const Interned interned = intern_spelling(name);
  const Symbol sym = interned.symbol;
  if (const IndexSlot* existing = find_slot(sym)) {
    const Attribute& old = at(*existing);
    // The same tree under the same spelling changes nothing, and must not
    // unshare a copy (a slot refreshing an unchanged State, say).
    if (old.expr == expr && old.name.data() == interned.spelling.data()) return;
    const std::uint32_t pos = existing->pos1 - 1;
    Body& b = mut();
    Attribute& a = b.attrs[pos];
    a.name = interned.spelling;
    a.expr = std::move(expr);
    fill_inline(const_cast<IndexSlot&>(*find_slot(sym)), a);
    return;
  }
  Body& b = mut();
  if (b.attrs.size() >= kMaxAttributes) throw std::length_error("ClassAd: too many attributes");
  // Filled in place: an Attribute built on the stack and then moved was
  // read back with wider loads than its fields were written with, which
  // stalls (store-to-load forwarding; bench/RESULTS.md, parse_ads_per_s).
  Attribute& a = b.attrs.emplace_back();
  a.symbol = sym;
  a.expr = std::move(expr);
  a.name = interned.spelling;
  if (b.attrs.size() * 4 > b.index.size() * 3) {
    rebuild_index(b);
    sync();
  } else {
    index_insert(b, static_cast<std::uint32_t>(b.attrs.size() - 1));
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
  const IndexSlot* slot = find_slot(intern(name));
  if (!slot) return false;
  const std::uint32_t pos = slot->pos1 - 1;
  Body& b = mut();
  b.attrs.erase(b.attrs.begin() + pos);
  rebuild_index(b);
  sync();
  return true;
}

void ClassAd::clear() {
  body_.reset();
  sync();
}

bool ClassAd::same_as(const ClassAd& other) const {
  if (size() != other.size()) return false;
  if (shares_with(other)) return true;
  const auto& attrs = attributes();
  return std::all_of(attrs.begin(), attrs.end(), [&](const Attribute& a) {
    const Attribute* b = other.find(a.symbol);
    return b && a.expr->same_as(*b->expr);
  });
}

}  // namespace cara::classad
