#include "model/classad/references.h"

#include <strings.h>

#include <algorithm>

namespace cara::classad {
namespace {

// Adds `name` (symbol `sym`) to a set of references; false when it was
// there already.
bool add(NameSet& set, std::string_view name, Symbol) {
  const auto at = set.lower_bound(name);
  if (at != set.end() && !set.key_comp()(name, *at)) return false;
  set.emplace_hint(at, name);
  return true;
}

bool add(std::vector<Symbol>& seen, std::string_view, Symbol sym) {
  for (Symbol s : seen)
    if (s == sym) return false;
  seen.push_back(sym);
  return true;
}

// Names are looked up by their Symbol (a name node's `a`, as the
// evaluator reads it): no string is made for a name already noted.
template <class Refs>
class Walker {
 public:
  Walker(const ClassAd* my, Refs& refs) : my_(my), refs_(refs) {}

  void walk(const ExprTree& t, NodeIndex i) {
    const Node& n = t.node(i);
    switch (n.kind) {
      case NodeKind::Attr: {
        const Symbol sym = n.a;
        if (my_ != nullptr && my_->find(sym) != nullptr)
          internal(t.name(n), sym);
        else
          add(refs_.external, t.name(n), sym);
        return;
      }
      case NodeKind::ScopedAttr: {
        const Symbol sym = n.a;
        if (static_cast<Scope>(n.aux) == Scope::Target)
          add(refs_.external, t.name(n), sym);
        else
          internal(t.name(n), sym);
        return;
      }
      case NodeKind::Select: walk(t, n.a); return;
      case NodeKind::Unary: walk(t, n.a); return;
      case NodeKind::Binary:
      case NodeKind::Elvis:
        walk(t, n.a);
        walk(t, n.b);
        return;
      case NodeKind::Ternary:
        walk(t, n.a);
        walk(t, n.b);
        walk(t, n.c);
        return;
      case NodeKind::Call:
      case NodeKind::List:
        for (std::uint32_t k = 0; k < n.b; ++k) walk(t, t.arg(n, k));
        return;
      default: return;  // literals and nested ads refer to nothing outside
    }
  }

 private:
  void internal(std::string_view name, Symbol sym) {
    if (!add(refs_.internal, name, sym) || my_ == nullptr) return;  // seen: cycles end here
    if (const Attribute* a = my_->find(sym); a != nullptr && a->expr) walk(*a->expr, a->expr->root_index());
  }

  const ClassAd* my_;
  Refs& refs_;
};

}  // namespace

bool NameLess::operator()(std::string_view a, std::string_view b) const {
  // strcasecmp's order, on views.
  const std::size_t n = std::min(a.size(), b.size());
  if (const int c = ::strncasecmp(a.data(), b.data(), n); c != 0) return c < 0;
  return a.size() < b.size();
}

void collect_references(const ExprTree& expr, const ClassAd* my, References& refs) {
  Walker<References>(my, refs).walk(expr, expr.root_index());
}

void collect_references(const ExprTree& expr, const ClassAd* my, SymbolReferences& refs) {
  Walker<SymbolReferences>(my, refs).walk(expr, expr.root_index());
}

}  // namespace cara::classad
