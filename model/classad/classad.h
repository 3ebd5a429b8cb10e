// A ClassAd: a set of uniquely (case-insensitively) named expressions.
//
// Attributes keep their insertion order (for printing) and their original
// spelling; lookup by Symbol goes through an open-addressing index so the
// evaluator never hashes a string. find_by_name() is the plain path used by
// the reference evaluator and by tools.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/classad/expr.h"
#include "model/classad/symbol.h"

namespace cara::classad {

struct Attribute {
  Symbol symbol;
  std::string name;  // spelling as inserted
  ExprPtr expr;
};

class ClassAd {
 public:
  ClassAd() = default;

  // Inserts or replaces `name`. A replaced attribute keeps its position and
  // takes the new spelling. `expr` must not be null.
  void insert(std::string_view name, ExprPtr expr);
  // Convenience setters for literal values.
  void set(std::string_view name, std::int64_t i);
  void set(std::string_view name, int i) { set(name, static_cast<std::int64_t>(i)); }
  void set(std::string_view name, double r);
  void set(std::string_view name, bool b);
  void set(std::string_view name, std::string_view s);
  void set(std::string_view name, const char* s) { set(name, std::string_view(s)); }

  // Removes `name`; returns whether it was present.
  bool erase(std::string_view name);

  const Attribute* find(Symbol sym) const;
  const Attribute* find(std::string_view name) const { return find(intern(name)); }
  // Linear, case-insensitive scan by spelling: no interning, no index.
  const Attribute* find_by_name(std::string_view name) const;
  ExprPtr lookup(std::string_view name) const {
    const Attribute* a = find(name);
    return a ? a->expr : nullptr;
  }

  std::size_t size() const { return attrs_.size(); }
  bool empty() const { return attrs_.empty(); }
  const std::vector<Attribute>& attributes() const { return attrs_; }
  void clear();

  // HTCondor's ClassAd::SameAs: the same attribute names with structurally
  // equal expressions, in any order.
  bool same_as(const ClassAd& other) const;

 private:
  void rebuild_index();
  void index_insert(Symbol sym, std::uint32_t pos);

  std::vector<Attribute> attrs_;
  // Open addressing, power-of-two capacity, linear probing; each slot holds
  // position+1 into attrs_ (0 = empty).
  std::vector<std::uint32_t> index_;
};

}  // namespace cara::classad
