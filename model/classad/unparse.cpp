#include "model/classad/unparse.h"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "model/classad/time_format.h"

namespace cara::classad {
namespace {

const char* op_text(Op op) {
  switch (op) {
    case Op::Less: return " < ";
    case Op::LessEq: return " <= ";
    case Op::NotEq: return " != ";
    case Op::Eq: return " == ";
    case Op::GreaterEq: return " >= ";
    case Op::Greater: return " > ";
    case Op::MetaEq: return " =?= ";
    case Op::MetaNotEq: return " =!= ";
    case Op::UnaryPlus: return "+";
    case Op::UnaryMinus: return "-";
    case Op::Add: return " + ";
    case Op::Sub: return " - ";
    case Op::Mul: return " * ";
    case Op::Div: return " / ";
    case Op::Mod: return " % ";
    case Op::Not: return "!";
    case Op::Or: return " || ";
    case Op::And: return " && ";
    case Op::BitNot: return "~";
    case Op::BitOr: return " | ";
    case Op::BitXor: return " ^ ";
    case Op::BitAnd: return " & ";
    case Op::Shl: return " << ";
    case Op::Shr: return " >> ";
    case Op::UShr: return " >>> ";
    default: return " ? ";
  }
}

const char* factor_text(std::uint8_t f) {
  switch (static_cast<Factor>(f)) {
    case Factor::B: return "B";
    case Factor::K: return "K";
    case Factor::M: return "M";
    case Factor::G: return "G";
    case Factor::T: return "T";
    default: return "";
  }
}

bool is_identifier(std::string_view s) {
  if (s.empty()) return false;
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!alpha(s[0])) return false;
  for (char c : s) {
    if (!alpha(c) && !(c >= '0' && c <= '9')) return false;
  }
  static constexpr std::string_view reserved[] = {"true", "false", "undefined", "error", "is", "isnt"};
  for (auto r : reserved) {
    if (iequals(s, r)) return false;
  }
  return true;
}

class ExprPrinter {
 public:
  ExprPrinter(std::string& out, const ExprTree& t, Quoting q) : out_(out), t_(t), q_(q) {}

  void node(NodeIndex i) {
    const Node& n = t_.node(i);
    for (int k = 0; k < n.parens; ++k) out_ += '(';
    body(n);
    for (int k = 0; k < n.parens; ++k) out_ += ')';
  }

 private:
  void body(const Node& n) {
    switch (n.kind) {
      case NodeKind::Undefined: out_ += "undefined"; return;
      case NodeKind::Error: out_ += "error"; return;
      case NodeKind::Boolean: out_ += n.aux ? "true" : "false"; return;
      case NodeKind::Integer:
        out_ += std::to_string(n.num.i);
        out_ += factor_text(n.aux);
        return;
      case NodeKind::Real:
        // A literal too large for a double (1e999) is infinite; it is
        // written back as a literal that overflows the same way.
        if (std::isinf(n.num.r))
          out_ += n.num.r < 0 ? "-1E+309" : "1E+309";
        else
          append_real(out_, n.num.r);
        out_ += factor_text(n.aux);
        return;
      case NodeKind::String: append_quoted(out_, t_.string_literal(n), q_); return;
      case NodeKind::Attr: append_attribute_name(out_, t_.name(n)); return;
      case NodeKind::ScopedAttr:
        switch (static_cast<Scope>(n.aux)) {
          case Scope::My: out_ += "MY."; break;
          case Scope::Target: out_ += "TARGET."; break;
          case Scope::Root: out_ += "."; break;
        }
        append_attribute_name(out_, t_.name(n));
        return;
      case NodeKind::Select: {
        node(n.a);
        // "3.'x'" would read back as the real 3. and a stray name: a number
        // literal keeps a space before the dot (found by the fuzzer).
        const Node& base = t_.node(n.a);
        const bool number =
            base.parens == 0 && (base.kind == NodeKind::Integer || base.kind == NodeKind::Real);
        out_ += number ? " ." : ".";
        append_attribute_name(out_, t_.name(n));
        return;
      }
      case NodeKind::Unary:
        out_ += op_text(n.op);
        node(n.a);
        return;
      case NodeKind::Binary:
        node(n.a);
        if (n.op == Op::Subscript) {
          out_ += '[';
          node(n.b);
          out_ += ']';
        } else {
          out_ += op_text(n.op);
          node(n.b);
        }
        return;
      case NodeKind::Ternary:
        node(n.a);
        out_ += " ? ";
        node(n.b);
        out_ += " : ";
        node(n.c);
        return;
      case NodeKind::Elvis:
        node(n.a);
        out_ += " ?: ";
        node(n.b);
        return;
      case NodeKind::Call:
        out_ += t_.name(n);
        out_ += '(';
        for (std::uint32_t k = 0; k < n.b; ++k) {
          if (k) out_ += ',';
          node(t_.arg(n, k));
        }
        out_ += ')';
        return;
      case NodeKind::List:
        out_ += "{ ";
        for (std::uint32_t k = 0; k < n.b; ++k) {
          if (k) out_ += ',';
          node(t_.arg(n, k));
        }
        out_ += " }";
        return;
      case NodeKind::Record: out_ += unparse(*t_.record(n)); return;
    }
  }

  std::string& out_;
  const ExprTree& t_;
  Quoting q_;
};

}  // namespace

void append_real(std::string& out, double r) {
  if (r == 0.0) {
    out += std::signbit(r) ? "-0.0" : "0.0";
  } else if (std::isnan(r)) {
    out += "real(\"NaN\")";
  } else if (std::isinf(r)) {
    out += r < 0 ? "real(\"-INF\")" : "real(\"INF\")";
  } else {
    // Shortest text that reads back as the same double (HTCondor prints
    // %.16G, which does not always round-trip).
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, r);
    std::string_view s(buf, static_cast<std::size_t>(res.ptr - buf));
    bool has_point = false;
    for (char& c : buf) {
      if (&c == res.ptr) break;
      if (c == 'e') c = 'E';
      if (c == '.' || c == 'E') has_point = true;
    }
    out += s;
    if (!has_point) out += ".0";
  }
}

std::string quoted(std::string_view s, Quoting q) {
  std::string out;
  append_quoted(out, s, q);
  return out;
}

void append_quoted(std::string& out, std::string_view s, Quoting q) {
  out += '"';
  for (char c : s) {
    if (c == '"') {
      out += "\\\"";
      continue;
    }
    if (q == Quoting::Old) {
      out += c;
      continue;
    }
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\a': out += "\\a"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\v': out += "\\v"; break;
      default: {
        auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\%03o", u);
          out += buf;
        } else {
          out += c;  // printable ASCII and UTF-8 bytes as they are
        }
      }
    }
  }
  out += '"';
}

void append_attribute_name(std::string& out, std::string_view name) {
  if (is_identifier(name)) {
    out += name;
    return;
  }
  out += '\'';
  for (char c : name) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  out += '\'';
}

void unparse(std::string& out, const ExprTree& expr, Quoting q) {
  ExprPrinter(out, expr, q).node(expr.root_index());
}

std::string unparse(const ExprTree& expr, Quoting q) {
  std::string out;
  unparse(out, expr, q);
  return out;
}

void unparse(std::string& out, const Value& v, Quoting q) {
  switch (v.type()) {
    case ValueType::Undefined: out += "undefined"; return;
    case ValueType::Error: out += "error"; return;
    case ValueType::Boolean: out += v.as_bool() ? "true" : "false"; return;
    case ValueType::Integer: out += std::to_string(v.as_int()); return;
    case ValueType::Real: append_real(out, v.as_real()); return;
    case ValueType::String: append_quoted(out, v.as_string(), q); return;
    case ValueType::List: {
      out += "{ ";
      bool first = true;
      for (const Value& item : v.as_list()) {
        if (!first) out += ',';
        first = false;
        unparse(out, item, q);
      }
      out += " }";
      return;
    }
    case ValueType::ClassAd: out += unparse(*v.as_ad().ad); return;
    case ValueType::AbsTime:
      out += "absTime(\"";
      out += format_abs_time(v.abs_secs(), v.abs_offset());
      out += "\")";
      return;
    case ValueType::RelTime:
      out += "relTime(\"";
      out += format_rel_time(v.rel_secs());
      out += "\")";
      return;
  }
}

std::string unparse(const Value& v, Quoting q) {
  std::string out;
  unparse(out, v, q);
  return out;
}

std::string unparse(const ClassAd& ad) {
  std::string out = "[ ";
  bool first = true;
  for (const Attribute& a : ad.attributes()) {
    if (!first) out += "; ";
    first = false;
    append_attribute_name(out, a.name);
    out += " = ";
    unparse(out, *a.expr);
  }
  out += " ]";
  return out;
}

std::string unparse_long_form(const ClassAd& ad) {
  std::string out;
  for (const Attribute& a : ad.attributes()) {
    out += a.name;
    out += " = ";
    unparse(out, *a.expr, Quoting::Old);
    out += '\n';
  }
  return out;
}

}  // namespace cara::classad
