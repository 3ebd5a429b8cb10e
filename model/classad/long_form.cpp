// The old long form of an ad (as condor_status -l and condor_q -l print
// it: one `Name = value` per line, an empty line between ads), and
// parse_classad, which takes either form. The expression grammar itself is
// parser.cpp's.
#include <algorithm>
#include <string>

#include "model/classad/expr_cache.h"
#include "model/classad/parse_at.h"
#include "model/classad/parser.h"

namespace cara::classad {

namespace {

// Most lines of a long-form ad (as condor_status -l prints them) hold one
// plain literal: `ClusterId = 1234`, `Owner = "cms001"`, `NiceUser = false`.
// Those are built directly, skipping the lexer and the precedence climb;
// the tree is the same as the parser's (a test compares them). Returns null
// for anything else, which then goes through the full parser.
std::string_view trim_blanks(std::string_view v) {
  std::size_t i = 0;
  while (i < v.size() && (v[i] == ' ' || v[i] == '\t')) ++i;
  std::size_t end = v.size();
  while (end > i && (v[end - 1] == ' ' || v[end - 1] == '\t')) --end;
  return v.substr(i, end - i);
}

ExprPtr plain_literal(std::string_view v, const ArenaPtr& arena) {
  v = trim_blanks(v);
  if (v.empty()) return nullptr;
  // One node, as ExprBuilder's literal_int/literal_string/literal_bool make it.
  if (v[0] >= '0' && v[0] <= '9') {
    // Decimal digits only: no hex, real, exponent or unit suffix, and few
    // enough digits that the value cannot overflow.
    if (v.size() > 18) return nullptr;
    std::int64_t value = 0;
    for (char c : v) {
      if (c < '0' || c > '9') return nullptr;
      value = value * 10 + (c - '0');
    }
    return ExprTree::make_one({}, arena, [&](Node& n) {
      n.kind = NodeKind::Integer;
      n.num.i = value;
    });
  }
  if (v[0] == '"') {
    if (v.size() < 2 || v.back() != '"') return nullptr;
    const std::string_view pool = v.substr(1, v.size() - 2);
    for (char c : pool) {
      if (c == '"' || c == '\\' || c == '\0') return nullptr;
    }
    return ExprTree::make_one(pool, arena, [&](Node& n) {
      n.kind = NodeKind::String;
      n.b = static_cast<std::uint32_t>(pool.size());
    });
  }
  if (iequals(v, "true") || iequals(v, "false")) {
    return ExprTree::make_one({}, arena, [&](Node& n) {
      n.kind = NodeKind::Boolean;
      n.aux = (v[0] == 't' || v[0] == 'T') ? 1 : 0;
    });
  }
  return nullptr;
}

}  // namespace

Result<bool> insert_long_form_line(ClassAd& ad, std::string_view text, int line, const ArenaPtr& arena) {
  std::size_t i = 0;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  std::size_t name_start = i;
  auto ident = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  if (i >= text.size() || !ident(text[i]) || (text[i] >= '0' && text[i] <= '9')) {
    return Error{"line " + std::to_string(line) + ", column " + std::to_string(i + 1) +
                 ": expected an attribute name at the start of the line"};
  }
  while (i < text.size() && ident(text[i])) ++i;
  std::string_view name = text.substr(name_start, i - name_start);
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  if (i >= text.size() || text[i] != '=') {
    return Error{"line " + std::to_string(line) + ", column " + std::to_string(i + 1) +
                 ": expected '=' after attribute " + std::string(name)};
  }
  ++i;
  if (ExprPtr literal = plain_literal(text.substr(i), arena)) {
    ad.insert(name, std::move(literal));
    return true;
  }
  // Anything else is looked up in the thread's expression cache first: the
  // ads of a cluster repeat these texts verbatim (expr_cache.h). A cached
  // tree lives on the heap, not in this ad's arena, since other ads share it.
  ExprCache* cache = ExprCache::for_this_thread(StringSyntax::Old);
  const std::string_view value = trim_blanks(text.substr(i));
  if (cache) {
    if (ExprPtr hit = cache->find(value)) {
      ad.insert(name, std::move(hit));
      return true;
    }
  }
  auto tree = parse_expression_at(text.substr(i), StringSyntax::Old, line, static_cast<int>(i) + 1,
                                  cache ? nullptr : arena, "in the value of " + std::string(name) + ": ");
  if (!tree) return Error{tree.error()};
  if (cache) cache->put(value, *tree);
  ad.insert(name, std::move(*tree));
  return true;
}

namespace {

bool blank_or_comment(std::string_view line) {
  for (char c : line) {
    if (c == '#') return true;
    if (c != ' ' && c != '\t' && c != '\r') return false;
  }
  return true;
}

// Calls `line_fn(text, line_number)` per line; an empty line ends an ad.
template <class LineFn, class BreakFn>
Result<bool> for_each_line(std::string_view text, LineFn line_fn, BreakFn break_fn) {
  int line_no = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++line_no;
    bool empty = line.find_first_not_of(" \t") == std::string_view::npos;
    if (empty) {
      break_fn();
    } else if (!blank_or_comment(line)) {
      auto r = line_fn(line, line_no);
      if (!r) return r;
    }
    if (end == text.size()) break;
    pos = end + 1;
  }
  return true;
}

// Newlines in `text`, counted in blocks of byte-wide counters: std::count
// widens every byte to a 64-bit lane, which was 5 % of parse time.
std::size_t count_lines(std::string_view text) {
  std::size_t lines = 1;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t end = std::min(text.size(), i + 255);
    std::uint8_t block = 0;
    for (; i < end; ++i) block += text[i] == '\n';
    lines += block;
  }
  return lines;
}

}  // namespace

Result<ClassAd> parse_long_form(std::string_view text) {
  ClassAd ad;
  ad.reserve(count_lines(text));
  auto arena = std::make_shared<ExprArena>();
  auto r = for_each_line(
      text, [&](std::string_view line, int n) { return insert_long_form_line(ad, line, n, arena); }, [] {});
  if (!r) return Error{r.error()};
  return ad;
}

Result<std::vector<ClassAd>> parse_long_form_ads(std::string_view text) {
  std::vector<ClassAd> ads;
  ClassAd current;
  auto arena = std::make_shared<ExprArena>();  // one per ad
  auto flush = [&] {
    if (!current.empty()) {
      ads.push_back(std::move(current));
      arena = std::make_shared<ExprArena>();
    }
    current = ClassAd{};
  };
  auto r = for_each_line(
      text, [&](std::string_view line, int n) { return insert_long_form_line(current, line, n, arena); },
      flush);
  if (!r) return Error{r.error()};
  flush();
  return ads;
}

Result<ClassAd> parse_classad(std::string_view text) {
  std::size_t i = 0;
  for (;;) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) ++i;
    if (i < text.size() && text[i] == '#') {  // comment line before the ad
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    break;
  }
  if (i < text.size() && text[i] != '[') return parse_long_form(text);
  int line = 1;
  for (std::size_t k = 0; k < i; ++k) line += text[k] == '\n';
  std::size_t line_start = text.rfind('\n', i == 0 ? 0 : i - 1);
  int column = static_cast<int>(line_start == std::string_view::npos ? i + 1 : i - line_start);
  return parse_new_classad_at(text.substr(i), line, column);
}

}  // namespace cara::classad
