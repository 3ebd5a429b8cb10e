// A ClassAd: a set of uniquely (case-insensitively) named expressions.
//
// Attributes keep their insertion order (for printing) and their original
// spelling; lookup by Symbol goes through an open-addressing index so the
// evaluator never hashes a string. find_by_name() is the plain path used by
// the reference evaluator and by tools.
//
// An ad may be chained to a parent (HTCondor's chained ClassAds, which its
// schedd uses for a job and its cluster): a name this ad does not hold
// itself is looked up in the parent. The startd chains its slot ads to one
// machine ad, so a thousand slots of a machine hold the forty attributes
// they have in common once (TARGETS.md: memory per slot).
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/classad/expr.h"
#include "model/classad/symbol.h"
#include "model/classad/value.h"

namespace cara::classad {

// 40 bytes: a pool holds tens of attributes per slot ad and per job ad, so
// the literal's value is not kept here (the lookup index holds scalars and
// short strings inline; anything else is read from the tree).
struct Attribute {
  Symbol symbol;
  ExprPtr expr;
  std::string_view name;  // spelling as inserted (interned: lives for the process)

  bool is_literal() const { return expr->is_literal(); }
  // The value of a literal attribute (a string views the tree's pool, which
  // `expr` keeps alive); error for any other expression.
  Value literal() const;
};

class ClassAd;

// The attributes an ad shows: the parent's that it does not hide, then its
// own. A forward range of Attribute; valid until the ad changes.
class AttributeRange {
 public:
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Attribute;
    using difference_type = std::ptrdiff_t;
    using pointer = const Attribute*;
    using reference = const Attribute&;

    iterator() = default;
    reference operator*() const { return *cur_; }
    pointer operator->() const { return cur_; }
    iterator& operator++() {
      ++cur_;
      if (inherited_) settle();
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      ++*this;
      return old;
    }
    bool operator==(const iterator& o) const { return cur_ == o.cur_ && inherited_ == o.inherited_; }
    bool operator!=(const iterator& o) const { return !(*this == o); }

   private:
    friend class AttributeRange;
    // Skips inherited attributes the ad hides; past the last, moves on to
    // the ad's own.
    void settle();

    const ClassAd* ad_ = nullptr;
    const Attribute* cur_ = nullptr;
    const Attribute* inherited_end_ = nullptr;
    const Attribute* own_begin_ = nullptr;
    bool inherited_ = false;  // walking the parent's attributes
  };

  iterator begin() const;
  iterator end() const;
  bool empty() const { return begin() == end(); }

 private:
  friend class ClassAd;
  explicit AttributeRange(const ClassAd& ad) : ad_(&ad) {}
  const ClassAd* ad_;
};

class ClassAd {
 public:
  ClassAd() = default;
  // Copies share their attributes until one of them changes (copy on
  // write): the startd's ad, the message carrying it and the collector's
  // stored ad are one block, not three (TARGETS.md: memory per slot).
  ClassAd(const ClassAd&) = default;
  ClassAd& operator=(const ClassAd&) = default;
  ClassAd(ClassAd&& other) noexcept { take(other); }
  ClassAd& operator=(ClassAd&& other) noexcept {
    if (this != &other) take(other);
    return *this;
  }

  // Inserts or replaces `name`. A replaced attribute keeps its position and
  // takes the new spelling. `expr` must not be null.
  void insert(std::string_view name, ExprPtr expr) { insert(intern_spelling(name), std::move(expr)); }
  // The same for a name interned once by the caller (a daemon refreshing
  // the same attributes of its ads at every event skips hashing them).
  void insert(const Interned& name, ExprPtr expr);
  // A copy of another ad's attribute, under its spelling.
  void insert(const Attribute& a) { insert(Interned{a.symbol, a.name}, a.expr); }
  // Convenience setters for literal values.
  void set(std::string_view name, std::int64_t i) { set(intern_spelling(name), i); }
  void set(std::string_view name, int i) { set(name, static_cast<std::int64_t>(i)); }
  void set(std::string_view name, double r) { set(intern_spelling(name), r); }
  void set(std::string_view name, bool b) { set(intern_spelling(name), b); }
  void set(std::string_view name, std::string_view s) { set(intern_spelling(name), s); }
  void set(std::string_view name, const char* s) { set(name, std::string_view(s)); }
  void set(const Interned& name, std::int64_t i);
  void set(const Interned& name, int i) { set(name, static_cast<std::int64_t>(i)); }
  void set(const Interned& name, double r);
  void set(const Interned& name, bool b);
  void set(const Interned& name, std::string_view s);
  void set(const Interned& name, const char* s) { set(name, std::string_view(s)); }

  // Makes room for `n` attributes without reallocating (parsers know the
  // line count up front).
  void reserve(std::size_t n);

  // Gives back spare attribute capacity (an ad kept for long, such as a
  // slot's, after it is built).
  void shrink_to_fit();

  // Removes `name`; returns whether it was present. A name the parent
  // holds cannot be removed from a chained ad: it is hidden behind an
  // undefined value instead (HTCondor's ClassAd::Delete on chained ads).
  bool erase(std::string_view name) { return erase(intern_spelling(name)); }
  bool erase(const Interned& name);

  // Chains this ad to `parent` (its attributes as they are now: a later
  // change to `parent` is seen only after chaining again). This ad's own
  // attributes stay and hide the parent's of the same name. One level: a
  // chained `parent` is flattened first.
  void chain_to(const ClassAd& parent);
  // Forgets the parent; its attributes are no longer seen.
  void unchain();
  bool chained() const { return parent_ != nullptr; }
  // Drops own attributes the parent holds with the same spelling and an
  // equal expression: they are seen through the chain.
  void drop_inherited();
  // A copy without a parent, holding every attribute this ad shows.
  ClassAd flattened() const;
  // The attributes every one of `ads` shows under the same spelling with an
  // equal expression (the same tree, or equal literals): the parent that
  // lets them share what they have in common.
  static ClassAd common_part(const std::vector<const ClassAd*>& ads);

  // One entry of the lookup index: the symbol, where its attribute lives,
  // and, for scalar literals and strings of up to 8 bytes, the value itself.
  // Reading `TARGET.Memory` during matching thus touches one 16-byte entry
  // and never the attribute or its tree: matching walks thousands of ads, and
  // the cost that remains is cache misses (bench/RESULTS.md).
  struct IndexSlot {
    Symbol symbol;
    std::uint32_t pos1 : 24;  // position+1 in attributes(); 0 = empty slot
    std::uint32_t tag : 8;    // Tag of the inline value
    union {
      std::int64_t i;
      double r;
      char s[8];
      const ExprTree* expr;  // tag None: the attribute's expression
    } v;

    enum Tag : std::uint8_t { None, Undefined, Error, Boolean, Integer, Real, String0 /* + length */ };
    bool has_inline_value() const { return tag != None; }
    // The inline value; a string views this entry, so it is valid until the
    // ad is next modified (as a string viewing an expression pool is).
    Value inline_value() const {
      switch (tag) {
        case Undefined: return Value::undefined();
        case Error: return Value::error();
        case Boolean: return Value::boolean(v.i != 0);
        case Integer: return Value::integer(v.i);
        case Real: return Value::real(v.r);
        default: return Value::string_view(std::string_view(v.s, tag - String0));
      }
    }
  };

  const IndexSlot* find_slot(Symbol sym) const {
    if (const IndexSlot* own = probe(index_, mask_, sym)) return own;
    if (parent_) [[unlikely]]
      return find_inherited(sym);
    return nullptr;
  }
  // Starts loading the lookup index into cache (a loop over many ads calls
  // this some ads ahead of reading them: match_each).
  void prefetch_index() const {
    if (!index_) return;
    const char* at = reinterpret_cast<const char*>(index_);
    const char* end = reinterpret_cast<const char*>(index_ + mask_ + 1);
    for (; at < end; at += 64) __builtin_prefetch(at);
  }
  const Attribute& at(const IndexSlot& slot) const {
    return (is_own(slot) ? body_ : parent_)->attrs[slot.pos1 - 1];
  }

  const Attribute* find(Symbol sym) const {
    const IndexSlot* slot = find_slot(sym);
    return slot ? &at(*slot) : nullptr;
  }
  const Attribute* find(std::string_view name) const { return find(intern(name)); }
  // Linear, case-insensitive scan by spelling: no interning, no index.
  const Attribute* find_by_name(std::string_view name) const;
  ExprPtr lookup(std::string_view name) const {
    const Attribute* a = find(name);
    return a ? a->expr : nullptr;
  }

  // The number of attributes the ad shows (its own and the parent's it
  // does not hide).
  std::size_t size() const;
  bool empty() const { return size() == 0; }
  AttributeRange attributes() const { return AttributeRange(*this); }
  // Removes every attribute, and the parent.
  void clear();
  // Whether `other` holds the very same attributes (a copy not changed
  // since): no comparison of contents.
  bool shares_with(const ClassAd& other) const {
    return (body_ || parent_) && body_ == other.body_ && parent_ == other.parent_;
  }

  // What shares_with() compares, as a value to index ads by: two ads have
  // the same identity when they share their attributes. Meaningful while
  // a copy of the ad is kept (an identity is not reused while its
  // attributes are alive).
  std::pair<const void*, const void*> identity() const { return {body_.get(), parent_.get()}; }

  // HTCondor's ClassAd::SameAs: the same attribute names with structurally
  // equal expressions, in any order.
  bool same_as(const ClassAd& other) const;

 private:
  friend class AttributeRange;
  static const IndexSlot* probe(const IndexSlot* index, std::uint32_t mask, Symbol sym) {
    if (index == nullptr) return nullptr;
    for (std::uint32_t i = mix(sym) & mask;; i = (i + 1) & mask) {
      const IndexSlot& slot = index[i];
      if (slot.pos1 == 0) return nullptr;
      if (slot.symbol == sym) return &slot;
    }
  }
  bool is_own(const IndexSlot& slot) const { return index_ && &slot >= index_ && &slot <= index_ + mask_; }
  const IndexSlot* find_own(Symbol sym) const { return probe(index_, mask_, sym); }
  // In the parent's index (shared by many ads, so warm in cache). Out of
  // line: the evaluator inlines find_slot, and must stay small.
  const IndexSlot* find_inherited(Symbol sym) const;
  static std::uint32_t mix(Symbol s) {
    std::uint32_t h = s * 0x9E3779B1u;
    return h ^ (h >> 15);
  }
  struct Body {
    std::vector<Attribute> attrs;
    // Open addressing, power-of-two capacity, linear probing.
    std::vector<IndexSlot> index;
    std::size_t index_capacity_hint = 0;  // from reserve()
  };
  // The body, made this ad's alone first if a copy shares it.
  Body& mut();
  // After the body or its index changed: the lookup's view of the index.
  void sync() {
    index_ = body_ && !body_->index.empty() ? body_->index.data() : nullptr;
    mask_ = index_ ? static_cast<std::uint32_t>(body_->index.size() - 1) : 0;
  }
  void take(ClassAd& other) {
    body_ = std::move(other.body_);
    parent_ = std::move(other.parent_);
    other.body_.reset();
    other.parent_.reset();
    sync();
    other.sync();
  }
  static void rebuild_index(Body& b);
  static void index_insert(Body& b, std::uint32_t pos);
  static void fill_inline(IndexSlot& slot, const Attribute& a);

  // The body's index as the hot path reads it (find_slot touches the
  // index, not the body); first, so that an array of ads keeps it dense.
  const IndexSlot* index_ = nullptr;
  std::uint32_t mask_ = 0;
  std::shared_ptr<Body> body_;          // null: no attributes of its own
  std::shared_ptr<const Body> parent_;  // the chained parent's attributes (never changed: shared)
};

}  // namespace cara::classad
