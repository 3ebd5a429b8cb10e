// The parsed form of one ClassAd expression.
//
// An ExprTree is immutable and shared (ads built from one submit file share
// their Requirements). Nodes live in one vector, children before parents, so
// the root is the last node; attribute names are interned to Symbols at parse
// time and literal strings live in the tree's own pool. That compact form is
// what the evaluator walks (DESIGN.md "Performance shape").
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
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
  Less,
  LessEq,
  NotEq,
  Eq,
  GreaterEq,
  Greater,
  MetaEq /* =?= is */,
  MetaNotEq /* =!= isnt */,
  // arithmetic
  UnaryPlus,
  UnaryMinus,
  Add,
  Sub,
  Mul,
  Div,
  Mod,
  // logical
  Not,
  Or,
  And,
  // bitwise
  BitNot,
  BitOr,
  BitXor,
  BitAnd,
  Shl,
  Shr /* arithmetic >> */,
  UShr /* >>> */,
  // mixfix
  Subscript,
  Ternary,
  Elvis,
};

enum class NodeKind : std::uint8_t {
  Undefined,
  Error,
  Boolean,
  Integer,
  Real,
  String,      // literals
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
  Op op = Op::Add;                           // Unary/Binary
  std::uint8_t parens = 0;                   // how many ( ) surrounded this node in the source
  std::uint8_t aux = 0;                      // Scope for ScopedAttr, Factor for numbers, bool value
  std::uint32_t a = 0;                       // child, Symbol, string offset, function id, list start
  std::uint32_t b = 0;                       // child, string length, Symbol, arg count
  std::uint32_t c = 0;                       // child
  std::uint32_t name_off = 0, name_len = 0;  // spelling of a name in the pool
  union {
    std::int64_t i;
    double r;
  } num{};
};

// A function id resolved at parse time; unknown names evaluate to error
// (as in HTCondor) but still unparse as written.
inline constexpr std::uint32_t kUnknownFunction = 0xffffffffu;

class ExprTree;
using ExprPtr = std::shared_ptr<const ExprTree>;

// Memory for the trees of one ad, so that parsing a 40-attribute ad makes a
// few chunk allocations instead of one or two per attribute. A tree built in
// an arena is an ExprPtr sharing ownership of the whole arena (the aliasing
// shared_ptr constructor), so the arena lives while any of its trees does.
class ExprArena {
 public:
  ExprArena() = default;
  ExprArena(const ExprArena&) = delete;
  ExprArena& operator=(const ExprArena&) = delete;
  void* allocate(std::size_t bytes, std::size_t align);

 private:
  std::vector<std::unique_ptr<std::byte[]>> chunks_;
  std::byte* next_ = nullptr;
  std::size_t left_ = 0;
  std::size_t chunk_size_ = 2048;
};
using ArenaPtr = std::shared_ptr<ExprArena>;

class ExprTree {
 public:
  // Trees are made by ExprBuilder::finish() and shared immutably; their
  // arrays point into their own storage, so they are never copied.
  ExprTree(const ExprTree&) = delete;
  ExprTree& operator=(const ExprTree&) = delete;

  const Node& root() const { return nodes_[node_count_ - 1]; }
  NodeIndex root_index() const { return node_count_ - 1; }
  const Node& node(NodeIndex i) const { return nodes_[i]; }
  std::size_t size() const { return node_count_; }
  std::string_view text(std::uint32_t off, std::uint32_t len) const {
    return std::string_view(pool_ + off, len);
  }
  std::string_view name(const Node& n) const { return text(n.name_off, n.name_len); }
  std::string_view string_literal(const Node& n) const { return text(n.a, n.b); }
  NodeIndex arg(const Node& n, std::uint32_t i) const { return args_[n.a + i]; }
  const std::shared_ptr<const ClassAd>& record(const Node& n) const { return (*records_)[n.a]; }

  // True when the root is a literal: evaluating it needs no scope.
  bool is_literal() const { return root().kind <= NodeKind::String; }

  // Structural equality (HTCondor's ExprTree::SameAs): same shape, same
  // operators, names compared case-insensitively, literals compared as
  // values. Parentheses count, since they are part of the unparsed form.
  bool same_as(const ExprTree& other) const;

  // What a tree is made of, as flat arrays (node indices, argument lists
  // and string offsets refer into them).
  struct Source {
    std::span<const Node> nodes;
    std::span<const NodeIndex> args;
    std::string_view pool;
    std::vector<std::shared_ptr<const ClassAd>>* records = nullptr;  // moved from, if any
  };
  // Makes a tree from `src`: in `arena` when given (and the tree holds no
  // nested ads), else on the heap. ExprBuilder::finish() and the parser's
  // literal fast path use this.
  static ExprPtr make(const Source& src, const ArenaPtr& arena = nullptr);
  // A one-node tree whose node `fill(Node&)` sets where it lies (the
  // parser's path for plain literal lines). Copying a node built on the
  // stack would read it back wider than it was written, which stalls.
  template <class Fill>
  static ExprPtr make_one(std::string_view pool, const ArenaPtr& arena, Fill fill) {
    static constexpr Node kBlank{};
    ExprPtr tree = make(Source{std::span<const Node>(&kBlank, 1), {}, pool}, arena);
    fill(const_cast<Node&>(tree->nodes_[0]));  // not yet shared with anyone
    return tree;
  }

  // Public only for std::make_shared; use make().
  ExprTree(const Source& src, std::byte* external);
  static constexpr std::size_t kInlineBytes = 64;

 private:
  // Nodes, argument indices and the string pool share one block: inline
  // for small trees (a literal attribute is then a single allocation),
  // on the heap otherwise. Parsing an ad makes one tree per attribute, so
  // allocations per tree dominate parse time (bench/RESULTS.md).

  const Node* nodes_ = nullptr;
  const NodeIndex* args_ = nullptr;
  const char* pool_ = nullptr;
  NodeIndex node_count_ = 0;
  std::unique_ptr<std::byte[]> heap_;
  std::unique_ptr<std::vector<std::shared_ptr<const ClassAd>>> records_;  // nested ads, if any
  alignas(Node) std::byte inline_[kInlineBytes];
};

// Builds an ExprTree node by node (used by the parser and by code that makes
// expressions programmatically). Children must be added before parents.
// The builder's working arrays are borrowed from a per-thread pool, so
// building many small trees reuses memory instead of growing new vectors.
class ExprBuilder {
 public:
  struct Parts;  // working arrays (defined in expr.cpp)

  ExprBuilder();
  ~ExprBuilder();
  ExprBuilder(const ExprBuilder&) = delete;
  ExprBuilder& operator=(const ExprBuilder&) = delete;

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
  NodeIndex call(std::string_view name, std::span<const NodeIndex> args);
  NodeIndex list(std::span<const NodeIndex> items);
  NodeIndex record(std::shared_ptr<const ClassAd> ad);
  void add_parens(NodeIndex n);
  Node& at(NodeIndex n);
  const Node& at(NodeIndex n) const;

  // Finishes the tree; `root` must be the last node added. The builder is
  // empty again afterwards. With an arena the tree is placed in it (unless
  // it holds nested ads, which own heap memory).
  ExprPtr finish(const ArenaPtr& arena = nullptr);

 private:
  NodeIndex add(NodeKind kind);  // a zeroed node of `kind`, at the end
  std::uint32_t store(std::string_view s);
  void set_name(Node& n, std::string_view name);
  std::uint32_t store_args(std::span<const NodeIndex> args);
  Parts* parts_;  // borrowed from the per-thread pool
};

// Convenience constructors for literal expressions.
ExprPtr make_literal_expr(std::int64_t i);
ExprPtr make_literal_expr(double r);
ExprPtr make_literal_expr(bool b);
ExprPtr make_literal_expr(std::string_view s);
ExprPtr make_undefined_expr();

}  // namespace cara::classad
