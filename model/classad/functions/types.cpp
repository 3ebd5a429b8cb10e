// Type predicates and conversions: isUndefined ... isRelTime, int, real,
// string, bool (spec: HTCondor "Predefined Functions").
#include <cmath>

#include "model/classad/functions/support.h"
#include "model/classad/symbol.h"

namespace cara::classad {
namespace {

Value is_type(FnArgs& args, std::string_view name) {
  if (args.size() != 1) return Value::error();
  Value v = args.eval(0);
  std::string n = fn::to_lower(name);
  bool r = false;
  if (n == "isundefined") r = v.is_undefined();
  else if (n == "iserror") r = v.is_error();
  else if (n == "isstring") r = v.is_string();
  else if (n == "isinteger") r = v.is_int();
  else if (n == "isreal") r = v.is_real();
  else if (n == "isboolean") r = v.is_bool();
  else if (n == "islist") r = v.is_list();
  else if (n == "isclassad") r = v.is_ad();
  else if (n == "isabstime") r = v.is_abs_time();
  else if (n == "isreltime") r = v.is_rel_time();
  return Value::boolean(r);
}

// int(): reals truncate toward zero, strings are read as strtod reads them;
// undefined, error and anything unconvertible give error (spec).
Value to_int(FnArgs& args, std::string_view) {
  if (args.size() != 1) return Value::error();
  Value v = args.eval(0);
  std::int64_t i;
  switch (v.type()) {
    case ValueType::Integer: return v;
    case ValueType::Real:
    case ValueType::Boolean: v.number(i); return Value::integer(i);
    case ValueType::String: {
      auto r = fn::parse_number(v.as_string());
      if (!r) return Value::error();
      Value::real(*r).number(i);
      return Value::integer(i);
    }
    case ValueType::AbsTime: return Value::integer(v.abs_secs());
    case ValueType::RelTime: Value::real(v.rel_secs()).number(i); return Value::integer(i);
    default: return Value::error();
  }
}

Value to_real(FnArgs& args, std::string_view) {
  if (args.size() != 1) return Value::error();
  Value v = args.eval(0);
  double r;
  switch (v.type()) {
    case ValueType::Real: return v;
    case ValueType::Integer:
    case ValueType::Boolean: v.number(r); return Value::real(r);
    case ValueType::String: {
      auto p = fn::parse_number(v.as_string());
      return p ? Value::real(*p) : Value::error();
    }
    case ValueType::AbsTime: return Value::real(static_cast<double>(v.abs_secs()));
    case ValueType::RelTime: return Value::real(v.rel_secs());
    default: return Value::error();
  }
}

Value to_string(FnArgs& args, std::string_view) {
  if (args.size() != 1) return Value::error();
  Value v = args.eval(0);
  if (v.is_exceptional()) return Value::error();
  return fn::to_string_value(v);
}

Value to_bool(FnArgs& args, std::string_view) {
  if (args.size() != 1) return Value::error();
  Value v = args.eval(0);
  bool b;
  if (v.bool_equiv(b)) return Value::boolean(b);
  if (v.is_undefined()) return v;
  if (v.is_string()) {
    if (iequals(v.as_string(), "true")) return Value::boolean(true);
    if (iequals(v.as_string(), "false")) return Value::boolean(false);
  }
  return Value::error();
}

}  // namespace

void register_type_functions(FunctionRegistry& r) {
  for (const char* n : {"isUndefined", "isError", "isString", "isInteger", "isReal", "isBoolean", "isList",
                        "isClassAd", "isAbsTime", "isRelTime"}) {
    r.add(n, is_type);
  }
  r.add("int", to_int);
  r.add("real", to_real);
  r.add("string", to_string);
  r.add("bool", to_bool);
}

}  // namespace cara::classad
