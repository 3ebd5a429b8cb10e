// ifThenElse, eval, unparse, userMap and debug.
#include <algorithm>

#include "model/classad/functions/support.h"
#include "model/classad/symbol.h"

namespace cara::classad {
namespace {

// ifThenElse(c, a, b): lazy; undefined or error selector propagates, a
// string selector is an error, numbers count as booleans (spec).
Value if_then_else(FnArgs& args, std::string_view) {
  if (args.size() != 3) return Value::error();
  Value c = args.eval(0);
  if (c.is_exceptional()) return c;
  bool b;
  if (!c.bool_equiv(b)) return Value::error();
  return args.eval(b ? 1 : 2);
}

// eval(x): x (as a string) parsed and evaluated in the caller's scope.
Value eval_fn(FnArgs& args, std::string_view) {
  if (args.size() != 1) return Value::error();
  Value x = args.eval(0);
  if (x.is_exceptional()) return x;
  Value text = fn::to_string_value(x);
  if (!text.is_string()) return Value::error();
  return args.eval_text(text.as_string());
}

// unparse(Attr): the unevaluated text of an attribute ("" when absent).
Value unparse_fn(FnArgs& args, std::string_view) {
  if (args.size() != 1) return Value::error();
  auto text = args.referenced_text(0);
  if (!text) return Value::error();
  return Value::string(std::move(*text));
}

// userMap(mapset, user [, preferred [, default]]) through the EvalEnv's
// UserMaps (filled by the configuration layer). Two arguments give the
// groups joined with commas; three give the preferred group when the user
// has it, else the first; four fall back to the default.
Value user_map_fn(FnArgs& args, std::string_view) {
  if (args.size() < 2 || args.size() > 4) return Value::error();
  std::vector<Value> v;
  for (std::size_t i = 0; i < args.size(); ++i) v.push_back(args.eval(i));
  for (std::size_t i = 0; i < 2; ++i) {
    if (v[i].is_undefined()) return Value::undefined();
    if (!v[i].is_string()) return Value::error();
  }
  for (std::size_t i = 2; i < v.size(); ++i) {
    if (!v[i].is_string() && !v[i].is_undefined()) return Value::error();
  }
  const UserMaps* maps = args.env().user_maps;
  std::optional<std::vector<std::string>> groups;
  if (maps) groups = maps->map(v[0].as_string(), v[1].as_string());
  if (!groups || groups->empty()) {
    if (v.size() == 4) return v[3];
    return Value::undefined();
  }
  if (v.size() == 2) {
    std::string joined;
    for (const auto& g : *groups) {
      if (!joined.empty()) joined += ',';
      joined += g;
    }
    return Value::string(std::move(joined));
  }
  if (v[2].is_string()) {
    auto it = std::find_if(groups->begin(), groups->end(),
                           [&](const std::string& g) { return iequals(g, v[2].as_string()); });
    if (it != groups->end()) return Value::string(*it);
  }
  return Value::string(groups->front());
}

Value debug_fn(FnArgs& args, std::string_view) {
  if (args.size() != 1) return Value::error();
  return args.eval(0);
}

}  // namespace

void register_misc_functions(FunctionRegistry& r) {
  r.add("ifThenElse", if_then_else);
  r.add("eval", eval_fn);
  r.add("unparse", unparse_fn);
  r.add("userMap", user_map_fn);
  r.add("debug", debug_fn);
}

}  // namespace cara::classad
