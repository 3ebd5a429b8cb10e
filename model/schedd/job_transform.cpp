#include "model/schedd/job_transform.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/classad/references.h"
#include "model/classad/symbol.h"
#include "model/classad/unparse.h"
#include "model/common/regex.h"
#include "model/config/config.h"
#include "model/config/expander.h"

namespace cara::schedd {
namespace {

using config::trim;

struct Keyword {
  const char* word;
  TransformVerb verb;
};
constexpr Keyword kKeywords[] = {
    {"REQUIREMENTS", TransformVerb::Requirements},
    {"SET", TransformVerb::Set},
    {"DEFAULT", TransformVerb::Default},
    {"EVALSET", TransformVerb::EvalSet},
    {"EVALMACRO", TransformVerb::EvalMacro},
    {"COPY", TransformVerb::Copy},
    {"RENAME", TransformVerb::Rename},
    {"DELETE", TransformVerb::Delete},
};

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

// Splits "word rest": the first run of non-blank characters, and the rest
// trimmed.
std::pair<std::string_view, std::string_view> first_word(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i])) && s[i] != '=') ++i;
  return {s.substr(0, i), trim(s.substr(i))};
}

bool is_regex(std::string_view s) {
  return s.size() >= 2 && s.front() == '/' && s.back() == '/';
}

// "attr [=] expr": the attribute and the expression.
Result<std::pair<std::string, std::string>> attribute_and_expression(std::string_view rest,
                                                                     const std::string& where) {
  auto [attr, expr] = first_word(rest);
  if (attr.empty() || !std::all_of(attr.begin(), attr.end(), is_name_char))
    return Error{where + ": expected an attribute name, found '" + std::string(rest) + "'"};
  if (!expr.empty() && expr.front() == '=') expr = trim(expr.substr(1));
  if (expr.empty()) return Error{where + ": expected an expression after " + std::string(attr)};
  return std::pair{std::string(attr), std::string(expr)};
}

// The text of job attribute `name` as written (empty when absent): what
// $(MY.name) stands for.
std::string job_text(const classad::ClassAd& job, std::string_view name) {
  const classad::Attribute* a = job.find(name);
  return a && a->expr ? classad::unparse(*a->expr) : std::string();
}

// Expands $(MY.attr), $(macro), $(macro:default) and configuration macros.
class RuleExpander {
 public:
  RuleExpander(const classad::ClassAd& job, const config::Config* config,
               const std::map<std::string, std::string, classad::NameLess>& macros)
      : job_(job), config_(config), macros_(macros) {}

  Result<std::string> expand(std::string_view text, int depth = 0) {
    if (depth > 32) return Error{"macros nest too deeply (a macro refers to itself?)"};
    std::string out;
    std::size_t i = 0;
    while (i < text.size()) {
      const std::size_t at = text.find("$(", i);
      if (at == std::string_view::npos) break;
      out.append(text.substr(i, at - i));
      const std::size_t close = config::matching_paren(text, at + 1);
      if (close == std::string_view::npos) return Error{"unclosed $( in '" + std::string(text) + "'"};
      std::string_view body = text.substr(at + 2, close - at - 2);
      std::optional<std::string_view> fallback;
      if (auto colon = body.find(':'); colon != std::string_view::npos) {
        fallback = body.substr(colon + 1);
        body = body.substr(0, colon);
      }
      body = trim(body);
      auto value = lookup(body, depth);
      if (!value) return Error{value.error()};
      if (value->has_value()) {
        out += **value;
      } else if (fallback) {
        auto f = expand(*fallback, depth + 1);
        if (!f) return f;
        out += *f;
      }
      i = close + 1;
    }
    out.append(text.substr(std::min(i, text.size())));
    return out;
  }

 private:
  Result<std::optional<std::string>> lookup(std::string_view name, int depth) {
    if (name.size() > 3 && classad::iequals(name.substr(0, 3), "MY.")) {
      if (!job_.find(name.substr(3))) return std::optional<std::string>();
      return std::optional<std::string>(job_text(job_, name.substr(3)));
    }
    if (auto m = macros_.find(std::string(name)); m != macros_.end()) {
      auto v = expand(m->second, depth + 1);
      if (!v) return Error{v.error()};
      return std::optional<std::string>(*v);
    }
    if (config_ != nullptr && config_->defined(name)) {
      auto v = config_->string(name);
      if (!v) return Error{v.error()};
      return std::optional<std::string>(*v);
    }
    return std::optional<std::string>();
  }

  const classad::ClassAd& job_;
  const config::Config* config_;
  const std::map<std::string, std::string, classad::NameLess>& macros_;
};

// `pattern` with \1..\9 replaced by the captures of the last match.
std::string substitute(std::string_view pattern, std::string_view subject, const Regex& re, int groups) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\' && i + 1 < pattern.size() && pattern[i + 1] >= '0' && pattern[i + 1] <= '9') {
      const int g = pattern[++i] - '0';
      if (g < groups && re.group_start(g) != Regex::kUnset)
        out.append(subject.substr(re.group_start(g), re.group_end(g) - re.group_start(g)));
    } else {
      out += pattern[i];
    }
  }
  return out;
}

Result<classad::ExprPtr> parse_rule_expression(std::string_view text, const std::string& where) {
  auto e = classad::parse_expression(text);
  if (!e) return Error{where + ": '" + std::string(text) + "' is not a ClassAd expression: " + e.error()};
  return *e;
}

// The names of the job's attributes that `re` matches, with what \N makes
// of `to` for each (empty `to` for DELETE).
Result<std::vector<std::pair<std::string, std::string>>> regex_matches(const classad::ClassAd& job,
                                                                       std::string_view pattern,
                                                                       std::string_view to,
                                                                       const std::string& where) {
  Regex re;
  std::string error;
  if (!re.compile(pattern.substr(1, pattern.size() - 2), RegexOptions{.caseless = true}, &error))
    return Error{where + ": bad regular expression " + std::string(pattern) + ": " + error};
  std::vector<std::pair<std::string, std::string>> out;
  for (const classad::Attribute& a : job.attributes()) {
    const int groups = re.search(a.name);
    if (groups > 0) out.emplace_back(std::string(a.name), substitute(to, a.name, re, groups));
  }
  return out;
}

}  // namespace

Result<JobTransform> JobTransform::parse(std::string_view name, std::string_view text) {
  JobTransform t;
  t.name_ = std::string(name);
  int line_no = 0;
  for (std::string_view raw : config::split_lines(text)) {
    ++line_no;
    const std::string_view line = trim(raw);
    if (line.empty() || line.front() == '#') continue;
    const std::string where = "JOB_TRANSFORM_" + t.name_ + ", line " + std::to_string(line_no);
    auto [word, rest] = first_word(line);
    if (!rest.empty() && rest.front() == '=') {  // NAME = value
      if (!config::is_macro_name(word))
        return Error{where + ": '" + std::string(word) + "' is not a macro name"};
      t.rules_.push_back(
          {TransformVerb::Macro, std::string(word), std::string(trim(rest.substr(1))), line_no});
      continue;
    }
    const Keyword* kw = nullptr;
    for (const Keyword& k : kKeywords)
      if (classad::iequals(word, k.word)) kw = &k;
    if (kw == nullptr && classad::iequals(word, "UNIVERSE")) {
      // Only the vanilla universe exists here (issue 4 §1).
      if (!classad::iequals(rest, "vanilla") && rest != "5")
        return Error{where + ": universe '" + std::string(rest) + "' is not supported (only vanilla)"};
      t.rules_.push_back({TransformVerb::Set, "JobUniverse", "5", line_no});
      continue;
    }
    if (kw == nullptr && classad::iequals(word, "NAME")) continue;  // a label; the config name rules
    if (kw == nullptr) {
      return Error{where + ": unknown rule '" + std::string(word) +
                   "' (expected NAME = value, REQUIREMENTS, SET, DEFAULT, EVALSET, EVALMACRO, COPY, "
                   "RENAME, DELETE or UNIVERSE)"};
    }
    TransformRule rule{kw->verb, {}, {}, line_no};
    switch (kw->verb) {
      case TransformVerb::Requirements:
        if (rest.empty()) return Error{where + ": REQUIREMENTS expects an expression"};
        rule.argument = std::string(rest);
        break;
      case TransformVerb::Set:
      case TransformVerb::Default:
      case TransformVerb::EvalSet:
      case TransformVerb::EvalMacro: {
        auto ae = attribute_and_expression(rest, where);
        if (!ae) return Error{ae.error()};
        rule.target = ae->first;
        rule.argument = ae->second;
        break;
      }
      case TransformVerb::Copy:
      case TransformVerb::Rename: {
        auto [from, to] = first_word(rest);
        if (from.empty() || to.empty() || to.find_first_of(" \t") != std::string_view::npos)
          return Error{where + ": " + std::string(kw->word) +
                       " expects an attribute (or /regex/) and a new name"};
        rule.target = std::string(from);
        rule.argument = std::string(to);
        break;
      }
      case TransformVerb::Delete:
        if (rest.empty() || rest.find_first_of(" \t") != std::string_view::npos)
          return Error{where + ": DELETE expects one attribute or /regex/"};
        rule.target = std::string(rest);
        break;
      case TransformVerb::Macro: break;
    }
    // Expressions without macros are checked now, so a typo is reported
    // when the configuration is read rather than at the first submission.
    const bool expression = rule.verb == TransformVerb::Requirements || rule.verb == TransformVerb::Set ||
                            rule.verb == TransformVerb::Default || rule.verb == TransformVerb::EvalSet ||
                            rule.verb == TransformVerb::EvalMacro;
    if (expression && rule.argument.find('$') == std::string::npos) {
      if (auto e = parse_rule_expression(rule.argument, where); !e) return Error{e.error()};
    }
    if ((rule.verb == TransformVerb::Copy || rule.verb == TransformVerb::Rename ||
         rule.verb == TransformVerb::Delete) &&
        is_regex(rule.target)) {
      Regex re;
      std::string error;
      if (!re.compile(std::string_view(rule.target).substr(1, rule.target.size() - 2), RegexOptions{},
                      &error))
        return Error{where + ": bad regular expression " + rule.target + ": " + error};
    }
    t.rules_.push_back(std::move(rule));
  }
  return t;
}

Result<bool> JobTransform::apply(classad::ClassAd& job, const config::Config* config,
                                 const classad::EvalEnv& env) const {
  std::map<std::string, std::string, classad::NameLess> macros;
  for (const TransformRule& r : rules_)
    if (r.verb == TransformVerb::Macro) macros[r.target] = r.argument;
  const auto where = [&](const TransformRule& r) {
    return "JOB_TRANSFORM_" + name_ + ", line " + std::to_string(r.line);
  };
  // REQUIREMENTS first, wherever it is written: it decides whether any
  // rule applies.
  for (const TransformRule& r : rules_) {
    if (r.verb != TransformVerb::Requirements) continue;
    auto text = RuleExpander(job, config, macros).expand(r.argument);
    if (!text) return Error{where(r) + ": " + text.error()};
    auto e = parse_rule_expression(*text, where(r));
    if (!e) return Error{e.error()};
    bool matched = false;
    if (!classad::evaluate(**e, &job, nullptr, env).bool_equiv(matched) || !matched) return false;
  }
  // Rules change a copy, so that an error leaves the job as it was.
  classad::ClassAd out = job;
  for (const TransformRule& r : rules_) {
    if (r.verb == TransformVerb::Macro || r.verb == TransformVerb::Requirements) continue;
    RuleExpander ex(out, config, macros);
    auto target = ex.expand(r.target);
    if (!target) return Error{where(r) + ": " + target.error()};
    auto argument = ex.expand(r.argument);
    if (!argument) return Error{where(r) + ": " + argument.error()};
    switch (r.verb) {
      case TransformVerb::Set:
      case TransformVerb::Default: {
        if (r.verb == TransformVerb::Default && out.find(*target)) break;
        auto e = parse_rule_expression(*argument, where(r));
        if (!e) return Error{e.error()};
        out.insert(*target, *e);
        break;
      }
      case TransformVerb::EvalSet:
      case TransformVerb::EvalMacro: {
        auto e = parse_rule_expression(*argument, where(r));
        if (!e) return Error{e.error()};
        const classad::Value v = classad::evaluate(**e, &out, nullptr, env);
        if (r.verb == TransformVerb::EvalMacro) {
          // A string becomes the macro's text without quotes, as in the
          // job router, so "$(Name)" can be quoted where it is used.
          macros[*target] = v.is_string() ? std::string(v.as_string()) : classad::unparse(v);
        } else {
          auto literal = classad::parse_expression(classad::unparse(v));
          if (!literal) return Error{where(r) + ": the value of '" + *argument + "' cannot be stored"};
          out.insert(*target, *literal);
        }
        break;
      }
      case TransformVerb::Copy:
      case TransformVerb::Rename:
      case TransformVerb::Delete: {
        std::vector<std::pair<std::string, std::string>> moves;
        if (is_regex(*target)) {
          auto m = regex_matches(out, *target, *argument, where(r));
          if (!m) return Error{m.error()};
          moves = std::move(*m);
        } else if (out.find(*target)) {
          moves.emplace_back(*target, *argument);
        }
        for (const auto& [from, to] : moves) {
          classad::ExprPtr e = out.lookup(from);
          if (r.verb != TransformVerb::Copy) out.erase(from);
          if (r.verb != TransformVerb::Delete && e) out.insert(to, e);
        }
        break;
      }
      case TransformVerb::Macro:
      case TransformVerb::Requirements: break;
    }
  }
  job = std::move(out);
  return true;
}

Result<std::vector<JobTransform>> load_job_transforms(const config::Config& config) {
  std::vector<JobTransform> out;
  auto names = config.list("JOB_TRANSFORM_NAMES");
  if (!names) return Error{names.error()};
  for (const std::string& name : *names) {
    const config::Definition* d = config.definition("JOB_TRANSFORM_" + name);
    if (d == nullptr)
      return Error{"JOB_TRANSFORM_NAMES lists " + name + " but JOB_TRANSFORM_" + name + " is not defined"};
    auto t = JobTransform::parse(name, d->value);
    if (!t) return Error{t.error() + " (" + d->origin.describe() + ")"};
    out.push_back(std::move(*t));
  }
  return out;
}

Status apply_job_transforms(const std::vector<JobTransform>& transforms, classad::ClassAd& job,
                            const config::Config* config, const classad::EvalEnv& env) {
  for (const JobTransform& t : transforms) {
    auto applied = t.apply(job, config, env);
    if (!applied) return Error{applied.error()};
  }
  return Ok{};
}

}  // namespace cara::schedd
