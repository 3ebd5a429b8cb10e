// Numeric functions: floor, ceiling, round, pow, quantize, random.
#include <cmath>
#include <limits>

#include "model/classad/functions/support.h"
#include "model/classad/symbol.h"

namespace cara::classad {
namespace {

// The argument as real() would convert it (strings parsed), or nullopt.
std::optional<double> real_of(const Value& v) {
  double r;
  if (v.number(r)) return r;
  if (v.is_string()) return fn::parse_number(v.as_string());
  return std::nullopt;
}

Value saturating_int(double r) {
  std::int64_t i;
  Value::real(r).number(i);
  return Value::integer(i);
}

// floor/ceiling/round: integers as they are, anything else through real();
// undefined or unconvertible gives error. round() rounds half to even and
// refuses results outside 32 bits (spec).
Value rounding(FnArgs& args, std::string_view name) {
  if (args.size() != 1) return Value::error();
  Value v = args.eval(0);
  if (v.is_int()) return v;
  auto r = real_of(v);
  if (!r) return Value::error();
  std::string n = fn::to_lower(name);
  if (n == "floor") return saturating_int(std::floor(*r));
  if (n == "round") {
    double x = std::nearbyint(*r);
    if (!(x >= -2147483648.0 && x <= 2147483647.0)) return Value::error();
    return Value::integer(static_cast<std::int64_t>(x));
  }
  return saturating_int(std::ceil(*r));
}

// pow(): integer ** non-negative integer stays an integer; otherwise real.
Value pow_fn(FnArgs& args, std::string_view) {
  if (args.size() != 2) return Value::error();
  Value b = args.eval(0);
  Value e = args.eval(1);
  if (b.is_undefined() || e.is_undefined()) return Value::undefined();
  if (!b.is_number() || !e.is_number()) return Value::error();
  if (b.is_int() && e.is_int() && e.as_int() >= 0) {
    std::uint64_t result = 1, base = static_cast<std::uint64_t>(b.as_int());
    for (std::int64_t k = e.as_int(); k > 0; k >>= 1) {
      if (k & 1) result *= base;
      base *= base;
    }
    return Value::integer(static_cast<std::int64_t>(result));
  }
  double x, y;
  b.number(x);
  e.number(y);
  return Value::real(std::pow(x, y));
}

// quantize(a, b): the least multiple of b not below a, of b's type; with a
// list, the first element not below a, else a multiple of the last one.
Value quantize_fn(FnArgs& args, std::string_view) {
  if (args.size() != 2) return Value::error();
  Value a = args.eval(0);
  Value b = args.eval(1);
  if (a.is_undefined() || b.is_undefined()) return Value::undefined();
  if (!a.is_number()) return Value::error();
  double x;
  a.number(x);
  auto multiple = [&](const Value& q) -> Value {
    double y;
    q.number(y);
    if (y == 0) return Value::error();
    double m = std::ceil(x / y) * y;
    return q.is_int() ? saturating_int(m) : Value::real(m);
  };
  if (b.is_number()) return multiple(b);
  if (!b.is_list() || b.as_list().empty()) return Value::error();
  for (const Value& q : b.as_list()) {
    if (!q.is_number()) return Value::error();
    double y;
    q.number(y);
    if (y >= x) return q;
  }
  return multiple(b.as_list().back());
}

// SplitMix64: the default random source when the caller passes none.
std::uint64_t next_random(const EvalEnv& env) {
  if (env.random) return env.random->next();
  thread_local std::uint64_t state = 0x9E3779B97F4A7C15ull;
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// random(): real in [0, 1); random(n) in [0, n), integer or real like n.
Value random_fn(FnArgs& args, std::string_view) {
  if (args.size() > 1) return Value::error();
  double unit = static_cast<double>(next_random(args.env()) >> 11) * 0x1.0p-53;
  if (args.size() == 0) return Value::real(unit);
  Value n = args.eval(0);
  if (n.is_int() && n.as_int() > 0) {
    return Value::integer(static_cast<std::int64_t>(next_random(args.env()) % static_cast<std::uint64_t>(n.as_int())));
  }
  if (n.is_real() && n.as_real() > 0) return Value::real(unit * n.as_real());
  return Value::error();
}

}  // namespace

void register_math_functions(FunctionRegistry& r) {
  for (const char* n : {"floor", "ceiling", "ceil", "round"}) r.add(n, rounding);
  r.add("pow", pow_fn);
  r.add("quantize", quantize_fn);
  r.add("random", random_fn);
}

}  // namespace cara::classad
