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

// ---- Iteration -------------------------------------------------------------

void AttributeRange::iterator::settle() {
  while (inherited_) {
    if (cur_ == inherited_end_) {
      inherited_ = false;
      cur_ = own_begin_;
      return;
    }
    if (!ad_->find_own(cur_->symbol)) return;
    ++cur_;
  }
}

AttributeRange::iterator AttributeRange::begin() const {
  iterator it;
  it.ad_ = ad_;
  if (ad_->body_) it.own_begin_ = ad_->body_->attrs.data();
  if (ad_->parent_) {
    it.inherited_ = true;
    it.cur_ = ad_->parent_->attrs.data();
    it.inherited_end_ = it.cur_ + ad_->parent_->attrs.size();
    it.settle();
  } else {
    it.cur_ = it.own_begin_;
  }
  return it;
}

AttributeRange::iterator AttributeRange::end() const {
  iterator it;
  it.ad_ = ad_;
  if (ad_->body_) it.cur_ = ad_->body_->attrs.data() + ad_->body_->attrs.size();
  return it;
}

const ClassAd::IndexSlot* ClassAd::find_inherited(Symbol sym) const {
  const std::vector<IndexSlot>& index = parent_->index;
  return index.empty() ? nullptr : probe(index.data(), static_cast<std::uint32_t>(index.size() - 1), sym);
}

std::size_t ClassAd::size() const {
  std::size_t n = body_ ? body_->attrs.size() : 0;
  if (parent_)
    for (const Attribute& a : parent_->attrs) n += find_own(a.symbol) ? 0 : 1;
  return n;
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
  std::size_t cap = 4;  // a slot's own part holds two or three attributes
  while (cap * 3 < std::max(b.attrs.size(), b.index_capacity_hint) * 4) cap *= 2;
  b.index.assign(cap, IndexSlot{});
  for (std::uint32_t p = 0; p < b.attrs.size(); ++p) index_insert(b, p);
}

const Attribute* ClassAd::find_by_name(std::string_view name) const {
  // Own attributes first: they hide the parent's.
  if (body_)
    for (const Attribute& a : body_->attrs)
      if (iequals(a.name, name)) return &a;
  if (parent_)
    for (const Attribute& a : parent_->attrs)
      if (iequals(a.name, name)) return &a;
  return nullptr;
}

namespace {

// Whether `a` already says what `expr` under `spelling` would: the same
// tree, or two literals of the same value (the literal table is per thread,
// so equal literals set on two threads are two trees).
bool says_the_same(const Attribute& a, const ExprPtr& expr, std::string_view spelling) {
  if (a.name.data() != spelling.data()) return false;
  if (a.expr == expr) return true;
  return a.is_literal() && expr->is_literal() && a.expr->same_as(*expr);
}

}  // namespace

void ClassAd::insert(const Interned& interned, ExprPtr expr) {
  const Symbol sym = interned.symbol;
  if (const IndexSlot* existing = find_slot(sym); existing && !is_own(*existing)) {
    // Setting what the parent already says changes nothing: the slots of a
    // machine keep seeing its MyCurrentTime through the chain.
    if (says_the_same(at(*existing), expr, interned.spelling)) return;
  } else if (existing) {
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

void ClassAd::set(const Interned& name, std::int64_t i) {
  insert(name, make_literal_expr(i));
}
void ClassAd::set(const Interned& name, double r) {
  insert(name, make_literal_expr(r));
}
void ClassAd::set(const Interned& name, bool b) {
  insert(name, make_literal_expr(b));
}
void ClassAd::set(const Interned& name, std::string_view s) {
  insert(name, make_literal_expr(s));
}

bool ClassAd::erase(const Interned& name) {
  const Symbol sym = name.symbol;
  const IndexSlot* own = find_own(sym);
  if (parent_ && find_inherited(sym)) {
    // The parent's attribute cannot go: it is hidden behind undefined, as
    // HTCondor's chained ads do.
    if (own && own->tag == IndexSlot::Undefined) return false;
    insert(name, make_undefined_expr());
    return true;
  }
  if (!own) return false;
  const std::uint32_t pos = own->pos1 - 1;
  Body& b = mut();
  b.attrs.erase(b.attrs.begin() + pos);
  // The index loses the entry in place, and the attributes after it move
  // down one: rebuilding it re-derived every inline value (a slot ad loses
  // its job's attributes when the claim ends, a job ad its run's).
  // Linear probing: the entries after the hole that may not stay behind
  // it move into it (backward-shift deletion), so every lookup still
  // finds its entry before an empty slot.
  const auto mask = static_cast<std::uint32_t>(b.index.size() - 1);
  std::uint32_t hole = mix(sym) & mask;
  while (b.index[hole].pos1 == 0 || b.index[hole].symbol != sym) hole = (hole + 1) & mask;
  for (std::uint32_t j = (hole + 1) & mask; b.index[j].pos1 != 0; j = (j + 1) & mask) {
    const std::uint32_t home = mix(b.index[j].symbol) & mask;
    // Whether the entry's home lies in (hole, j], cyclically: then it
    // stays where it is.
    const bool stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
    if (stays) continue;
    b.index[hole] = b.index[j];
    hole = j;
  }
  b.index[hole] = IndexSlot{};
  for (IndexSlot& slot : b.index)
    if (slot.pos1 > pos + 1) slot.pos1 = slot.pos1 - 1;
  sync();
  return true;
}

void ClassAd::clear() {
  body_.reset();
  parent_.reset();
  sync();
}

// ---- Chaining ----------------------------------------------------------------

void ClassAd::chain_to(const ClassAd& parent) {
  if (parent.parent_) {
    chain_to(parent.flattened());
    return;
  }
  parent_ = parent.body_;
  sync();
}

void ClassAd::unchain() {
  parent_.reset();
  sync();
}

void ClassAd::drop_inherited() {
  if (!parent_ || !body_) return;
  bool any = false;
  for (const Attribute& a : body_->attrs) {
    const IndexSlot* p = find_inherited(a.symbol);
    if (p && says_the_same(parent_->attrs[p->pos1 - 1], a.expr, a.name)) {
      any = true;
      break;
    }
  }
  if (!any) return;
  std::vector<Attribute> keep;
  for (const Attribute& a : body_->attrs) {
    const IndexSlot* p = find_inherited(a.symbol);
    if (!p || !says_the_same(parent_->attrs[p->pos1 - 1], a.expr, a.name)) keep.push_back(a);
  }
  if (keep.empty()) {
    body_.reset();
  } else {
    auto b = std::make_shared<Body>();
    b->attrs = std::move(keep);
    rebuild_index(*b);
    body_ = std::move(b);
  }
  sync();
}

ClassAd ClassAd::flattened() const {
  if (!parent_) return *this;
  ClassAd flat;
  flat.reserve(size());
  for (const Attribute& a : attributes()) flat.insert(a);
  return flat;
}

ClassAd ClassAd::common_part(const std::vector<const ClassAd*>& ads) {
  ClassAd common;
  if (ads.empty()) return common;
  for (const Attribute& a : ads.front()->attributes()) {
    const bool everywhere = std::all_of(ads.begin() + 1, ads.end(), [&](const ClassAd* other) {
      const Attribute* b = other->find(a.symbol);
      return b && says_the_same(*b, a.expr, a.name);
    });
    if (everywhere) common.insert(a);
  }
  common.shrink_to_fit();
  return common;
}

bool ClassAd::same_as(const ClassAd& other) const {
  if (shares_with(other)) return true;
  if (size() != other.size()) return false;
  for (const Attribute& a : attributes()) {
    const Attribute* b = other.find(a.symbol);
    if (!b || !a.expr->same_as(*b->expr)) return false;
  }
  return true;
}

}  // namespace cara::classad
