#include "model/classad/expr.h"

#include <algorithm>
#include <cstring>
#include <new>

#include "model/classad/classad.h"
#include "model/classad/functions.h"
#include "model/classad/slot_table.h"
#include "model/classad/text_hash.h"

namespace cara::classad {

namespace {

bool same_node(const ExprTree& ta, NodeIndex ia, const ExprTree& tb, NodeIndex ib) {
  const Node& a = ta.node(ia);
  const Node& b = tb.node(ib);
  if (a.kind != b.kind || a.parens != b.parens) return false;
  switch (a.kind) {
    case NodeKind::Undefined:
    case NodeKind::Error: return true;
    case NodeKind::Boolean: return a.aux == b.aux;
    case NodeKind::Integer: return a.num.i == b.num.i && a.aux == b.aux;
    case NodeKind::Real:
      // Bitwise, so that NaN and -0.0 literals compare as themselves.
      return (a.num.i == b.num.i) && a.aux == b.aux;
    case NodeKind::String: return ta.string_literal(a) == tb.string_literal(b);
    case NodeKind::Attr: return a.a == b.a;
    case NodeKind::ScopedAttr: return a.aux == b.aux && a.a == b.a;
    case NodeKind::Select: return a.b == b.b && same_node(ta, a.a, tb, b.a);
    case NodeKind::Unary: return a.op == b.op && same_node(ta, a.a, tb, b.a);
    case NodeKind::Binary: return a.op == b.op && same_node(ta, a.a, tb, b.a) && same_node(ta, a.b, tb, b.b);
    case NodeKind::Ternary:
      return same_node(ta, a.a, tb, b.a) && same_node(ta, a.b, tb, b.b) && same_node(ta, a.c, tb, b.c);
    case NodeKind::Elvis: return same_node(ta, a.a, tb, b.a) && same_node(ta, a.b, tb, b.b);
    case NodeKind::Call:
      if (!iequals(ta.name(a), tb.name(b))) return false;
      [[fallthrough]];
    case NodeKind::List:
      if (a.b != b.b) return false;
      for (std::uint32_t i = 0; i < a.b; ++i) {
        if (!same_node(ta, ta.arg(a, i), tb, tb.arg(b, i))) return false;
      }
      return true;
    case NodeKind::Record: return ta.record(a)->same_as(*tb.record(b));
  }
  return false;
}

}  // namespace

bool ExprTree::same_as(const ExprTree& other) const {
  return same_node(*this, root_index(), other, other.root_index());
}

// A builder's working arrays.
struct ExprBuilder::Parts {
  std::vector<Node> nodes;
  std::vector<NodeIndex> args;
  std::string pool;
  std::vector<std::shared_ptr<const ClassAd>> records;
  void clear() {
    nodes.clear();
    args.clear();
    pool.clear();
    records.clear();
  }
};

namespace {

std::size_t payload_bytes(const ExprTree::Source& src) {
  return src.nodes.size_bytes() + src.args.size_bytes() + src.pool.size();
}

}  // namespace

ExprTree::ExprTree(const Source& src, std::byte* external)
    : node_count_(static_cast<NodeIndex>(src.nodes.size())) {
  const std::size_t node_bytes = src.nodes.size_bytes();
  const std::size_t arg_bytes = src.args.size_bytes();
  const std::size_t total = payload_bytes(src);
  std::byte* block = inline_;
  if (external) {
    block = external;
  } else if (total > kInlineBytes) {
    heap_ = std::make_unique_for_overwrite<std::byte[]>(total);
    block = heap_.get();
  }
  std::memcpy(block, src.nodes.data(), node_bytes);
  if (arg_bytes) std::memcpy(block + node_bytes, src.args.data(), arg_bytes);
  if (!src.pool.empty()) std::memcpy(block + node_bytes + arg_bytes, src.pool.data(), src.pool.size());
  nodes_ = reinterpret_cast<const Node*>(block);
  args_ = reinterpret_cast<const NodeIndex*>(block + node_bytes);
  pool_ = reinterpret_cast<const char*>(block + node_bytes + arg_bytes);
  if (src.records && !src.records->empty()) {
    records_ = std::make_unique<std::vector<std::shared_ptr<const ClassAd>>>(std::move(*src.records));
  }
}

ExprPtr ExprTree::make(const Source& src, const ArenaPtr& arena) {
  const bool has_records = src.records && !src.records->empty();
  const std::size_t payload = payload_bytes(src);
  if (has_records || (!arena && payload <= kInlineBytes))
    return std::make_shared<const ExprTree>(src, nullptr);
  // The tree object first and its payload right after it, in one block:
  // evaluating a slot's Requirements starts from the header and walks the
  // nodes, and contiguous memory lets the prefetcher follow. (Payload-first
  // was measured 8 % slower on match_per_s.)
  const bool inline_payload = payload <= kInlineBytes;
  const std::size_t bytes = sizeof(ExprTree) + (inline_payload ? 0 : payload);
  if (arena) {
    // The destructor of an arena tree never runs, which is sound: it owns
    // nothing (no heap block, no nested ads); the arena frees the bytes.
    auto* block = static_cast<std::byte*>(arena->allocate(bytes, alignof(ExprTree)));
    const ExprTree* tree = new (block) ExprTree(src, inline_payload ? nullptr : block + sizeof(ExprTree));
    return ExprPtr(arena, tree);
  }
  auto* block = static_cast<std::byte*>(::operator new(bytes));
  const ExprTree* tree = new (block) ExprTree(src, block + sizeof(ExprTree));
  return ExprPtr(tree, [](const ExprTree* t) {
    t->~ExprTree();
    ::operator delete(const_cast<ExprTree*>(t));
  });
}

namespace {

// Builders nest (a nested ad's attributes are built while the enclosing
// expression is), so the pool is a stack of spare Parts per thread.
std::vector<std::unique_ptr<ExprBuilder::Parts>>& spare_parts() {
  thread_local std::vector<std::unique_ptr<ExprBuilder::Parts>> spares;
  return spares;
}

}  // namespace

ExprBuilder::ExprBuilder() {
  auto& spares = spare_parts();
  if (spares.empty()) {
    parts_ = new Parts;
  } else {
    parts_ = spares.back().release();
    spares.pop_back();
  }
}

ExprBuilder::~ExprBuilder() {
  parts_->clear();
  // Keep a few warm sets; drop oversized ones so one huge expression does
  // not pin its memory for the life of the thread.
  auto& spares = spare_parts();
  if (spares.size() < 8 && parts_->nodes.capacity() <= 4096) {
    spares.emplace_back(parts_);
  } else {
    delete parts_;
  }
}

void ExprBuilder::add_parens(NodeIndex n) {
  ++parts_->nodes[n].parens;
}
Node& ExprBuilder::at(NodeIndex n) {
  return parts_->nodes[n];
}
const Node& ExprBuilder::at(NodeIndex n) const {
  return parts_->nodes[n];
}

// Nodes are filled in place: building one on the stack and copying it in
// made each copy wait on narrower stores to the same bytes (store-to-load
// forwarding fails), which was a tenth of parse time (bench/RESULTS.md).
NodeIndex ExprBuilder::add(NodeKind kind) {
  parts_->nodes.emplace_back().kind = kind;
  return static_cast<NodeIndex>(parts_->nodes.size() - 1);
}

std::uint32_t ExprBuilder::store(std::string_view s) {
  auto off = static_cast<std::uint32_t>(parts_->pool.size());
  parts_->pool.append(s);
  return off;
}

void ExprBuilder::set_name(Node& n, std::string_view name) {
  n.name_off = store(name);
  n.name_len = static_cast<std::uint32_t>(name.size());
}

std::uint32_t ExprBuilder::store_args(std::span<const NodeIndex> args) {
  auto start = static_cast<std::uint32_t>(parts_->args.size());
  parts_->args.insert(parts_->args.end(), args.begin(), args.end());
  return start;
}

NodeIndex ExprBuilder::literal_undefined() {
  return add(NodeKind::Undefined);
}
NodeIndex ExprBuilder::literal_error() {
  return add(NodeKind::Error);
}

NodeIndex ExprBuilder::literal_bool(bool b) {
  const NodeIndex at = add(NodeKind::Boolean);
  Node& n = parts_->nodes[at];
  n.aux = b ? 1 : 0;
  return at;
}

NodeIndex ExprBuilder::literal_int(std::int64_t i, Factor f) {
  const NodeIndex at = add(NodeKind::Integer);
  Node& n = parts_->nodes[at];
  n.num.i = i;
  n.aux = static_cast<std::uint8_t>(f);
  return at;
}

NodeIndex ExprBuilder::literal_real(double r, Factor f) {
  const NodeIndex at = add(NodeKind::Real);
  Node& n = parts_->nodes[at];
  n.num.r = r;
  n.aux = static_cast<std::uint8_t>(f);
  return at;
}

NodeIndex ExprBuilder::literal_string(std::string_view s) {
  const NodeIndex at = add(NodeKind::String);
  Node& n = parts_->nodes[at];
  n.a = store(s);
  n.b = static_cast<std::uint32_t>(s.size());
  return at;
}

NodeIndex ExprBuilder::attr(std::string_view name) {
  const NodeIndex at = add(NodeKind::Attr);
  Node& n = parts_->nodes[at];
  n.a = intern(name);
  set_name(n, name);
  return at;
}

NodeIndex ExprBuilder::scoped_attr(Scope scope, std::string_view name) {
  const NodeIndex at = add(NodeKind::ScopedAttr);
  Node& n = parts_->nodes[at];
  n.aux = static_cast<std::uint8_t>(scope);
  n.a = intern(name);
  set_name(n, name);
  return at;
}

NodeIndex ExprBuilder::select(NodeIndex base, std::string_view name) {
  const NodeIndex at = add(NodeKind::Select);
  Node& n = parts_->nodes[at];
  n.a = base;
  n.b = intern(name);
  set_name(n, name);
  return at;
}

NodeIndex ExprBuilder::unary(Op op, NodeIndex a) {
  const NodeIndex at = add(NodeKind::Unary);
  Node& n = parts_->nodes[at];
  n.op = op;
  n.a = a;
  return at;
}

NodeIndex ExprBuilder::binary(Op op, NodeIndex a, NodeIndex b) {
  const NodeIndex at = add(NodeKind::Binary);
  Node& n = parts_->nodes[at];
  n.op = op;
  n.a = a;
  n.b = b;
  return at;
}

NodeIndex ExprBuilder::ternary(NodeIndex cond, NodeIndex then, NodeIndex otherwise) {
  const NodeIndex at = add(NodeKind::Ternary);
  Node& n = parts_->nodes[at];
  n.op = Op::Ternary;
  n.a = cond;
  n.b = then;
  n.c = otherwise;
  return at;
}

NodeIndex ExprBuilder::elvis(NodeIndex a, NodeIndex b) {
  const NodeIndex at = add(NodeKind::Elvis);
  Node& n = parts_->nodes[at];
  n.op = Op::Elvis;
  n.a = a;
  n.b = b;
  return at;
}

NodeIndex ExprBuilder::call(std::string_view name, std::span<const NodeIndex> args) {
  const NodeIndex at = add(NodeKind::Call);
  Node& n = parts_->nodes[at];
  n.a = store_args(args);
  n.b = static_cast<std::uint32_t>(args.size());
  n.c = FunctionRegistry::instance().find(name);
  set_name(n, name);
  return at;
}

NodeIndex ExprBuilder::list(std::span<const NodeIndex> items) {
  const NodeIndex at = add(NodeKind::List);
  Node& n = parts_->nodes[at];
  n.a = store_args(items);
  n.b = static_cast<std::uint32_t>(items.size());
  return at;
}

NodeIndex ExprBuilder::record(std::shared_ptr<const ClassAd> ad) {
  const NodeIndex at = add(NodeKind::Record);
  parts_->nodes[at].a = static_cast<std::uint32_t>(parts_->records.size());
  parts_->records.push_back(std::move(ad));
  return at;
}

void* ExprArena::allocate(std::size_t bytes, std::size_t align) {
  auto misalign = reinterpret_cast<std::uintptr_t>(next_) & (align - 1);
  std::size_t pad = misalign ? align - misalign : 0;
  if (!next_ || pad + bytes > left_) {
    // Chunks grow geometrically (to 64 KiB) so small ads stay small.
    std::size_t size = std::max(chunk_size_, bytes + align);
    chunk_size_ = std::min<std::size_t>(chunk_size_ * 2, 64 * 1024);
    chunks_.push_back(std::make_unique_for_overwrite<std::byte[]>(size));
    next_ = chunks_.back().get();
    left_ = size;
    misalign = reinterpret_cast<std::uintptr_t>(next_) & (align - 1);
    pad = misalign ? align - misalign : 0;
  }
  std::byte* out = next_ + pad;
  next_ = out + bytes;
  left_ -= pad + bytes;
  return out;
}

ExprPtr ExprBuilder::finish(const ArenaPtr& arena) {
  ExprPtr out =
      ExprTree::make(ExprTree::Source{parts_->nodes, parts_->args, parts_->pool, &parts_->records}, arena);
  parts_->clear();
  return out;
}

namespace {

// Literal trees are immutable, so every ad holding the same value can hold
// the same tree: a startd's slot ads repeat OpSys, Arch, TotalCpus, State
// and the times on every slot, and each tree costs ~150 bytes
// (bench/RESULTS.md, bytes_per_slot_actor). A per-thread table of recent
// literals, one per slot and the newest wins, so it never grows.
class LiteralTrees {
 public:
  static constexpr std::size_t kSlots = 1024;
  static constexpr std::size_t kMaxString = 64;  // longer strings get their own tree

  template <class Build>
  ExprPtr get(NodeKind kind, std::uint64_t bits, std::string_view text, Build build) {
    std::uint64_t h = (kind == NodeKind::String ? hash_text<false>(text) : bits * 0x9E3779B97F4A7C15ull) ^
                      static_cast<std::uint64_t>(kind);
    h ^= h >> 29;
    if (const Entry* e = entries_.find(h); e && e->kind == kind && e->bits == bits && e->text == text)
      return e->tree;
    ExprBuilder b;
    build(b);
    Entry& e = entries_.place(h);
    e.hash = h;
    e.kind = kind;
    e.bits = bits;
    e.text.assign(text);
    e.tree = b.finish();
    return e.tree;
  }

 private:
  struct Entry {
    std::uint64_t hash = 0;
    NodeKind kind = NodeKind::Undefined;
    std::uint64_t bits = 0;
    std::string text;
    ExprPtr tree;
    bool empty() const { return !tree; }
  };
  SlotTable<Entry> entries_{kSlots};
};

LiteralTrees& literal_trees() {
  thread_local LiteralTrees trees;
  return trees;
}

}  // namespace

ExprPtr make_literal_expr(std::int64_t i) {
  return literal_trees().get(NodeKind::Integer, static_cast<std::uint64_t>(i), {},
                             [&](ExprBuilder& b) { b.literal_int(i); });
}
ExprPtr make_literal_expr(double r) {
  std::uint64_t bits;
  std::memcpy(&bits, &r, sizeof bits);
  return literal_trees().get(NodeKind::Real, bits, {}, [&](ExprBuilder& b) { b.literal_real(r); });
}
ExprPtr make_literal_expr(bool v) {
  return literal_trees().get(NodeKind::Boolean, v ? 1 : 0, {}, [&](ExprBuilder& b) { b.literal_bool(v); });
}
ExprPtr make_undefined_expr() {
  // One tree for the process: it is immutable, and its count is atomic.
  static const ExprPtr undefined = [] {
    ExprBuilder b;
    b.literal_undefined();
    return b.finish();
  }();
  return undefined;
}
ExprPtr make_literal_expr(std::string_view s) {
  if (s.size() > LiteralTrees::kMaxString) {
    ExprBuilder b;
    b.literal_string(s);
    return b.finish();
  }
  return literal_trees().get(NodeKind::String, 0, s, [&](ExprBuilder& b) { b.literal_string(s); });
}

}  // namespace cara::classad
