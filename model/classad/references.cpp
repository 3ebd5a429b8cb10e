#include "model/classad/references.h"

#include <strings.h>

namespace cara::classad {
namespace {

class Walker {
 public:
  Walker(const ClassAd* my, References& refs) : my_(my), refs_(refs) {}

  void walk(const ExprTree& t, NodeIndex i) {
    const Node& n = t.node(i);
    switch (n.kind) {
      case NodeKind::Attr: {
        const std::string name(t.name(n));
        if (my_ != nullptr && my_->find(name) != nullptr)
          internal(name);
        else
          refs_.external.insert(name);
        return;
      }
      case NodeKind::ScopedAttr: {
        const std::string name(t.name(n));
        if (static_cast<Scope>(n.aux) == Scope::Target)
          refs_.external.insert(name);
        else
          internal(name);
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
  void internal(const std::string& name) {
    if (!refs_.internal.insert(name).second || my_ == nullptr) return;  // seen: cycles end here
    if (const Attribute* a = my_->find(name); a != nullptr && a->expr) walk(*a->expr, a->expr->root_index());
  }

  const ClassAd* my_;
  References& refs_;
};

}  // namespace

bool NameLess::operator()(const std::string& a, const std::string& b) const {
  return ::strcasecmp(a.c_str(), b.c_str()) < 0;
}

void collect_references(const ExprTree& expr, const ClassAd* my, References& refs) {
  Walker(my, refs).walk(expr, expr.root_index());
}

}  // namespace cara::classad
