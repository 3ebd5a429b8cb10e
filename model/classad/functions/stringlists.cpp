// String-list functions (a list written as one string, "a, b, c"): the
// compat functions HTCondor's condor_utils registers (compat_classad.cpp)
// and stringListsIntersect from fnCall.cpp.
#include <cmath>
#include <cstdio>
#include <set>

#include "model/classad/functions/support.h"
#include "model/classad/operators.h"
#include "model/classad/symbol.h"

namespace cara::classad {
namespace {

// Evaluates the list (and optional delimiter) arguments; both must be
// strings, else error.
bool list_and_delims(FnArgs& args, std::size_t list_index, std::string_view default_delims,
                     Value& list, Value& delims) {
  list = args.eval(list_index);
  delims = args.size() > list_index + 1 ? args.eval(list_index + 1) : Value::string(std::string(default_delims));
  return list.is_string() && delims.is_string();
}

Value size_fn(FnArgs& args, std::string_view) {
  if (args.size() < 1 || args.size() > 2) return Value::error();
  Value list, delims;
  if (!list_and_delims(args, 0, ", ", list, delims)) return Value::error();
  return Value::integer(static_cast<std::int64_t>(fn::tokens(list.as_string(), delims.as_string()).size()));
}

// stringListSum/Avg/Min/Max: every item must read as a number; an item with
// characters other than digits and signs makes the result real. Empty:
// sum and avg 0.0, min and max undefined (compat_classad.cpp).
Value summarize(FnArgs& args, std::string_view name) {
  if (args.size() < 1 || args.size() > 2) return Value::error();
  Value list, delims;
  if (!list_and_delims(args, 0, ", ", list, delims)) return Value::error();
  std::string n = fn::to_lower(name);
  bool is_real = false;
  double acc = 0;
  std::size_t count = 0;
  for (auto item : fn::tokens(list.as_string(), delims.as_string())) {
    std::string tmp(item);
    double x;
    if (std::sscanf(tmp.c_str(), "%lf", &x) != 1) return Value::error();
    if (item.find_first_not_of("+-0123456789") != std::string_view::npos) is_real = true;
    if (count == 0 && (n == "stringlistmin" || n == "stringlistmax")) acc = x;
    else if (n == "stringlistmin") acc = std::min(acc, x);
    else if (n == "stringlistmax") acc = std::max(acc, x);
    else acc += x;
    ++count;
  }
  if (count == 0) {
    return (n == "stringlistsum" || n == "stringlistavg") ? Value::real(0.0) : Value::undefined();
  }
  if (n == "stringlistavg") acc /= static_cast<double>(count);
  if (is_real || n == "stringlistavg") return Value::real(acc);
  std::int64_t i;
  Value::real(acc).number(i);
  return Value::integer(i);
}

// stringListMember(x, list [, delims]) and the I (case-insensitive),
// SubsetMatch and ISubsetMatch variants. Undefined arguments act as ""
// unless both are undefined; the empty string is a subset of anything; a
// first list of only empty items is not (compat_classad.cpp).
Value member_fn(FnArgs& args, std::string_view name) {
  if (args.size() < 2 || args.size() > 3) return Value::error();
  Value item = args.eval(0);
  Value list = args.eval(1);
  Value delims = args.size() == 3 ? args.eval(2) : Value::string(", \t\r\n");
  auto ok = [](const Value& v) { return v.is_undefined() || v.is_string(); };
  if (!ok(item) || !ok(list) || !ok(delims)) return Value::error();
  if (item.is_undefined() && list.is_undefined()) return Value::undefined();
  std::string_view item_s = item.is_string() ? item.as_string() : "";
  std::string_view list_s = list.is_string() ? list.as_string() : "";
  std::string_view delim_s = delims.is_string() ? delims.as_string() : ", \t\r\n";
  std::string n = fn::to_lower(name);
  bool nocase = n[10] == 'i';  // "stringlist" + 'i'
  auto eq = [&](std::string_view a, std::string_view b) { return nocase ? iequals(a, b) : a == b; };
  auto items = fn::tokens(list_s, delim_s);
  auto contains = [&](std::string_view x) {
    for (auto i : items) {
      if (eq(i, x)) return true;
    }
    return false;
  };
  if (n.find("member") != std::string::npos) return Value::boolean(contains(item_s));
  if (item_s.empty()) return Value::boolean(true);
  bool result = false;
  for (auto x : fn::tokens(item_s, delim_s)) {
    result = contains(x);
    if (!result) break;
  }
  return Value::boolean(result);
}

// stringListsIntersect(a, b [, delims]): do the lists share an item?
Value intersect_fn(FnArgs& args, std::string_view) {
  if (args.size() < 2 || args.size() > 3) return Value::error();
  Value a = args.eval(0);
  Value b = args.eval(1);
  Value d = args.size() == 3 ? args.eval(2) : Value::string(", ");
  if (a.is_undefined() || b.is_undefined() || d.is_undefined()) return Value::undefined();
  if (!a.is_string() || !b.is_string() || !d.is_string()) return Value::error();
  auto left = fn::tokens(a.as_string(), d.as_string());
  std::set<std::string_view> right;
  for (auto t : fn::tokens(b.as_string(), d.as_string())) right.insert(t);
  for (auto t : left) {
    if (right.count(t)) return Value::boolean(true);
  }
  return Value::boolean(false);
}

}  // namespace

void register_stringlist_functions(FunctionRegistry& r) {
  r.add("stringListSize", size_fn);
  for (const char* n : {"stringListSum", "stringListAvg", "stringListMin", "stringListMax"}) r.add(n, summarize);
  for (const char* n : {"stringListMember", "stringListIMember", "stringListSubsetMatch", "stringListISubsetMatch"}) {
    r.add(n, member_fn);
  }
  r.add("stringListsIntersect", intersect_fn);
}

}  // namespace cara::classad
