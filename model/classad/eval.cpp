#include "model/classad/eval.h"

#include <array>
#include <string>

#include "model/classad/conjuncts.h"
#include "model/classad/functions.h"
#include "model/classad/literal.h"
#include "model/classad/operators.h"
#include "model/classad/parser.h"
#include "model/classad/scalar.h"
#include "model/classad/scope.h"
#include "model/classad/unparse.h"

namespace cara::classad {
namespace {

// Bounds that keep evaluation of hostile input finite and on the stack.
constexpr int kMaxDepth = 1500;          // nested evaluation calls
constexpr std::size_t kMaxActive = 256;  // attributes being evaluated at once

// Where an expression is being evaluated: the ad whose attributes unscoped
// names see first, its enclosing ads, and the MY/TARGET pair.
struct Frame {
  const ClassAd* ad;
  const ScopeLink* parent;  // null at top level; owned by the value being evaluated
  const ClassAd* my;
  const ClassAd* target;
};

// An attribute found by a lookup. By symbol we get its index slot, whose
// inline value may answer without touching the attribute at all; by name,
// the attribute itself.
struct Hit {
  const ClassAd* ad = nullptr;
  const ClassAd::IndexSlot* slot = nullptr;
  const Attribute* attr = nullptr;
  explicit operator bool() const { return slot || attr; }
  const Attribute& attribute() const { return attr ? *attr : ad->at(*slot); }
};

// Attribute lookup policies: by interned Symbol (fast) or by spelling.
struct BySymbol {
  static Hit find(const ClassAd& ad, Symbol sym, std::string_view) {
    return Hit{&ad, ad.find_slot(sym), nullptr};
  }
};
struct ByName {
  static Hit find(const ClassAd& ad, Symbol, std::string_view name) {
    return Hit{&ad, nullptr, ad.find_by_name(name)};
  }
};

template <class Lookup>
class Evaluator {
 public:
  explicit Evaluator(const EvalEnv& env) : env_(env) {}

  Value run(const ExprTree& t, const Frame& f) { return eval(t, t.root_index(), f); }

  // Whether `t` is true (boolean-equivalent and true) in `f`, asked
  // conjunct by conjunct (conjuncts.h); integers and strings held inline
  // are compared without making Values.
  bool holds(const ExprTree& t, const Frame& f) {
    return all_conjuncts(t, [&](NodeIndex at, int depth) {
      const Node& n = t.node(at);
      if (n.kind == NodeKind::Binary && is_plain_comparison(n.op)) {
        const int r = compare_scalars(n.op, scalar(t, n.a, f), scalar(t, n.b, f));
        if (r >= 0) return r == 1;
      }
      return holds_at(t, at, depth, f);
    });
  }

  // Whether node `at` of `t` is true in `f`, evaluated as the whole tree's
  // evaluation would evaluate it at `depth`.
  bool holds_at(const ExprTree& t, NodeIndex at, int depth, const Frame& f) {
    depth_ = depth;
    bool b = false;
    return eval(t, at, f).bool_equiv(b) && b;
  }

  // A literal, or a reference that eval() would answer from an inline
  // index entry, as a Scalar; None for anything else.
  static Scalar scalar(const ExprTree& t, NodeIndex i, const Frame& f) {
    const Node& n = t.node(i);
    if (n.kind <= NodeKind::String) return Scalar::of(t, n);
    if constexpr (!std::is_same_v<Lookup, BySymbol>) {
      return Scalar{};
    } else {
      const ClassAd* ad = nullptr;
      if (n.kind == NodeKind::ScopedAttr && static_cast<Scope>(n.aux) != Scope::Root) {
        ad = static_cast<Scope>(n.aux) == Scope::My ? f.my : f.target;
      } else if (n.kind == NodeKind::Attr) {
        ad = f.ad;  // where eval() looks first
      }
      const ClassAd::IndexSlot* slot = ad ? ad->find_slot(n.a) : nullptr;
      return slot ? Scalar::of(*slot) : Scalar{};
    }
  }

  Value eval(const ExprTree& t, NodeIndex i, const Frame& f) {
    const Node& n = t.node(i);
    if (n.kind <= NodeKind::String) return literal_value(t, n);
    // Fast path: a reference whose index slot holds the value inline (the
    // bulk of matching). Anything else takes the general path below.
    if constexpr (std::is_same_v<Lookup, BySymbol>) {
      const ClassAd* ad = nullptr;
      if (n.kind == NodeKind::ScopedAttr && static_cast<Scope>(n.aux) != Scope::Root) {
        ad = static_cast<Scope>(n.aux) == Scope::My ? f.my : f.target;
        if (!ad) return Value::undefined();
      } else if (n.kind == NodeKind::Attr) {
        ad = f.ad;
      }
      if (ad) {
        const ClassAd::IndexSlot* slot = ad->find_slot(n.a);
        if (slot && slot->has_inline_value()) return slot->inline_value();
        if (!slot && n.kind == NodeKind::ScopedAttr) return Value::undefined();
      }
    }
    if (++depth_ > kMaxDepth) {
      --depth_;
      return Value::error();
    }
    Value v = eval_compound(t, n, f);
    --depth_;
    return v;
  }

  // Evaluates `text` as an expression in frame `f` (for eval()).
  Value eval_text(std::string_view text, const Frame& f) {
    auto parsed = parse_expression(text);
    if (!parsed) return Value::error();
    // The temporary tree dies here, so the result must not view into it.
    return eval(**parsed, (*parsed)->root_index(), f).detached();
  }

  std::optional<std::string> referenced_text(const ExprTree& t, NodeIndex i, const Frame& f) {
    const Node& n = t.node(i);
    if (n.kind != NodeKind::Attr && n.kind != NodeKind::ScopedAttr) return std::nullopt;
    Frame where;
    Hit a = n.kind == NodeKind::Attr ? resolve_unscoped(t, n, f, where) : resolve_scoped(t, n, f, where);
    return a ? unparse(*a.attribute().expr) : std::string();
  }

  const EvalEnv& env() const { return env_; }

 private:
  Value eval_compound(const ExprTree& t, const Node& n, const Frame& f) {
    switch (n.kind) {
      case NodeKind::Attr: {
        Frame where;
        Hit a = resolve_unscoped(t, n, f, where);
        return a ? eval_attribute(a, where) : Value::undefined();
      }
      case NodeKind::ScopedAttr: {
        Frame where;
        Hit a = resolve_scoped(t, n, f, where);
        return a ? eval_attribute(a, where) : Value::undefined();
      }
      case NodeKind::Select: return select(eval(t, n.a, f), n.b, t.name(n), f);
      case NodeKind::Unary: return apply_unary(n.op, eval(t, n.a, f));
      case NodeKind::Binary: {
        if (n.op == Op::And || n.op == Op::Or) {
          Value a = eval(t, n.a, f);
          if (a.is_bool()) {  // the common case, without calls
            if (a.as_bool() == (n.op == Op::Or)) return a;
            Value b = eval(t, n.b, f);
            return b.is_bool() ? b : apply_logical(n.op, a, b);
          }
          Value r;
          if (short_circuits(n.op, a, r)) return r;
          return apply_logical(n.op, a, eval(t, n.b, f));
        }
        Value a = eval(t, n.a, f);
        Value b = eval(t, n.b, f);
        if (a.is_int() && b.is_int() && is_comparison(n.op)) {
          return Value::boolean(compare_ordered(n.op, a.as_int(), b.as_int()));
        }
        if ((n.op == Op::Eq || n.op == Op::NotEq) && a.is_string() && b.is_string()) {
          // == and != on strings ignore case (operators.cpp).
          return Value::boolean(iequals(a.as_string(), b.as_string()) == (n.op == Op::Eq));
        }
        if (n.op == Op::Subscript && a.is_ad() && b.is_string()) {
          return lookup_in_ad(a.as_ad(), intern_or_scan(b.as_string()), b.as_string(), f);
        }
        return apply_binary(n.op, a, b);
      }
      case NodeKind::Ternary: {
        // operators.cpp: undefined selector gives undefined; a selector
        // that is not boolean-equivalent gives error.
        Value c = eval(t, n.a, f);
        if (c.is_undefined()) return Value::undefined();
        bool b;
        if (!c.bool_equiv(b)) return Value::error();
        return eval(t, b ? n.b : n.c, f);
      }
      case NodeKind::Elvis: {
        Value a = eval(t, n.a, f);
        return a.is_undefined() ? eval(t, n.b, f) : a;
      }
      case NodeKind::Call: return call(t, n, f);
      case NodeKind::List: {
        ValueList items;
        items.reserve(n.b);
        for (std::uint32_t k = 0; k < n.b; ++k) items.push_back(eval(t, t.arg(n, k), f));
        return Value::list(std::move(items));
      }
      case NodeKind::Record: {
        // A nested ad remembers where it was written, for unscoped names.
        // (Only allocate a link when there is an enclosing ad to record.)
        std::shared_ptr<const ScopeLink> enclosing = f.parent ? f.parent->shared_from_this() : nullptr;
        auto parent =
            f.ad ? std::make_shared<const ScopeLink>(f.ad, std::move(enclosing)) : std::move(enclosing);
        return Value::ad(AdRef{t.record(n), std::move(parent)});
      }
      default: return Value::error();
    }
  }

  // Name used for ad["name"] lookups: symbols need interning, the
  // reference path scans by spelling.
  static Symbol intern_or_scan(std::string_view name) {
    if constexpr (std::is_same_v<Lookup, BySymbol>) {
      return intern(name);
    } else {
      return 0;
    }
  }

  Hit find(const ClassAd* ad, Symbol sym, std::string_view name) {
    return ad ? Lookup::find(*ad, sym, name) : Hit{};
  }

  // Unscoped `Name`: the current ad, its enclosing ads, then (from a
  // top-level ad) the target, evaluated with MY and TARGET swapped.
  Hit resolve_unscoped(const ExprTree& t, const Node& n, const Frame& f, Frame& where) {
    Symbol sym = n.a;
    std::string_view name = t.name(n);
    if (Hit a = find(f.ad, sym, name)) {
      where = f;
      return a;
    }
    for (const ScopeLink* link = f.parent; link; link = link->parent.get()) {
      if (Hit a = find(link->ad, sym, name)) {
        where = Frame{link->ad, link->parent.get(), f.my, f.target};
        return a;
      }
    }
    if (!f.parent && f.target && f.ad != f.target) {
      if (Hit a = find(f.target, sym, name)) {
        where = Frame{f.target, nullptr, f.target, f.my};
        return a;
      }
    }
    return Hit{};
  }

  Hit resolve_scoped(const ExprTree& t, const Node& n, const Frame& f, Frame& where) {
    Symbol sym = n.a;
    std::string_view name = t.name(n);
    switch (static_cast<Scope>(n.aux)) {
      case Scope::My: where = Frame{f.my, nullptr, f.my, f.target}; return find(f.my, sym, name);
      case Scope::Target: where = Frame{f.target, nullptr, f.target, f.my}; return find(f.target, sym, name);
      case Scope::Root: {
        const ClassAd* root = f.ad;
        for (const ScopeLink* link = f.parent; link; link = link->parent.get()) root = link->ad;
        where = Frame{root, nullptr, f.my, f.target};
        return find(root, sym, name);
      }
    }
    return Hit{};
  }

  // Evaluates an attribute's expression in its own frame, refusing to
  // re-enter an attribute that is already being evaluated (a cycle).
  Value eval_attribute(const Hit& hit, const Frame& where) {
    const ExprTree* tree;
    Symbol symbol;
    if (hit.slot) {
      // The slot answers without touching the attribute: inline value, or
      // a pointer to the expression (one cache miss fewer per lookup).
      if (hit.slot->has_inline_value()) return hit.slot->inline_value();
      tree = hit.slot->v.expr;
      symbol = hit.slot->symbol;
    } else {
      if (hit.attr->is_literal()) return hit.attr->literal();
      tree = hit.attr->expr.get();
      symbol = hit.attr->symbol;
    }
    const ExprTree& e = *tree;
    for (std::size_t k = 0; k < active_count_; ++k) {
      if (active_[k].ad == where.ad && active_[k].symbol == symbol) return Value::error();
    }
    if (active_count_ == kMaxActive) return Value::error();
    active_[active_count_++] = {where.ad, symbol};
    Value v = eval(e, e.root_index(), where);
    --active_count_;
    return v;
  }

  Value lookup_in_ad(const AdRef& ref, Symbol sym, std::string_view name, const Frame& f) {
    Frame start{ref.ad.get(), ref.parent.get(), f.my, f.target};
    if (Hit a = find(start.ad, sym, name)) return eval_attribute(a, start);
    for (const ScopeLink* link = ref.parent.get(); link; link = link->parent.get()) {
      if (Hit a = find(link->ad, sym, name)) {
        return eval_attribute(a, Frame{link->ad, link->parent.get(), f.my, f.target});
      }
    }
    return Value::undefined();
  }

  // `base.Name`: an attribute of an ad, or of each ad in a list.
  Value select(const Value& base, Symbol sym, std::string_view name, const Frame& f) {
    if (base.is_undefined()) return Value::undefined();
    if (base.is_ad()) return lookup_in_ad(base.as_ad(), sym, name, f);
    if (base.is_list()) {
      ValueList out;
      out.reserve(base.as_list().size());
      for (const Value& item : base.as_list()) out.push_back(select(item, sym, name, f));
      return Value::list(std::move(out));
    }
    return Value::error();
  }

  class Args final : public FnArgs {
   public:
    Args(Evaluator& ev, const ExprTree& t, const Node& n, const Frame& f) : ev_(ev), t_(t), n_(n), f_(f) {}
    std::size_t size() const override { return n_.b; }
    Value eval(std::size_t i) override { return ev_.eval(t_, t_.arg(n_, static_cast<std::uint32_t>(i)), f_); }
    std::optional<std::string> referenced_text(std::size_t i) override {
      return ev_.referenced_text(t_, t_.arg(n_, static_cast<std::uint32_t>(i)), f_);
    }
    Value eval_text(std::string_view text) override { return ev_.eval_text(text, f_); }
    // Only the functions that read the outside world ask for it: time(),
    // absTime(), formatTime(), random(), userMap().
    const EvalEnv& env() const override {
      const EvalEnv& e = ev_.env();
      if (e.outside_read != nullptr) *e.outside_read = true;
      return e;
    }

   private:
    Evaluator& ev_;
    const ExprTree& t_;
    const Node& n_;
    const Frame& f_;
  };

  Value call(const ExprTree& t, const Node& n, const Frame& f) {
    if (n.c == kUnknownFunction) return Value::error();
    Args args(*this, t, n, f);
    return FunctionRegistry::instance().get(n.c)(args, t.name(n));
  }

  const EvalEnv& env_;
  int depth_ = 0;
  // Deliberately left uninitialised: only the first active_count_ entries
  // are read, and zeroing 4 KiB per evaluation would dominate its cost.
  struct Active {
    const ClassAd* ad;
    Symbol symbol;
  };
  Active active_[kMaxActive];
  std::size_t active_count_ = 0;
};

template <class Lookup>
Value run(const ExprTree& expr, const ClassAd* my, const ClassAd* target, const EvalEnv& env) {
  Evaluator<Lookup> ev(env);
  return ev.run(expr, Frame{my, nullptr, my, target});
}

}  // namespace

namespace detail {
bool holds_fast(const ExprTree& expr, const ClassAd* my, const ClassAd* target, const EvalEnv& env) {
  Evaluator<BySymbol> ev(env);
  return ev.holds(expr, Frame{my, nullptr, my, target});
}
bool holds_at_fast(const ExprTree& expr, NodeIndex node, int depth, const ClassAd* my, const ClassAd* target,
                   const EvalEnv& env) {
  Evaluator<BySymbol> ev(env);
  return ev.holds_at(expr, node, depth, Frame{my, nullptr, my, target});
}
Value evaluate_fast(const ExprTree& expr, const ClassAd* my, const ClassAd* target, const EvalEnv& env) {
  return run<BySymbol>(expr, my, target, env);
}
Value evaluate_reference_fast(const ExprTree& expr, const ClassAd* my, const ClassAd* target,
                              const EvalEnv& env) {
  return run<ByName>(expr, my, target, env);
}
}  // namespace detail

Value evaluate(const ExprTree& expr, const ClassAd* my, const ClassAd* target, const EvalEnv& env) {
  return run<BySymbol>(expr, my, target, env).detached();
}

Value evaluate_reference(const ExprTree& expr, const ClassAd* my, const ClassAd* target, const EvalEnv& env) {
  return run<ByName>(expr, my, target, env).detached();
}

Value evaluate_attr(const ClassAd& my, std::string_view name, const ClassAd* target, const EvalEnv& env) {
  return evaluate_attr(my, intern(name), target, env);
}

Value evaluate_attr(const ClassAd& my, Symbol name, const ClassAd* target, const EvalEnv& env) {
  const Attribute* a = my.find(name);
  if (!a) return Value::undefined();
  // A literal is its value: no evaluator to set up (a startd reads its
  // slots' Cpus after every event of a simulated year).
  if (a->is_literal()) return a->literal().detached();
  Evaluator<BySymbol> ev(env);
  return ev.run(*a->expr, Frame{&my, nullptr, &my, target}).detached();
}

}  // namespace cara::classad
