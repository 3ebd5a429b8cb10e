#include "model/config/config_reader.h"

#include <algorithm>

#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/common/text.h"
#include "model/config/expander.h"
#include "model/config/templates.h"

namespace cara::config {
namespace {

constexpr int kMaxIncludeDepth = 20;

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}
bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

std::string at(const std::string& label, int line) {
  return label + ", line " + std::to_string(line);
}

// `NAME =` or `NAME @=` at the start of `text`: the name and where the
// operator ends, or an empty name.
struct AssignmentHead {
  std::string_view name;
  std::size_t value_start = 0;
  bool multi_line = false;
};
AssignmentHead assignment_head(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && is_space(text[i])) ++i;
  std::size_t start = i;
  while (i < text.size() && is_name_char(text[i])) ++i;
  AssignmentHead head;
  if (i == start) return head;
  std::string_view name = text.substr(start, i - start);
  while (i < text.size() && is_space(text[i])) ++i;
  if (i < text.size() && text[i] == '=') {
    head.name = name;
    head.value_start = i + 1;
  } else if (i + 1 < text.size() && text[i] == '@' && text[i + 1] == '=') {
    head.name = name;
    head.value_start = i + 2;
    head.multi_line = true;
  }
  return head;
}

// The first word (for keywords), lower-cased, and the rest of the line.
std::pair<std::string, std::string_view> first_word(std::string_view text) {
  text = trim(text);
  std::size_t i = 0;
  if (i < text.size() && text[i] == '@') ++i;  // @include / @use: same meaning
  std::size_t start = i;
  while (i < text.size() && ((text[i] >= 'a' && text[i] <= 'z') || (text[i] >= 'A' && text[i] <= 'Z'))) ++i;
  return {to_lower(text.substr(start, i - start)), text.substr(i)};
}

// Could `text` begin a statement? (Used to tell a wrapped line from a new one.)
bool starts_statement(std::string_view text) {
  if (!assignment_head(text).name.empty()) return true;
  auto [word, rest] = first_word(text);
  static const char* const keywords[] = {"if", "elif", "else", "endif", "include", "use", "error", "warning"};
  for (const char* k : keywords) {
    if (word == k && (rest.empty() || is_space(rest[0]) || rest[0] == ':')) return true;
  }
  return false;
}

bool blank_or_comment(std::string_view text) {
  std::string_view t = trim(text);
  return t.empty() || t[0] == '#';
}

// Replaces $(NAME) and $(NAME:default) that refer to `name` itself with its
// previous raw value, as HTCondor expands self-references at definition.
// A prefixed definition (NEGOTIATOR.X = $(X) more) refers to the plain X.
std::string expand_self(std::string_view value, std::string_view name, const MacroSet& macros) {
  const std::string key = canonical_name(name);
  const std::size_t dot = key.find_last_of('.');
  const std::string plain = dot == std::string::npos ? key : key.substr(dot + 1);
  std::string out;
  std::size_t i = 0;
  while (i < value.size()) {
    std::size_t open = value.find("$(", i);
    if (open == std::string_view::npos || (open > 0 && value[open - 1] == '$')) {
      std::size_t stop = open == std::string_view::npos ? value.size() : open + 2;
      out.append(value.substr(i, stop - i));
      i = stop;
      continue;
    }
    const std::size_t close = matching_paren(value, open + 1);
    if (close == std::string_view::npos) {
      out.append(value.substr(i));
      break;
    }
    std::string_view inner = value.substr(open + 2, close - open - 2);
    std::size_t colon = inner.find(':');
    std::string ref = canonical_name(trim(inner.substr(0, colon)));
    out.append(value.substr(i, open - i));
    if (ref == key || ref == plain) {
      const Definition* prev = macros.find_exact(key);
      if (!prev && ref != key) prev = macros.find_exact(ref);
      if (prev)
        out += prev->value;
      else if (colon != std::string_view::npos)
        out += inner.substr(colon + 1);
    } else {
      out.append(value.substr(open, close + 1 - open));
    }
    i = close + 1;
  }
  return out;
}

// `use` names: split at white space outside parentheses, each NAME or
// NAME(arg, ...).
Result<std::vector<std::pair<std::string, std::vector<std::string>>>> template_list(std::string_view text) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (is_space(text[i]) || text[i] == ',')) ++i;
    if (i >= text.size()) break;
    std::size_t start = i;
    while (i < text.size() && !is_space(text[i]) && text[i] != '(' && text[i] != ',') ++i;
    std::string name(text.substr(start, i - start));
    std::vector<std::string> args;
    std::size_t j = i;
    while (j < text.size() && is_space(text[j])) ++j;
    if (j < text.size() && text[j] == '(') {
      const std::size_t close = matching_paren(text, j);
      if (close == std::string_view::npos) return Error{"unclosed '(' after template " + name};
      args = split_arguments(text.substr(j + 1, close - j - 1));
      if (args.size() == 1 && args[0].empty()) args.clear();
      i = close + 1;
    }
    out.emplace_back(std::move(name), std::move(args));
  }
  return out;
}

// x.y.z as numbers; false when a component is not a number.
bool version_parts(std::string_view v, std::vector<long>& out) {
  out.clear();
  for (std::size_t i = 0; i <= v.size();) {
    std::size_t dot = v.find('.', i);
    if (dot == std::string_view::npos) dot = v.size();
    std::string_view part = v.substr(i, dot - i);
    if (part.empty() || part.size() > 9) return false;
    long n = 0;
    for (char c : part) {
      if (c < '0' || c > '9') return false;
      n = n * 10 + (c - '0');
    }
    out.push_back(n);
    i = dot + 1;
  }
  return true;
}

std::string join_path(const std::string& dir, const std::string& path) {
  if (path.empty() || path[0] == '/' || dir.empty()) return path;
  return dir + "/" + path;
}

std::string dir_of(const std::string& path) {
  auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return "";
  return path.substr(0, slash == 0 ? 1 : slash);
}

}  // namespace

Status ConfigReader::read_file(const std::string& path) {
  auto text = host_.read_file(path);
  if (!text) return Error{"cannot read configuration file " + text.error()};
  return read_text(*text, path, dir_of(path));
}

Result<std::vector<ConfigReader::Line>> ConfigReader::logical_lines(std::string_view text,
                                                                    const std::string& label) {
  const std::vector<std::string_view> physical = split_lines(text);
  std::vector<Line> out;
  for (std::size_t i = 0; i < physical.size(); ++i) {
    const int number = static_cast<int>(i) + 1;
    std::string_view raw = physical[i];
    if (raw.find('\0') != std::string_view::npos) return Error{at(label, number) + ": NUL byte in the line"};
    if (blank_or_comment(raw)) continue;
    AssignmentHead head = assignment_head(raw);
    if (head.multi_line) {
      // NAME @=tag, then lines up to one holding only @tag.
      std::string tag(trim(raw.substr(head.value_start)));
      if (tag.empty()) return Error{at(label, number) + ": expected a tag after @="};
      std::string value;
      std::size_t k = i + 1;
      for (; k < physical.size(); ++k) {
        if (trim(physical[k]) == "@" + tag) break;
        if (!value.empty()) value += '\n';
        value.append(physical[k]);
      }
      if (k == physical.size())
        return Error{at(label, number) + ": no closing @" + tag + " for " + std::string(head.name)};
      out.push_back(Line{std::move(value), number, true, std::string(head.name)});
      i = k;
      continue;
    }
    std::string joined(raw);
    auto ends_in_backslash = [](std::string_view s) {
      std::string_view t = s;
      while (!t.empty() && is_space(t.back())) t.remove_suffix(1);
      return !t.empty() && t.back() == '\\';
    };
    const bool assignment = !head.name.empty();
    for (;;) {
      if (ends_in_backslash(joined)) {
        // A continuation: drop the backslash, skip comment lines, append
        // the next line without its indentation.
        while (!joined.empty() && is_space(joined.back())) joined.pop_back();
        joined.pop_back();
        std::size_t k = i + 1;
        while (k < physical.size() && trim(physical[k]).starts_with("#")) ++k;
        if (k >= physical.size()) break;
        joined.append(trim(physical[k]));
        i = k;
        continue;
      }
      // A wrapped line (see the header): indented, not blank, no comment,
      // and not the start of a statement of its own.
      if (assignment && i + 1 < physical.size()) {
        std::string_view next = physical[i + 1];
        if (!next.empty() && is_space(next[0]) && !blank_or_comment(next) && !starts_statement(next)) {
          warnings_.push_back(at(label, static_cast<int>(i) + 2) +
                              ": read as a continuation of the line above (no backslash)");
          joined.append(trim(next));
          ++i;
          continue;
        }
      }
      break;
    }
    out.push_back(Line{std::move(joined), number, false, {}});
  }
  return out;
}

Status ConfigReader::read_text(std::string_view text, const std::string& label, const std::string& base_dir) {
  if (depth_ > kMaxIncludeDepth) return Error{label + ": includes nested more than 20 deep"};
  auto lines = logical_lines(text, label);
  if (!lines) return Error{lines.error()};
  const std::size_t outer = branches_.size();
  const bool top = depth_ == 0;
  // Every error of the file and what it includes, not just the first: a
  // bad line is reported and skipped. An error in the if/else structure
  // ends the reading (what follows would be read in the wrong branch), as
  // does `error :`.
  auto finish = [&](std::optional<std::string> last) -> Status {
    if (last) errors_.push_back(std::move(*last));
    if (!top || errors_.empty()) return Ok{};
    std::string all;
    for (const std::string& e : errors_) all += (all.empty() ? "" : "\n") + e;
    errors_.clear();
    return Error{all};
  };
  for (const Line& line : *lines) {
    auto s = statement(line, label, base_dir);
    if (s) continue;
    if (!line.multi_line && stops_reading(line.text)) {
      branches_.resize(outer);
      return finish(s.error());
    }
    errors_.push_back(s.error());
    if (errors_.size() >= kMaxErrors) return finish(std::nullopt);
  }
  if (branches_.size() > outer) {
    std::string where = branches_.back().where;
    branches_.resize(outer);
    return finish(where + ": 'if' without 'endif'");
  }
  return finish(std::nullopt);
}

bool ConfigReader::stops_reading(std::string_view text) {
  auto [word, rest] = first_word(trim(text));
  const bool keyword_end = rest.empty() || is_space(rest[0]) || rest[0] == ':';
  return keyword_end &&
         (word == "if" || word == "elif" || word == "else" || word == "endif" || word == "error");
}

Status ConfigReader::statement(const Line& line, const std::string& label, const std::string& base_dir) {
  const std::string where = at(label, line.number);
  const Origin origin{label, line.number};
  if (line.multi_line) {
    if (!active()) return Ok{};
    return assign(line.name, line.text, origin);
  }
  std::string_view text = trim(line.text);
  AssignmentHead head = assignment_head(text);
  if (!head.name.empty()) {
    if (!active()) return Ok{};
    if (!is_macro_name(head.name) || head.name.front() == '.' || head.name.back() == '.') {
      return Error{where + ": '" + std::string(head.name) + "' is not a valid name"};
    }
    return assign(head.name, std::string(trim(text.substr(head.value_start))), origin);
  }
  auto [word, rest] = first_word(text);
  const bool keyword_end = rest.empty() || is_space(rest[0]) || rest[0] == ':';
  if (keyword_end && (word == "if" || word == "elif")) {
    if (word == "if") {
      bool parent = active();
      Branch b{parent, false, false, false, where};
      if (parent) {
        auto c = condition(rest, where);
        if (!c) return Error{c.error()};
        b.active = b.taken = *c;
      }
      branches_.push_back(std::move(b));
      return Ok{};
    }
    if (branches_.empty() || branches_.back().seen_else) return Error{where + ": 'elif' without 'if'"};
    Branch& b = branches_.back();
    if (b.taken || !b.parent_active) {
      b.active = false;
      return Ok{};
    }
    auto c = condition(rest, where);
    if (!c) return Error{c.error()};
    b.active = b.taken = *c;
    return Ok{};
  }
  if (keyword_end && word == "else" && trim(rest).empty()) {
    if (branches_.empty() || branches_.back().seen_else) return Error{where + ": 'else' without 'if'"};
    Branch& b = branches_.back();
    b.seen_else = true;
    b.active = b.parent_active && !b.taken;
    b.taken = true;
    return Ok{};
  }
  if (keyword_end && word == "endif" && trim(rest).empty()) {
    if (branches_.empty()) return Error{where + ": 'endif' without 'if'"};
    branches_.pop_back();
    return Ok{};
  }
  if (!active()) return Ok{};
  if (keyword_end && word == "include") return include(rest, where, base_dir);
  if (keyword_end && word == "use") return use(rest, where);
  if (keyword_end && (word == "error" || word == "warning")) {
    std::string_view msg = trim(rest);
    if (!msg.empty() && msg[0] == ':') msg = trim(msg.substr(1));
    Expander ex(macros_, who_, host_);
    auto expanded = ex.expand(msg);
    std::string message = expanded ? *expanded : std::string(msg);
    if (word == "error") return Error{where + ": error: " + message};
    warnings_.push_back(where + ": warning: " + message);
    return Ok{};
  }
  if (text.starts_with("[")) return Ok{};  // "[Section]" lines are ignored, as in HTCondor
  return Error{where +
               ": expected 'NAME = value', 'NAME @=tag', or a keyword (if, include, use, ...), not '" +
               std::string(text) + "'"};
}

Status ConfigReader::assign(std::string_view name, std::string value, const Origin& origin) {
  value = std::string(trim(expand_self(value, name, macros_)));
  Expander ex(macros_, who_, host_);
  auto fixed = ex.expand_random(value);
  if (!fixed) return Error{origin.describe() + ": " + fixed.error()};
  macros_.set(name, std::move(*fixed), origin);
  return Ok{};
}

Status ConfigReader::include(std::string_view rest, const std::string& where, const std::string& base_dir) {
  std::size_t colon = rest.find(':');
  if (colon == std::string_view::npos) return Error{where + ": expected 'include : FILE'"};
  bool if_exists = false;
  for (std::string_view opts = trim(rest.substr(0, colon)); !opts.empty();) {
    std::size_t sp = opts.find_first_of(" \t");
    std::string word = to_lower(opts.substr(0, sp));
    opts = sp == std::string_view::npos ? std::string_view() : trim(opts.substr(sp));
    if (word == "ifexist") {
      if_exists = true;
    } else if (word == "command" || word == "into") {
      return Error{where +
                   ": 'include command' is not supported: caracara does not run programs while reading "
                   "its configuration; write the program's output to a file and include that"};
    } else {
      return Error{where + ": unexpected '" + word + "' in include (expected 'ifexist')"};
    }
  }
  std::string_view target = trim(rest.substr(colon + 1));
  if (target.ends_with("|")) {
    return Error{where +
                 ": 'include : command |' is not supported: caracara does not run programs while reading "
                 "its configuration; write the program's output to a file and include that"};
  }
  Expander ex(macros_, who_, host_);
  auto path = ex.expand(target);
  if (!path) return Error{where + ": " + path.error()};
  std::string file = join_path(base_dir, std::string(trim(*path)));
  if (file.empty()) return Error{where + ": include names no file"};
  if (!host_.exists(file)) {
    if (if_exists) return Ok{};
    return Error{where + ": included file " + file + " does not exist"};
  }
  auto text = host_.read_file(file);
  if (!text) return Error{where + ": cannot read included file " + text.error()};
  ++depth_;
  Status s = read_text(*text, file, dir_of(file));
  --depth_;
  return s;
}

Status ConfigReader::use(std::string_view rest, const std::string& where) {
  std::size_t colon = rest.find(':');
  if (colon == std::string_view::npos) return Error{where + ": expected 'use CATEGORY : TEMPLATE'"};
  std::string category(trim(rest.substr(0, colon)));
  auto names = template_list(rest.substr(colon + 1));
  if (!names) return Error{where + ": " + names.error()};
  if (names->empty()) return Error{where + ": expected a template name after 'use " + category + " :'"};
  for (auto& [name, args] : *names) {
    auto text = template_text(category, name, args);
    if (!text) return Error{where + ": " + text.error()};
    ++depth_;
    Status s = read_text(*text, "<template " + category + ":" + name + ">", "");
    --depth_;
    if (!s) return Error{s.error() + " (used at " + where + ")"};
  }
  return Ok{};
}

// An `if` condition: [!] defined NAME | version OP x.y[.z] | a boolean,
// possibly given by $(X) (introduction-to-configuration, "Conditionals").
Result<bool> ConfigReader::condition(std::string_view text, const std::string& where) {
  text = trim(text);
  if (!text.empty() && text[0] == '!') {
    auto inner = condition(text.substr(1), where);
    if (!inner) return inner;
    return !*inner;
  }
  auto [word, rest] = first_word(text);
  if (word == "defined" && (rest.empty() || is_space(rest[0]))) {
    std::string_view name = trim(rest);
    if (!is_macro_name(name)) return Error{where + ": expected a name after 'defined'"};
    // Built-in defaults do not count: `if defined X` asks whether the
    // configuration set X.
    const Definition* d = macros_.find(name, who_);
    return d != nullptr && d->origin.file != "<default>";
  }
  if (word == "version" && (rest.empty() || is_space(rest[0]))) {
    std::string_view r = trim(rest);
    std::size_t op_len = 0;
    while (op_len < r.size() && std::string_view("<>=!").find(r[op_len]) != std::string_view::npos) ++op_len;
    std::string op(r.substr(0, op_len));
    std::string wanted(trim(r.substr(op_len)));
    if (op.empty() || wanted.empty()) return Error{where + ": expected 'version OP x.y[.z]'"};
    // Compare only as many components as the condition names: version
    // 8.2.3 "is equal to 8.2".
    std::vector<long> ours, theirs;
    version_parts(kCompatibleVersion, ours);
    if (!version_parts(wanted, theirs))
      return Error{where + ": '" + wanted + "' is not a version (x.y or x.y.z)"};
    int cmp = 0;
    for (std::size_t k = 0; k < theirs.size() && cmp == 0; ++k) {
      long mine = k < ours.size() ? ours[k] : 0;
      cmp = mine < theirs[k] ? -1 : mine > theirs[k] ? 1 : 0;
    }
    if (op == "==") return cmp == 0;
    if (op == "!=") return cmp != 0;
    if (op == ">=") return cmp >= 0;
    if (op == "<=") return cmp <= 0;
    if (op == ">") return cmp > 0;
    if (op == "<") return cmp < 0;
    return Error{where + ": unknown version comparison '" + op + "'"};
  }
  Expander ex(macros_, who_, host_);
  auto expanded = ex.expand(text);
  if (!expanded) return Error{where + ": " + expanded.error()};
  std::string v = to_lower(trim(*expanded));
  if (v.empty() || v == "false" || v == "no" || v == "f" || v == "n" || v == "0") return false;
  if (v == "true" || v == "yes" || v == "t" || v == "y" || v == "1") return true;
  // A ClassAd expression of constants ($(N) > 3 after expansion).
  auto parsed = classad::parse_expression(*expanded);
  if (parsed) {
    classad::Value r = classad::evaluate(**parsed, nullptr, nullptr, classad::EvalEnv{});
    bool b;
    if (r.bool_equiv(b)) return b;
  }
  return Error{where + ": cannot evaluate the condition '" + std::string(text) +
               "' (expected defined NAME, "
               "version OP x.y, or a boolean)"};
}

}  // namespace cara::config
