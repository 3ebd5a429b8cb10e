#include "model/classad/operators.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "model/classad/classad.h"

namespace cara::classad {
namespace {

bool is_arithmetic(Op op) {
  return op >= Op::UnaryPlus && op <= Op::Mod;
}
bool is_bitwise(Op op) {
  return op >= Op::BitNot && op <= Op::UShr;
}

bool compare_result(Op op, int cmp) {
  switch (op) {
    case Op::Less: return cmp < 0;
    case Op::LessEq: return cmp <= 0;
    case Op::Eq:
    case Op::MetaEq: return cmp == 0;
    case Op::NotEq:
    case Op::MetaNotEq: return cmp != 0;
    case Op::GreaterEq: return cmp >= 0;
    case Op::Greater: return cmp > 0;
    default: return false;
  }
}

// Numeric promotion (operators.cpp coerceToNumber): booleans become 0/1,
// and an integer meeting a real becomes real.
enum class NumKind { Int, Real, None };
NumKind promote(const Value& a, const Value& b, std::int64_t& ia, std::int64_t& ib, double& ra, double& rb) {
  auto scalar = [](const Value& v) { return v.is_int() || v.is_bool() || v.is_real(); };
  if (!scalar(a) || !scalar(b)) return NumKind::None;
  if (!a.is_real() && !b.is_real()) {
    a.number(ia);
    b.number(ib);
    return NumKind::Int;
  }
  a.number(ra);
  b.number(rb);
  return NumKind::Real;
}

Value compare(Op op, const Value& a, const Value& b) {
  const bool meta = op == Op::MetaEq || op == Op::MetaNotEq;
  if (meta) {
    // No type promotion: different types are simply not identical.
    if (a.type() != b.type()) return Value::boolean(op == Op::MetaNotEq);
    if (a.is_exceptional()) return Value::boolean(op == Op::MetaEq);
  } else {
    if (a.is_error() || b.is_error()) return Value::error();
    if (a.is_undefined() || b.is_undefined()) return Value::undefined();
  }
  if (a.is_string() || b.is_string()) {
    if (!a.is_string() || !b.is_string()) return Value::error();
    int cmp = meta ? a.as_string().compare(b.as_string()) : compare_nocase(a.as_string(), b.as_string());
    return Value::boolean(compare_result(op, cmp));
  }
  if (a.is_list() || b.is_list() || a.is_ad() || b.is_ad()) {
    // Lists and ads are not comparable, not even with =?= (operators.cpp).
    return Value::error();
  }
  if (a.is_abs_time() || b.is_abs_time()) {
    if (!a.is_abs_time() || !b.is_abs_time()) return Value::error();
    if (op == Op::MetaEq)
      return Value::boolean(a.abs_secs() == b.abs_secs() && a.abs_offset() == b.abs_offset());
    if (op == Op::MetaNotEq)
      return Value::boolean(a.abs_secs() != b.abs_secs() || a.abs_offset() != b.abs_offset());
    return Value::boolean(compare_ordered(op, a.abs_secs(), b.abs_secs()));
  }
  if (a.is_rel_time() || b.is_rel_time()) {
    if (!a.is_rel_time() || !b.is_rel_time()) return Value::error();
    return Value::boolean(compare_ordered(op, a.rel_secs(), b.rel_secs()));
  }
  if (meta && a.is_bool()) return Value::boolean(compare_ordered(op, a.as_bool(), b.as_bool()));
  std::int64_t ia = 0, ib = 0;
  double ra = 0, rb = 0;
  switch (promote(a, b, ia, ib, ra, rb)) {
    case NumKind::Int: return Value::boolean(compare_ordered(op, ia, ib));
    case NumKind::Real: return Value::boolean(compare_ordered(op, ra, rb));
    case NumKind::None: break;
  }
  return Value::error();
}

Value time_arithmetic(Op op, const Value& a, const Value& b) {
  if (op == Op::Add) {
    if (a.is_abs_time() && b.is_rel_time())
      return Value::abs_time(a.abs_secs() + static_cast<std::int64_t>(b.rel_secs()), a.abs_offset());
    if (a.is_rel_time() && b.is_abs_time())
      return Value::abs_time(b.abs_secs() + static_cast<std::int64_t>(a.rel_secs()), b.abs_offset());
    if (a.is_rel_time() && b.is_rel_time()) return Value::rel_time(a.rel_secs() + b.rel_secs());
  } else if (op == Op::Sub) {
    if (a.is_abs_time() && b.is_abs_time())
      return Value::rel_time(static_cast<double>(a.abs_secs() - b.abs_secs()));
    if (a.is_abs_time() && b.is_rel_time())
      return Value::abs_time(a.abs_secs() - static_cast<std::int64_t>(b.rel_secs()), a.abs_offset());
    if (a.is_rel_time() && b.is_rel_time()) return Value::rel_time(a.rel_secs() - b.rel_secs());
  } else if (op == Op::Mul || op == Op::Div) {
    double n;
    if (a.is_rel_time() && (b.is_int() || b.is_real()) && b.number(n))
      return Value::rel_time(op == Op::Mul ? a.rel_secs() * n : a.rel_secs() / n);
    if (op == Op::Mul && b.is_rel_time() && (a.is_int() || a.is_real()) && a.number(n))
      return Value::rel_time(b.rel_secs() * n);
  }
  return Value::error();
}

Value arithmetic(Op op, const Value& a, const Value& b) {
  if (a.is_error() || b.is_error()) return Value::error();
  if (a.is_undefined() || b.is_undefined()) return Value::undefined();
  if (a.is_abs_time() || a.is_rel_time() || b.is_abs_time() || b.is_rel_time()) {
    return time_arithmetic(op, a, b);
  }
  std::int64_t ia = 0, ib = 0;
  double ra = 0, rb = 0;
  switch (promote(a, b, ia, ib, ra, rb)) {
    case NumKind::Int: {
      // Two's-complement wrap on overflow, as HTCondor's C arithmetic does
      // in practice, without undefined behaviour.
      auto ua = static_cast<std::uint64_t>(ia), ub = static_cast<std::uint64_t>(ib);
      switch (op) {
        case Op::Add: return Value::integer(static_cast<std::int64_t>(ua + ub));
        case Op::Sub: return Value::integer(static_cast<std::int64_t>(ua - ub));
        case Op::Mul: return Value::integer(static_cast<std::int64_t>(ua * ub));
        case Op::Div:
          if (ib == 0) return Value::error();
          if (ia == INT64_MIN && ib == -1) return Value::integer(INT64_MAX);
          return Value::integer(ia / ib);  // truncates toward zero
        case Op::Mod:
          if (ib == 0) return Value::error();
          if (ia == INT64_MIN && ib == -1) return Value::integer(0);
          return Value::integer(ia % ib);
        default: return Value::error();
      }
    }
    case NumKind::Real: {
      double r;
      switch (op) {
        case Op::Add: r = ra + rb; break;
        case Op::Sub: r = ra - rb; break;
        case Op::Mul: r = ra * rb; break;
        case Op::Div: r = ra / rb; break;
        default: return Value::error();  // % is not defined on reals
      }
      // HTCondor turns an overflow to +HUGE_VAL into error.
      if (r == HUGE_VAL) return Value::error();
      return Value::real(r);
    }
    case NumKind::None: break;
  }
  return Value::error();
}

Value bitwise(Op op, const Value& a, const Value& b) {
  if (a.is_error() || b.is_error()) return Value::error();
  if (a.is_undefined() || b.is_undefined()) return Value::undefined();
  if (!a.is_int() || !b.is_int()) return Value::error();
  std::int64_t x = a.as_int(), y = b.as_int();
  auto ux = static_cast<std::uint64_t>(x);
  // Shift counts are taken modulo 64, as the x86 shift instructions do.
  unsigned n = static_cast<unsigned>(y) & 63u;
  switch (op) {
    case Op::BitOr: return Value::integer(x | y);
    case Op::BitXor: return Value::integer(x ^ y);
    case Op::BitAnd: return Value::integer(x & y);
    case Op::Shl: return Value::integer(static_cast<std::int64_t>(ux << n));
    case Op::Shr:
      return Value::integer(x >= 0 ? static_cast<std::int64_t>(ux >> n)
                                   : ~static_cast<std::int64_t>(~ux >> n));
    case Op::UShr: return Value::integer(static_cast<std::int64_t>(ux >> n));
    default: return Value::error();
  }
}

Value subscript(const Value& a, const Value& b) {
  if (a.is_error() || b.is_error()) return Value::error();
  if (a.is_undefined() || b.is_undefined()) return Value::undefined();
  if (a.is_list() && b.is_int()) {
    const auto& items = a.as_list();
    std::int64_t i = b.as_int();
    if (i < 0 || static_cast<std::uint64_t>(i) >= items.size()) return Value::error();
    return items[static_cast<std::size_t>(i)];
  }
  return Value::error();  // ad["name"] is resolved by the evaluator
}

}  // namespace

int compare_nocase(std::string_view a, std::string_view b) {
  std::size_t n = a.size() < b.size() ? a.size() : b.size();
  for (std::size_t i = 0; i < n; ++i) {
    int ca = static_cast<unsigned char>(ascii_lower(a[i]));
    int cb = static_cast<unsigned char>(ascii_lower(b[i]));
    if (ca != cb) return ca - cb;
  }
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

Value apply_unary(Op op, const Value& v) {
  switch (op) {
    case Op::UnaryPlus:
      if (v.is_bool() || v.is_string() || v.is_list() || v.is_ad() || v.is_abs_time()) return Value::error();
      return v;
    case Op::UnaryMinus:
      if (v.is_exceptional()) return v;
      if (v.is_int())
        return Value::integer(static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(v.as_int())));
      if (v.is_real()) return Value::real(-v.as_real());
      if (v.is_rel_time()) return Value::rel_time(-v.rel_secs());
      return Value::error();
    case Op::Not: {
      if (v.is_exceptional()) return v;
      bool b;
      if (v.bool_equiv(b)) return Value::boolean(!b);
      return Value::error();
    }
    case Op::BitNot:
      if (v.is_exceptional()) return v;
      if (v.is_int()) return Value::integer(~v.as_int());
      return Value::error();
    default: return Value::error();
  }
}

Value apply_binary(Op op, const Value& a, const Value& b) {
  if (is_comparison(op)) return compare(op, a, b);
  if (is_arithmetic(op)) return arithmetic(op, a, b);
  if (is_bitwise(op)) return bitwise(op, a, b);
  if (op == Op::Subscript) return subscript(a, b);
  if (op == Op::And || op == Op::Or) return apply_logical(op, a, b);
  return Value::error();
}

bool short_circuits(Op op, const Value& a, Value& result) {
  bool b;
  if (!a.bool_equiv(b)) return false;
  if (op == Op::Or && b) {
    result = Value::boolean(true);
    return true;
  }
  if (op == Op::And && !b) {
    result = Value::boolean(false);
    return true;
  }
  return false;
}

Value apply_logical(Op op, const Value& a, const Value& b) {
  // operators.cpp doLogical: numbers count as booleans; any other type is
  // an error; error on the left wins; then the usual three-valued table.
  bool ba = false, bb = false;
  bool a_bool = a.bool_equiv(ba);
  bool b_bool = b.bool_equiv(bb);
  if (!a_bool && !a.is_exceptional()) return Value::error();
  if (!b_bool && !b.is_exceptional()) return Value::error();
  if (op == Op::Or) {
    if (a_bool && ba) return Value::boolean(true);
    if (a.is_error()) return Value::error();
    if (a_bool) return b_bool ? Value::boolean(bb) : b;  // false || b
    if (!b_bool) return b;                               // undefined || undefined/error
    return bb ? Value::boolean(true) : Value::undefined();
  }
  if (a_bool && !ba) return Value::boolean(false);
  if (a.is_error()) return Value::error();
  if (a_bool) return b_bool ? Value::boolean(bb) : b;  // true && b
  if (!b_bool) return b;                               // undefined && undefined/error
  return bb ? Value::undefined() : Value::boolean(false);
}

}  // namespace cara::classad
