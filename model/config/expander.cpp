#include "model/config/expander.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <type_traits>

#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/classad/unparse.h"

namespace cara::config {
namespace {

constexpr std::size_t kMaxNesting = 64;  // macros expanding macros
constexpr int kMaxField = 1024;          // printf field widths and precisions ($INT, $REAL, $STRING)

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// A function macro name after '$': upper-case letters and '_', or F
// followed by its lower-case option letters.
std::size_t function_name_end(std::string_view s, std::size_t start) {
  std::size_t i = start;
  if (i < s.size() && s[i] == 'F') {
    ++i;
    while (i < s.size() && s[i] >= 'a' && s[i] <= 'z') ++i;
    return i;
  }
  while (i < s.size() && ((s[i] >= 'A' && s[i] <= 'Z') || s[i] == '_')) ++i;
  return i;
}

Result<classad::Value> evaluate_text(std::string_view text, std::string_view what) {
  auto parsed = classad::parse_expression(text);
  if (!parsed)
    return Error{std::string(what) + ": cannot evaluate '" + std::string(text) + "': " + parsed.error()};
  return classad::evaluate(**parsed, nullptr, nullptr, classad::EvalEnv{});
}

// printf with exactly one conversion from `allowed` (plus any %%), so a
// format from a configuration file can never read a missing argument.
Result<std::string> format_one(std::string_view fmt, std::string_view allowed, auto value) {
  int conversions = 0;
  std::size_t conv_at = 0;
  for (std::size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%') continue;
    if (i + 1 < fmt.size() && fmt[i + 1] == '%') {
      ++i;
      continue;
    }
    std::size_t j = i + 1;
    while (j < fmt.size() && std::string_view("-+ #0").find(fmt[j]) != std::string_view::npos) ++j;
    // A field width or precision of at most kMaxField: a submit file's
    // $INT(ProcId,%01605775876d) must not make a 1.6 GB string per job
    // (the fuzzer's find).
    auto field = [&](std::size_t& k) {
      const std::size_t from = k;
      while (k < fmt.size() && fmt[k] >= '0' && fmt[k] <= '9') ++k;
      return k - from <= 4 && (k == from || std::stoi(std::string(fmt.substr(from, k - from))) <= kMaxField);
    };
    bool bounded = field(j);
    if (j < fmt.size() && fmt[j] == '.') {
      ++j;
      bounded = field(j) && bounded;
    }
    if (!bounded)
      return Error{"format '" + std::string(fmt) + "': a field width or precision is at most " +
                   std::to_string(kMaxField)};
    if (j >= fmt.size() || allowed.find(fmt[j]) == std::string_view::npos) {
      return Error{"format '" + std::string(fmt) + "': expected one conversion of %" + std::string(allowed)};
    }
    ++conversions;
    conv_at = j;
    i = j;
  }
  if (conversions != 1) return Error{"format '" + std::string(fmt) + "': expected exactly one conversion"};
  std::string f(fmt);
  auto print = [&](auto arg) -> Result<std::string> {
    int n = std::snprintf(nullptr, 0, f.c_str(), arg);
    if (n < 0) return Error{"format '" + f + "' failed"};
    std::string out(static_cast<std::size_t>(n) + 1, '\0');
    std::snprintf(out.data(), out.size(), f.c_str(), arg);
    out.resize(static_cast<std::size_t>(n));
    return out;
  };
  if constexpr (std::is_same_v<decltype(value), long long>) {
    // The value is 64-bit: %d becomes %lld, %c takes an int.
    if (f[conv_at] == 'c') return print(static_cast<int>(value));
    f.insert(conv_at, "ll");
  }
  return print(value);
}

Result<std::int64_t> to_integer(std::string_view text, std::string_view what) {
  auto v = evaluate_text(text, what);
  if (!v) return Error{v.error()};
  std::int64_t i;
  if (!v->number(i)) return Error{std::string(what) + ": '" + std::string(text) + "' is not a number"};
  return i;
}

// $F options on a path (introduction-to-configuration, "$F[fpduwnxbqa]").
std::string path_parts(std::string_view options, std::string path) {
  bool p = false, d = false, n = false, x = false, b = false, u = false, w = false, q = false, a = false;
  for (char c : options) {
    switch (c) {
      case 'p': p = true; break;
      case 'd': d = true; break;
      case 'n': n = true; break;
      case 'x': x = true; break;
      case 'b': b = true; break;
      case 'u': u = true; break;
      case 'w': w = true; break;
      case 'q': q = true; break;
      case 'a': a = true; break;
      default: break;  // 'f' (make absolute) applies to submit files only
    }
  }
  if (u) std::replace(path.begin(), path.end(), '\\', '/');
  if (w) std::replace(path.begin(), path.end(), '/', '\\');
  const std::size_t slash = path.find_last_of("/\\");
  std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  std::string file = slash == std::string::npos ? path : path.substr(slash + 1);
  const std::size_t dot = file.find_last_of('.');
  std::string stem = dot == std::string::npos || dot == 0 ? file : file.substr(0, dot);
  std::string ext = dot == std::string::npos || dot == 0 ? "" : file.substr(dot);
  std::string out;
  if (p) {
    out += dir;
  } else if (d && !dir.empty()) {
    std::string trimmed = dir.substr(0, dir.size() - 1);
    std::size_t prev = trimmed.find_last_of("/\\");
    out += prev == std::string::npos ? dir : dir.substr(prev + 1);
    if (b && !out.empty()) out.pop_back();
  }
  if (n) out += stem;
  if (x) out += (b && !ext.empty()) ? ext.substr(1) : ext;
  if (!p && !d && !n && !x) out = path;
  if (q) out = a ? "'" + out + "'" : "\"" + out + "\"";
  return out;
}

}  // namespace

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::size_t matching_paren(std::string_view s, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < s.size(); ++i) {
    if (s[i] == '(') ++depth;
    if (s[i] == ')' && --depth == 0) return i;
  }
  return std::string_view::npos;
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  for (std::size_t pos = 0; pos <= text.size();) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    pos = end + 1;
  }
  return lines;
}

std::vector<std::string> split_arguments(std::string_view text) {
  std::vector<std::string> out;
  int depth = 0;
  char quote = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '(') {
      ++depth;
    } else if (c == ')') {
      --depth;
    } else if (c == ',' && depth == 0) {
      out.emplace_back(trim(text.substr(start, i - start)));
      start = i + 1;
    }
  }
  out.emplace_back(trim(text.substr(start)));
  return out;
}

Result<std::string> Expander::expand(std::string_view text) {
  return expand_into(text, false);
}

Result<std::string> Expander::expand_random(std::string_view text) {
  return expand_into(text, true);
}

Result<std::optional<std::string>> Expander::value_of(std::string_view name) {
  const Definition* d = macros_.find(name, who_);
  if (!d) return std::optional<std::string>();
  auto v = named_value(name);
  if (!v) return Error{v.error()};
  return std::optional<std::string>(std::move(*v));
}

// The expanded value of macro `name` ("" when undefined), refusing cycles.
Result<std::string> Expander::named_value(std::string_view name) {
  const Definition* d = macros_.find(name, who_);
  if (!d) return std::string();
  const std::string key = canonical_name(d->name);
  for (std::size_t i = 0; i < active_.size(); ++i) {
    if (active_[i] == key) {
      std::string chain;
      for (std::size_t k = i; k < active_.size(); ++k) chain += active_[k] + " -> ";
      return Error{"macro " + std::string(name) + " refers to itself (" + chain + key + "), defined at " +
                   d->origin.describe()};
    }
  }
  if (active_.size() >= kMaxNesting) return Error{"macros nested too deeply at " + std::string(name)};
  active_.push_back(key);
  auto out = expand_into(d->value, false);
  active_.pop_back();
  return out;
}

Result<std::string> Expander::expand_into(std::string_view text, bool random_only) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t dollar = text.find('$', i);
    if (dollar == std::string_view::npos) {
      out.append(text.substr(i));
      break;
    }
    out.append(text.substr(i, dollar - i));
    i = dollar;
    // $$(attr): match-time substitution, kept verbatim with its parentheses.
    if (i + 2 < text.size() && text[i + 1] == '$' && text[i + 2] == '(') {
      std::size_t close = matching_paren(text, i + 2);
      std::size_t end = close == std::string_view::npos ? text.size() : close + 1;
      out.append(text.substr(i, end - i));
      i = end;
      continue;
    }
    if (i + 1 < text.size() && text[i + 1] == '(') {
      std::size_t close = matching_paren(text, i + 1);
      if (close == std::string_view::npos) return Error{"unterminated $( in '" + std::string(text) + "'"};
      if (random_only) {
        out.append(text.substr(i, close + 1 - i));
        i = close + 1;
        continue;
      }
      std::string_view inner = text.substr(i + 2, close - i - 2);
      std::size_t colon = inner.find(':');
      std::string_view name = trim(inner.substr(0, colon));
      if (!is_macro_name(name)) return Error{"'$(" + std::string(inner) + ")': expected a macro name"};
      if (colon != std::string_view::npos && !macros_.find(name, who_)) {
        auto def = expand_into(inner.substr(colon + 1), false);
        if (!def) return def;
        out += *def;
      } else {
        auto v = named_value(name);
        if (!v) return v;
        out += *v;
      }
      i = close + 1;
      continue;
    }
    std::size_t name_end = function_name_end(text, i + 1);
    std::string_view fn = text.substr(i + 1, name_end - i - 1);
    const bool random = fn == "RANDOM_INTEGER" || fn == "RANDOM_CHOICE";
    if (!fn.empty() && name_end < text.size() && text[name_end] == '(' && (!random_only || random)) {
      std::size_t close = matching_paren(text, name_end);
      if (close == std::string_view::npos) return Error{"unterminated $" + std::string(fn) + "("};
      // Arguments are expanded in full, even when only the random
      // functions are being fixed: $RANDOM_INTEGER(0, $(MAX)).
      auto args = expand_into(text.substr(name_end + 1, close - name_end - 1), false);
      if (!args) return args;
      auto r = call(fn, *args);
      if (!r) return r;
      if (r->size() == 1 && (*r)[0] == '\0') {
        // Not a function macro: keep the text as written.
        out.append(text.substr(i, close + 1 - i));
      } else {
        out += *r;
      }
      i = close + 1;
      continue;
    }
    out += '$';
    ++i;
  }
  return out;
}

// Applies function macro `fn` to its (already expanded) argument text. An
// unknown name returns a single NUL, meaning "leave it as written".
Result<std::string> Expander::call(std::string_view fn, std::string_view arg_text) {
  const std::string where = "$" + std::string(fn) + "(" + std::string(arg_text) + ")";
  std::vector<std::string> args = split_arguments(arg_text);
  auto need = [&](std::size_t lo, std::size_t hi) -> Status {
    if (args.size() < lo || args.size() > hi) {
      return Error{where + ": expected " + std::to_string(lo) +
                   (lo == hi ? "" : " to " + std::to_string(hi)) + " arguments"};
    }
    return Ok{};
  };
  // The value behind an argument naming a macro, or the text itself.
  auto item = [&](const std::string& name) -> Result<std::string> {
    if (is_macro_name(name) && macros_.find(name, who_)) return named_value(name);
    return name;
  };
  if (fn == "ENV") {
    std::string_view a = trim(arg_text);
    std::size_t colon = a.find(':');
    std::string var(trim(a.substr(0, colon)));
    if (auto v = host_.env(var)) return *v;
    return colon == std::string_view::npos ? std::string() : std::string(a.substr(colon + 1));
  }
  if (fn == "RANDOM_INTEGER") {
    if (auto s = need(2, 3); !s) return Error{s.error()};
    auto lo = to_integer(args[0], where), hi = to_integer(args[1], where);
    if (!lo) return Error{lo.error()};
    if (!hi) return Error{hi.error()};
    std::int64_t step = 1;
    if (args.size() == 3) {
      auto st = to_integer(args[2], where);
      if (!st) return Error{st.error()};
      step = *st;
    }
    if (step <= 0 || *hi < *lo) return Error{where + ": expected min <= max and a positive step"};
    return std::to_string(*lo + step * host_.random_integer(0, (*hi - *lo) / step));
  }
  if (fn == "RANDOM_CHOICE") {
    if (args.empty() || (args.size() == 1 && args[0].empty())) return Error{where + ": expected choices"};
    return args[static_cast<std::size_t>(
        host_.random_integer(0, static_cast<std::int64_t>(args.size()) - 1))];
  }
  if (fn == "CHOICE") {
    if (args.size() < 2) return Error{where + ": expected an index and a list"};
    auto index = to_integer(args[0], where);
    if (!index) return Error{index.error()};
    std::vector<std::string> items(args.begin() + 1, args.end());
    if (items.size() == 1 && is_macro_name(items[0])) {
      auto list = named_value(items[0]);
      if (!list) return list;
      items.clear();
      std::string cur;
      for (char c : *list + ",") {
        if (c == ',' || is_space(c)) {
          if (!cur.empty()) items.push_back(cur);
          cur.clear();
        } else {
          cur += c;
        }
      }
    }
    if (*index < 0 || static_cast<std::size_t>(*index) >= items.size()) {
      return Error{where + ": index " + std::to_string(*index) + " is outside the list"};
    }
    return items[static_cast<std::size_t>(*index)];
  }
  if (fn == "SUBSTR") {
    if (auto s = need(2, 3); !s) return Error{s.error()};
    auto value = item(args[0]);
    if (!value) return value;
    auto start = to_integer(args[1], where);
    if (!start) return Error{start.error()};
    const auto size = static_cast<std::int64_t>(value->size());
    std::int64_t from = *start < 0 ? std::max<std::int64_t>(0, size + *start) : std::min(*start, size);
    std::int64_t to = size;
    if (args.size() == 3) {
      auto len = to_integer(args[2], where);
      if (!len) return Error{len.error()};
      // A length past the end ends at the end (from + len could overflow).
      to = *len < 0 ? size + *len : (*len >= size - from ? size : from + *len);
    }
    if (to <= from) return std::string();
    return value->substr(static_cast<std::size_t>(from), static_cast<std::size_t>(to - from));
  }
  if (fn == "INT" || fn == "REAL" || fn == "STRING" || fn == "EVAL") {
    if (args.empty() || args[0].empty()) return Error{where + ": expected an item to convert"};
    // The format is everything after the first comma, spaces included.
    std::string_view a = trim(arg_text);
    std::size_t comma = a.find(',');
    std::string name(trim(a.substr(0, comma)));
    std::string fmt = comma == std::string_view::npos ? "" : std::string(a.substr(comma + 1));
    auto text = item(name);
    if (!text) return text;
    auto v = evaluate_text(*text, where);
    if (!v) return Error{v.error()};
    if (fn == "INT") {
      std::int64_t i;
      if (!v->number(i)) return Error{where + ": '" + *text + "' does not evaluate to a number"};
      return format_one(fmt.empty() ? "%d" : fmt, "diouxXc", static_cast<long long>(i));
    }
    if (fn == "REAL") {
      double r;
      if (!v->number(r)) return Error{where + ": '" + *text + "' does not evaluate to a number"};
      return format_one(fmt.empty() ? "%16G" : fmt, "fFeEgGaA", r);
    }
    if (fn == "STRING") {
      if (!v->is_string()) return Error{where + ": '" + *text + "' does not evaluate to a string"};
      std::string s(v->as_string());
      return format_one(fmt.empty() ? "%s" : fmt, "s", s.c_str());
    }
    if (v->is_string()) return std::string(v->as_string());
    return classad::unparse(*v);
  }
  if (fn == "DIRNAME" || fn == "BASENAME" || (fn.size() > 1 && fn[0] == 'F')) {
    if (auto s = need(1, 1); !s) return Error{s.error()};
    auto path = item(args[0]);
    if (!path) return path;
    std::string_view options = fn == "DIRNAME" ? "p" : fn == "BASENAME" ? "nx" : fn.substr(1);
    return path_parts(options, *path);
  }
  return std::string(1, '\0');
}

}  // namespace cara::config
