// String functions: strcat, join, substr, toUpper/toLower, strcmp/stricmp,
// size, split, splitUserName, splitSlotName.
#include <algorithm>

#include "model/classad/classad.h"
#include "model/classad/functions/support.h"
#include "model/classad/operators.h"
#include "model/classad/symbol.h"

namespace cara::classad {
namespace {

// strcat(): every argument as a string; undefined or error anywhere gives
// error (spec: strcat "Returns ERROR if any argument evaluates to
// UNDEFINED or ERROR").
Value strcat_fn(FnArgs& args, std::string_view) {
  std::string out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    Value s = fn::to_string_value(args.eval(i));
    if (!s.is_string()) return Value::error();
    out += s.as_string();
  }
  return Value::string(std::move(out));
}

// join(sep, a, b, ...), join(sep, list), join(list). Undefined items are
// skipped; an undefined separator counts as ""; the result is undefined
// only when something was undefined and no item was joined (HTCondor's
// test_classad_funcs expectations).
Value join_fn(FnArgs& args, std::string_view) {
  const std::size_t n = args.size();
  if (n == 0) return Value::string("");
  std::vector<Value> items;
  Value sep = Value::string("");
  Value last = args.eval(n - 1);
  if (n <= 2 && last.is_list()) {
    items = last.as_list();
    if (n == 2) sep = args.eval(0);
  } else {
    sep = args.eval(0);
    for (std::size_t i = 1; i + 1 < n; ++i) items.push_back(args.eval(i));
    if (n > 1) items.push_back(std::move(last));
  }
  bool saw_undefined = sep.is_undefined();
  if (sep.is_error()) return Value::error();
  Value sep_str = sep.is_undefined() ? Value::string("") : fn::to_string_value(sep);
  if (!sep_str.is_string()) return Value::error();
  std::string out;
  bool joined = false;
  for (const Value& item : items) {
    if (item.is_undefined()) {
      saw_undefined = true;
      continue;
    }
    Value s = fn::to_string_value(item);
    if (!s.is_string()) return Value::error();
    if (joined) out += sep_str.as_string();
    out += s.as_string();
    joined = true;
  }
  if (saw_undefined && !joined) return Value::undefined();
  return Value::string(std::move(out));
}

// substr(s, offset [, length]) as the spec describes: negative offset counts
// from the end, negative length drops characters from the end, and the part
// outside the string is cut off.
Value substr_fn(FnArgs& args, std::string_view) {
  if (args.size() < 2 || args.size() > 3) return Value::error();
  Value s = args.eval(0);
  Value off = args.eval(1);
  Value len = args.size() == 3 ? args.eval(2) : Value::undefined();
  if (s.is_undefined()) return Value::undefined();
  if (!s.is_string() || !off.is_int() || (args.size() == 3 && !len.is_int())) return Value::error();
  const auto size = static_cast<std::int64_t>(s.as_string().size());
  std::int64_t start = off.as_int();
  if (start < 0) start += size;
  if (start < 0) start = 0;
  if (start > size) return Value::string("");
  std::int64_t end = size;
  if (args.size() == 3) {
    std::int64_t l = len.as_int();
    end = l >= 0 ? (l > size - start ? size : start + l) : size + l;
  }
  if (end <= start) return Value::string("");
  return Value::string(std::string(
      s.as_string().substr(static_cast<std::size_t>(start), static_cast<std::size_t>(end - start))));
}

Value change_case(FnArgs& args, std::string_view name) {
  if (args.size() != 1) return Value::error();
  Value s = fn::to_string_value(args.eval(0));
  if (!s.is_string()) return Value::error();
  std::string out(s.as_string());
  bool lower = iequals(name, "tolower");
  for (char& c : out) {
    if (lower && c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
    if (!lower && c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
  }
  return Value::string(std::move(out));
}

Value compare_strings(FnArgs& args, std::string_view name) {
  if (args.size() != 2) return Value::error();
  Value a = fn::to_string_value(args.eval(0));
  Value b = fn::to_string_value(args.eval(1));
  if (!a.is_string() || !b.is_string()) return Value::error();
  int cmp = iequals(name, "stricmp") ? compare_nocase(a.as_string(), b.as_string())
                                     : a.as_string().compare(b.as_string());
  return Value::integer(cmp < 0 ? -1 : (cmp > 0 ? 1 : 0));
}

Value size_fn(FnArgs& args, std::string_view) {
  if (args.size() != 1) return Value::error();
  Value v = args.eval(0);
  if (v.is_undefined()) return v;
  if (v.is_string()) return Value::integer(static_cast<std::int64_t>(v.as_string().size()));
  if (v.is_list()) return Value::integer(static_cast<std::int64_t>(v.as_list().size()));
  if (v.is_ad()) return Value::integer(static_cast<std::int64_t>(v.as_ad().ad->size()));
  return Value::error();
}

// split(s [, delimiters]): commas and white space by default, as HTCondor
// splits string lists (the manual's $EVAL example: split("a,B,c") is
// {"a", "B", "c"}).
Value split_fn(FnArgs& args, std::string_view) {
  if (args.size() < 1 || args.size() > 2) return Value::error();
  Value s = args.eval(0);
  Value d = args.size() == 2 ? args.eval(1) : Value::string(", \t\r\n");
  if (s.is_undefined() || d.is_undefined()) return Value::undefined();
  if (!s.is_string() || !d.is_string()) return Value::error();
  ValueList out;
  for (auto tok : fn::tokens(s.as_string(), d.as_string())) out.push_back(Value::string(std::string(tok)));
  return Value::list(std::move(out));
}

// splitUserName("user@domain") = {"user", "domain"}; without '@' the name is
// the user. splitSlotName("slot1@host") = {"slot1", "host"}; without '@'
// the name is the host.
Value split_at(FnArgs& args, std::string_view name) {
  if (args.size() != 1) return Value::error();
  Value s = args.eval(0);
  if (s.is_undefined()) return s;
  if (!s.is_string()) return Value::error();
  std::string_view str = s.as_string();
  std::size_t at = str.find('@');
  std::string first, second;
  if (at != std::string_view::npos) {
    first = str.substr(0, at);
    second = str.substr(at + 1);
  } else if (iequals(name, "splitslotname")) {
    second = str;
  } else {
    first = str;
  }
  return Value::list({Value::string(std::move(first)), Value::string(std::move(second))});
}

}  // namespace

void register_string_functions(FunctionRegistry& r) {
  r.add("strcat", strcat_fn);
  r.add("join", join_fn);
  r.add("substr", substr_fn);
  r.add("toUpper", change_case);
  r.add("toLower", change_case);
  r.add("strcmp", compare_strings);
  r.add("stricmp", compare_strings);
  r.add("size", size_fn);
  r.add("split", split_fn);
  r.add("splitUserName", split_at);
  r.add("splitSlotName", split_at);
}

}  // namespace cara::classad
