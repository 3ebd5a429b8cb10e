// Regular expressions with PCRE2, as HTCondor uses: regexp, regexpMember,
// regexps, replace, replaceall, stringList_regexpMember. Options: i (ignore
// case), m (multi-line), s (dot matches newline), x (extended), f (return
// the full target with the substitution), g (substitute every match);
// other option letters are ignored (spec).
#include "model/common/regex.h"

#include "model/classad/functions/support.h"
#include "model/classad/symbol.h"

namespace cara::classad {
namespace {

struct Options {
  RegexOptions compile;
  bool full = false;
  bool global = false;
};

Options parse_options(std::string_view s) {
  Options o;
  for (char c : s) {
    switch (ascii_lower(c)) {
      case 'i': o.compile.caseless = true; break;
      case 'm': o.compile.multiline = true; break;
      case 's': o.compile.dotall = true; break;
      case 'x': o.compile.extended = true; break;
      case 'f': o.full = true; break;
      case 'g': o.global = true; break;
      default: break;
    }
  }
  return o;
}

// Evaluates arguments [first, first+n) and requires strings: undefined
// gives undefined, anything else that is not a string gives error.
bool strings(FnArgs& args, std::size_t first, std::size_t n, std::vector<Value>& out, Value& fail) {
  for (std::size_t i = first; i < first + n; ++i) {
    out.push_back(args.eval(i));
    if (!out.back().is_string()) {
      fail = out.back().is_undefined() ? Value::undefined() : Value::error();
      return false;
    }
  }
  return true;
}

Value regexp_fn(FnArgs& args, std::string_view) {
  if (args.size() < 2 || args.size() > 3) return Value::error();
  std::vector<Value> v;
  Value fail;
  if (!strings(args, 0, args.size(), v, fail)) return fail;
  Regex re;
  if (!re.compile(v[0].as_string(), parse_options(args.size() == 3 ? v[2].as_string() : "").compile)) {
    return Value::error();
  }
  return Value::boolean(re.search(v[1].as_string()) > 0);
}

// regexpMember(pattern, list [, options]): true on the first match; an
// element that is neither string nor undefined before a match is an error;
// no match but an undefined element gives undefined (spec).
Value regexp_member_fn(FnArgs& args, std::string_view) {
  if (args.size() < 2 || args.size() > 3) return Value::error();
  Value pattern = args.eval(0);
  Value list = args.eval(1);
  Value opts = args.size() == 3 ? args.eval(2) : Value::string("");
  if (pattern.is_undefined() || list.is_undefined() || opts.is_undefined()) return Value::undefined();
  if (!pattern.is_string() || !list.is_list() || !opts.is_string()) return Value::error();
  Regex re;
  if (!re.compile(pattern.as_string(), parse_options(opts.as_string()).compile)) return Value::error();
  bool undefined = false;
  for (const Value& item : list.as_list()) {
    if (item.is_undefined()) {
      undefined = true;
    } else if (!item.is_string()) {
      return Value::error();
    } else if (re.search(item.as_string()) > 0) {
      return Value::boolean(true);
    }
  }
  return undefined ? Value::undefined() : Value::boolean(false);
}

// Expands \0..\9 in `subst` from the current match; false when a group
// number is beyond the pattern's groups.
bool expand(const Regex& re, std::string_view subject, std::string_view subst, std::string& out) {
  const std::uint32_t groups = re.capture_count();
  for (std::size_t i = 0; i < subst.size(); ++i) {
    char c = subst[i];
    if (c == '\\' && i + 1 < subst.size() && subst[i + 1] >= '0' && subst[i + 1] <= '9') {
      auto g = static_cast<std::uint32_t>(subst[++i] - '0');
      if (g > groups) return false;
      std::size_t s = re.group_start(static_cast<int>(g)), e = re.group_end(static_cast<int>(g));
      if (s != Regex::kUnset) out.append(subject.substr(s, e - s));
    } else {
      out += c;
    }
  }
  return true;
}

Value substitute(FnArgs& args, std::string_view name) {
  if (args.size() < 3 || args.size() > 4) return Value::error();
  std::vector<Value> v;
  Value fail;
  if (!strings(args, 0, args.size(), v, fail)) return fail;
  Options o = parse_options(args.size() == 4 ? v[3].as_string() : "");
  if (iequals(name, "replace")) o.full = true;
  if (iequals(name, "replaceall")) o.full = o.global = true;
  Regex re;
  if (!re.compile(v[0].as_string(), o.compile)) return Value::error();
  std::string_view subject = v[1].as_string();
  std::string out;
  std::size_t pos = 0;
  bool matched = false;
  while (pos <= subject.size() && re.search(subject, pos) > 0) {
    matched = true;
    std::size_t s = re.group_start(0), e = re.group_end(0);
    if (o.full) out.append(subject.substr(pos, s - pos));
    if (!expand(re, subject, v[2].as_string(), out)) return Value::error();
    pos = e > s ? e : e + 1;
    if (!o.global) break;
    if (e == s && s < subject.size() && o.full) out += subject[s];  // step over an empty match
  }
  if (o.full) {
    if (!matched) return v[1];
    if (pos < subject.size()) out.append(subject.substr(pos));
  }
  return Value::string(std::move(out));
}

// stringList_regexpMember(pattern, list [, delimiters] [, options]): an
// empty list gives undefined (compat_classad.cpp).
Value stringlist_regexp_member_fn(FnArgs& args, std::string_view) {
  if (args.size() < 2 || args.size() > 4) return Value::error();
  std::vector<Value> v;
  Value fail;
  if (!strings(args, 0, args.size(), v, fail)) return Value::error();
  std::string_view delims = args.size() >= 3 ? v[2].as_string() : ", ";
  Regex re;
  if (!re.compile(v[0].as_string(), parse_options(args.size() == 4 ? v[3].as_string() : "").compile)) {
    return Value::error();
  }
  auto items = fn::tokens(v[1].as_string(), delims);
  if (items.empty()) return Value::undefined();
  for (auto item : items) {
    if (re.search(item) > 0) return Value::boolean(true);
  }
  return Value::boolean(false);
}

}  // namespace

void register_regex_functions(FunctionRegistry& r) {
  r.add("regexp", regexp_fn);
  r.add("regexpMember", regexp_member_fn);
  r.add("regexps", substitute);
  r.add("replace", substitute);
  r.add("replaceAll", substitute);
  r.add("stringList_regexpMember", stringlist_regexp_member_fn);
}

}  // namespace cara::classad
