// The parsed form of one ClassAd expression.
//
// An ExprTree is immutable and shared (ads built from one submit file share
// their Requirements). Nodes live in one vector, children before parents, so
// the root is the last node; attribute names are interned to Symbols at parse
// time and literal strings live in the tree's own pool. That compact form is
// what the evaluator walks (DESIGN.md "Performance shape").
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/classad/symbol.h"

namespace cara::classad {

class ClassAd;

// Operators, in HTCondor's classification (operators.cpp): comparison,
// arithmetic, logical, bitwise, plus the mixfix ones.
enum class Op : std::uint8_t {
  // comparison
  Less, LessEq, NotEq, Eq, GreaterEq, Greater, MetaEq /* =?= is */, MetaNotEq /* =!= isnt */,
  // arithmetic
  UnaryPlus, UnaryMinus, Add, Sub, Mul, Div, Mod,
  // logical
  Not, Or, And,
  // bitwise
  BitNot, BitOr, BitXor, BitAnd, Shl, Shr /* arithmetic >> */, UShr /* >>> */,
  // mixfix
  Subscript, Ternary, Elvis,
};

enum class NodeKind : std::uint8_t {
  Undefined, Error, Boolean, Integer, Real, String,  // literals
  Attr,        // unscoped reference `Name`
  ScopedAttr,  // `MY.Name`, `TARGET.Name`, `.Name` (root)
  Select,      // `expr.Name`
  Unary,       // op a
  Binary,      // a op b (including subscript a[b])
  Ternary,     // a ? b : c
  Elvis,       // a ?: b
  Call,        // name(args...)
  List,        // { args... }
  Record,      // [ a = 1; ... ] (a nested ClassAd)
};

enum class Scope : std::uint8_t { My, Target, Root };

// Unit suffix of a numeric literal (2K, 3G): kept so unparse round-trips.
enum class Factor : std::uint8_t { None, B, K, M, G, T };

using NodeIndex = std::uint32_t;

struct Node {
  NodeKind kind;
  Op op = Op::Add;          // Unary/Binary
  std::uint8_t parens = 0;  // how many ( ) surrounded this node in the source
  std::uint8_t aux = 0;     // Scope for ScopedAttr, Factor for numbers, bool value
  std::uint32_t a = 0;      // child, Symbol, string offset, function id, list start
  std::uint32_t b = 0;      // child, string length, Symbol, arg count
  std::uint32_t c = 0;      // child
  std::uint32_t name_off = 0, name_len = 0;  // spelling of a name in the pool
  union {
    std::int64_t i;
    double r;
  } num{};
};

// A function id resolved at parse time; unknown names evaluate to error
// (as in HTCondor) but still unparse as written.
inline constexpr std::uint32_t kUnknownFunction = 0xffffffffu;

class ExprTree {
 public:
  const Node& root() const { return nodes_.back(); }
  NodeIndex root_index() const { return static_cast<NodeIndex>(nodes_.size() - 1); }
  const Node& node(NodeIndex i) const { return nodes_[i]; }
  std::size_t size() const { return nodes_.size(); }
  std::string_view text(std::uint32_t off, std::uint32_t len) const {
    return std::string_view(pool_).substr(off, len);
  }
  std::string_view name(const Node& n) const { return text(n.name_off, n.name_len); }
  std::string_view string_literal(const Node& n) const { return text(n.a, n.b); }
  NodeIndex arg(const Node& n, std::uint32_t i) const { return args_[n.a + i]; }
  const std::shared_ptr<const ClassAd>& record(const Node& n) const { return records_[n.a]; }

  // True when the root is a literal: evaluating it needs no scope.
  bool is_literal() const;

  // Structural equality (HTCondor's ExprTree::SameAs): same shape, same
  // operators, names compared case-insensitively, literals compared as
  // values. Parentheses count, since they are part of the unparsed form.
  bool same_as(const ExprTree& other) const;

 private:
  friend class ExprBuilder;
  std::vector<Node> nodes_;
  std::vector<NodeIndex> args_;
  std::string pool_;
  std::vector<std::shared_ptr<const ClassAd>> records_;
};

using ExprPtr = std::shared_ptr<const ExprTree>;

// Builds an ExprTree node by node (used by the parser and by code that makes
// expressions programmatically). Children must be added before parents.
class ExprBuilder {
 public:
  NodeIndex literal_undefined();
  NodeIndex literal_error();
  NodeIndex literal_bool(bool b);
  NodeIndex literal_int(std::int64_t i, Factor f = Factor::None);
  NodeIndex literal_real(double r, Factor f = Factor::None);
  NodeIndex literal_string(std::string_view s);
  NodeIndex attr(std::string_view name);
  NodeIndex scoped_attr(Scope scope, std::string_view name);
  NodeIndex select(NodeIndex base, std::string_view name);
  NodeIndex unary(Op op, NodeIndex a);
  NodeIndex binary(Op op, NodeIndex a, NodeIndex b);
  NodeIndex ternary(NodeIndex cond, NodeIndex then, NodeIndex otherwise);
  NodeIndex elvis(NodeIndex a, NodeIndex b);
  NodeIndex call(std::string_view name, const std::vector<NodeIndex>& args);
  NodeIndex list(const std::vector<NodeIndex>& items);
  NodeIndex record(std::shared_ptr<const ClassAd> ad);
  void add_parens(NodeIndex n) { ++tree_.nodes_[n].parens; }
  Node& at(NodeIndex n) { return tree_.nodes_[n]; }
  const Node& at(NodeIndex n) const { return tree_.nodes_[n]; }

  // Finishes the tree; `root` must be the last node added.
  ExprPtr finish();

 private:
  NodeIndex push(Node n);
  std::uint32_t store(std::string_view s);
  void set_name(Node& n, std::string_view name);
  std::uint32_t store_args(const std::vector<NodeIndex>& args);
  ExprTree tree_;
};

// Convenience constructors for literal expressions.
ExprPtr make_literal_expr(std::int64_t i);
ExprPtr make_literal_expr(double r);
ExprPtr make_literal_expr(bool b);
ExprPtr make_literal_expr(std::string_view s);

}  // namespace cara::classad
