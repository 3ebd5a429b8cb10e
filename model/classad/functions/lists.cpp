// List functions: member, identicalMember, sum, avg, min, max, anyCompare,
// allCompare (spec: HTCondor "Predefined Functions").
#include "model/classad/functions/support.h"
#include "model/classad/operators.h"

namespace cara::classad {
namespace {

// member(x, list) compares with ==, identicalMember with =?=
// (fnCall.cpp testMember).
Value member_fn(FnArgs& args, std::string_view name) {
  if (args.size() != 2) return Value::error();
  bool identical = name.size() > 6;  // "identicalMember"
  Value x = args.eval(0);
  Value list = args.eval(1);
  if (list.is_undefined() || (!identical && x.is_undefined())) return Value::undefined();
  if (!list.is_list() || x.is_list() || x.is_ad()) return Value::error();
  if (!identical && x.is_error()) return Value::error();
  for (const Value& item : list.as_list()) {
    Value r = apply_binary(identical ? Op::MetaEq : Op::Eq, item, x);
    if (r.is_bool() && r.as_bool()) return Value::boolean(true);
  }
  return Value::boolean(false);
}

// sum/avg/min/max: undefined elements are dropped; the rest must be
// numbers. Empty: sum and avg 0, min and max undefined; only undefined
// elements: undefined (spec).
Value aggregate(FnArgs& args, std::string_view name) {
  if (args.size() != 1) return Value::error();
  Value list = args.eval(0);
  if (list.is_undefined()) return list;
  if (!list.is_list()) return Value::error();
  std::string n = fn::to_lower(name);
  bool any_real = false;
  bool any_undefined = false;
  std::size_t count = 0;
  std::int64_t isum = 0;
  double rsum = 0;
  Value best;
  double best_r = 0;
  for (const Value& item : list.as_list()) {
    if (item.is_undefined()) {
      any_undefined = true;
      continue;
    }
    if (!item.is_number()) return Value::error();
    double r;
    item.number(r);
    any_real |= item.is_real();
    if (item.is_int()) isum = static_cast<std::int64_t>(static_cast<std::uint64_t>(isum) + static_cast<std::uint64_t>(item.as_int()));
    rsum += r;
    if (count == 0 || (n == "min" ? r < best_r : r > best_r)) {
      best = item;
      best_r = r;
    }
    ++count;
  }
  if (count == 0) {
    if (any_undefined) return Value::undefined();
    if (n == "sum") return Value::integer(0);
    if (n == "avg") return Value::real(0.0);
    return Value::undefined();
  }
  if (n == "sum") return any_real ? Value::real(rsum) : Value::integer(isum);
  if (n == "avg") return Value::real(rsum / static_cast<double>(count));
  if (any_real) return Value::real(best_r);
  return best;
}

// anyCompare(op, list, x) / allCompare(op, list, x).
Value list_compare(FnArgs& args, std::string_view name) {
  if (args.size() != 3) return Value::error();
  Value op_v = args.eval(0);
  if (op_v.is_undefined()) return op_v;
  if (!op_v.is_string()) return Value::error();
  std::string_view s = op_v.as_string();
  Op op;
  if (s == "<") op = Op::Less;
  else if (s == "<=") op = Op::LessEq;
  else if (s == "!=") op = Op::NotEq;
  else if (s == "==") op = Op::Eq;
  else if (s == ">") op = Op::Greater;
  else if (s == ">=") op = Op::GreaterEq;
  else if (s == "is" || s == "=?=") op = Op::MetaEq;
  else if (s == "isnt" || s == "=!=") op = Op::MetaNotEq;
  else return Value::error();
  Value list = args.eval(1);
  if (list.is_undefined()) return list;
  if (!list.is_list()) return Value::error();
  Value x = args.eval(2);
  bool all = name.size() > 1 && (name[1] == 'l' || name[1] == 'L');  // "allCompare"
  for (const Value& item : list.as_list()) {
    Value r = apply_binary(op, item, x);
    if (r.is_bool()) {
      if (r.as_bool() && !all) return Value::boolean(true);
      if (!r.as_bool() && all) return Value::boolean(false);
    } else if (r.is_undefined()) {
      if (all) return Value::boolean(false);
    } else {
      return Value::error();
    }
  }
  return Value::boolean(all);
}

}  // namespace

void register_list_functions(FunctionRegistry& r) {
  r.add("member", member_fn);
  r.add("identicalMember", member_fn);
  for (const char* n : {"sum", "avg", "min", "max"}) r.add(n, aggregate);
  r.add("anyCompare", list_compare);
  r.add("allCompare", list_compare);
}

}  // namespace cara::classad
