#include "model/classad/expr.h"

#include "model/classad/classad.h"
#include "model/classad/functions.h"

namespace cara::classad {

bool ExprTree::is_literal() const {
  switch (root().kind) {
    case NodeKind::Undefined:
    case NodeKind::Error:
    case NodeKind::Boolean:
    case NodeKind::Integer:
    case NodeKind::Real:
    case NodeKind::String: return true;
    default: return false;
  }
}

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
    case NodeKind::Binary:
      return a.op == b.op && same_node(ta, a.a, tb, b.a) && same_node(ta, a.b, tb, b.b);
    case NodeKind::Ternary:
      return same_node(ta, a.a, tb, b.a) && same_node(ta, a.b, tb, b.b) &&
             same_node(ta, a.c, tb, b.c);
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

NodeIndex ExprBuilder::push(Node n) {
  tree_.nodes_.push_back(n);
  return static_cast<NodeIndex>(tree_.nodes_.size() - 1);
}

std::uint32_t ExprBuilder::store(std::string_view s) {
  auto off = static_cast<std::uint32_t>(tree_.pool_.size());
  tree_.pool_.append(s);
  return off;
}

void ExprBuilder::set_name(Node& n, std::string_view name) {
  n.name_off = store(name);
  n.name_len = static_cast<std::uint32_t>(name.size());
}

std::uint32_t ExprBuilder::store_args(const std::vector<NodeIndex>& args) {
  auto start = static_cast<std::uint32_t>(tree_.args_.size());
  tree_.args_.insert(tree_.args_.end(), args.begin(), args.end());
  return start;
}

NodeIndex ExprBuilder::literal_undefined() { return push(Node{NodeKind::Undefined}); }
NodeIndex ExprBuilder::literal_error() { return push(Node{NodeKind::Error}); }

NodeIndex ExprBuilder::literal_bool(bool b) {
  Node n{NodeKind::Boolean};
  n.aux = b ? 1 : 0;
  return push(n);
}

NodeIndex ExprBuilder::literal_int(std::int64_t i, Factor f) {
  Node n{NodeKind::Integer};
  n.num.i = i;
  n.aux = static_cast<std::uint8_t>(f);
  return push(n);
}

NodeIndex ExprBuilder::literal_real(double r, Factor f) {
  Node n{NodeKind::Real};
  n.num.r = r;
  n.aux = static_cast<std::uint8_t>(f);
  return push(n);
}

NodeIndex ExprBuilder::literal_string(std::string_view s) {
  Node n{NodeKind::String};
  n.a = store(s);
  n.b = static_cast<std::uint32_t>(s.size());
  return push(n);
}

NodeIndex ExprBuilder::attr(std::string_view name) {
  Node n{NodeKind::Attr};
  n.a = intern(name);
  set_name(n, name);
  return push(n);
}

NodeIndex ExprBuilder::scoped_attr(Scope scope, std::string_view name) {
  Node n{NodeKind::ScopedAttr};
  n.aux = static_cast<std::uint8_t>(scope);
  n.a = intern(name);
  set_name(n, name);
  return push(n);
}

NodeIndex ExprBuilder::select(NodeIndex base, std::string_view name) {
  Node n{NodeKind::Select};
  n.a = base;
  n.b = intern(name);
  set_name(n, name);
  return push(n);
}

NodeIndex ExprBuilder::unary(Op op, NodeIndex a) {
  Node n{NodeKind::Unary};
  n.op = op;
  n.a = a;
  return push(n);
}

NodeIndex ExprBuilder::binary(Op op, NodeIndex a, NodeIndex b) {
  Node n{NodeKind::Binary};
  n.op = op;
  n.a = a;
  n.b = b;
  return push(n);
}

NodeIndex ExprBuilder::ternary(NodeIndex cond, NodeIndex then, NodeIndex otherwise) {
  Node n{NodeKind::Ternary};
  n.op = Op::Ternary;
  n.a = cond;
  n.b = then;
  n.c = otherwise;
  return push(n);
}

NodeIndex ExprBuilder::elvis(NodeIndex a, NodeIndex b) {
  Node n{NodeKind::Elvis};
  n.op = Op::Elvis;
  n.a = a;
  n.b = b;
  return push(n);
}

NodeIndex ExprBuilder::call(std::string_view name, const std::vector<NodeIndex>& args) {
  Node n{NodeKind::Call};
  n.a = store_args(args);
  n.b = static_cast<std::uint32_t>(args.size());
  n.c = FunctionRegistry::instance().find(name);
  set_name(n, name);
  return push(n);
}

NodeIndex ExprBuilder::list(const std::vector<NodeIndex>& items) {
  Node n{NodeKind::List};
  n.a = store_args(items);
  n.b = static_cast<std::uint32_t>(items.size());
  return push(n);
}

NodeIndex ExprBuilder::record(std::shared_ptr<const ClassAd> ad) {
  Node n{NodeKind::Record};
  n.a = static_cast<std::uint32_t>(tree_.records_.size());
  tree_.records_.push_back(std::move(ad));
  return push(n);
}

ExprPtr ExprBuilder::finish() {
  auto out = std::make_shared<ExprTree>(std::move(tree_));
  tree_ = ExprTree{};
  return out;
}

ExprPtr make_literal_expr(std::int64_t i) {
  ExprBuilder b;
  b.literal_int(i);
  return b.finish();
}
ExprPtr make_literal_expr(double r) {
  ExprBuilder b;
  b.literal_real(r);
  return b.finish();
}
ExprPtr make_literal_expr(bool v) {
  ExprBuilder b;
  b.literal_bool(v);
  return b.finish();
}
ExprPtr make_literal_expr(std::string_view s) {
  ExprBuilder b;
  b.literal_string(s);
  return b.finish();
}

}  // namespace cara::classad
