// Version comparison: versioncmp, versionGT/LT/GE/LE/EQ, version_in_range.
// The order is strverscmp(3)'s, which HTCondor's natural_cmp follows (spec:
// "000, 00, 01, 010, 09, 0, 1, 9, 10" is in order).
#include <cstring>
#include <string>

#include "model/classad/functions/support.h"

namespace cara::classad {
namespace {

int version_compare(std::string_view a, std::string_view b) {
  int c = ::strverscmp(std::string(a).c_str(), std::string(b).c_str());
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

// Both arguments must be strings: undefined stays undefined (it is not
// swallowed the way =?= would), anything else is an error.
bool two_strings(FnArgs& args, std::size_t first, Value& a, Value& b, Value& fail) {
  a = args.eval(first);
  b = args.eval(first + 1);
  if (a.is_string() && b.is_string()) return true;
  fail = (a.is_undefined() || b.is_undefined()) && !a.is_error() && !b.is_error() ? Value::undefined()
                                                                                  : Value::error();
  return false;
}

Value versioncmp_fn(FnArgs& args, std::string_view name) {
  if (args.size() != 2) return Value::error();
  Value a, b, fail;
  if (!two_strings(args, 0, a, b, fail)) return fail;
  int c = version_compare(a.as_string(), b.as_string());
  std::string n = fn::to_lower(name);
  if (n == "versioncmp") return Value::integer(c);
  if (n == "versiongt") return Value::boolean(c > 0);
  if (n == "versionlt") return Value::boolean(c < 0);
  if (n == "versionge") return Value::boolean(c >= 0);
  if (n == "versionle") return Value::boolean(c <= 0);
  return Value::boolean(c == 0);
}

Value in_range_fn(FnArgs& args, std::string_view) {
  if (args.size() != 3) return Value::error();
  Value v = args.eval(0), lo = args.eval(1), hi = args.eval(2);
  for (const Value* x : {&v, &lo, &hi}) {
    if (x->is_error()) return Value::error();
  }
  for (const Value* x : {&v, &lo, &hi}) {
    if (x->is_undefined()) return Value::undefined();
    if (!x->is_string()) return Value::error();
  }
  return Value::boolean(version_compare(lo.as_string(), v.as_string()) <= 0 &&
                        version_compare(v.as_string(), hi.as_string()) <= 0);
}

}  // namespace

void register_version_functions(FunctionRegistry& r) {
  for (const char* n : {"versioncmp", "versionGT", "versionLT", "versionGE", "versionLE", "versionEQ"}) {
    r.add(n, versioncmp_fn);
  }
  r.add("version_in_range", in_range_fn);
}

}  // namespace cara::classad
