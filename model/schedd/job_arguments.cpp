#include "model/schedd/job_arguments.h"

#include "model/classad/eval.h"

namespace cara::schedd {
namespace {

// Arguments in condor_submit's new syntax (the value in double quotes):
// white space separates, single quotes group, '' inside quotes is a quote,
// "" is a double quote.
std::vector<std::string> split_new_arguments(std::string_view s) {
  std::vector<std::string> args;
  std::string cur;
  bool any = false, quoted = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quoted) {
      if (c == '\'') {
        if (i + 1 < s.size() && s[i + 1] == '\'') {
          cur += '\'';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        cur += c;
      }
    } else if (c == '\'') {
      quoted = true;
      any = true;
    } else if (c == ' ' || c == '\t') {
      if (any || !cur.empty()) args.push_back(cur);
      cur.clear();
      any = false;
    } else if (c == '"' && i + 1 < s.size() && s[i + 1] == '"') {
      cur += '"';
      ++i;
    } else {
      cur += c;
    }
  }
  if (any || !cur.empty()) args.push_back(cur);
  return args;
}

}  // namespace

// condor_submit's refusals of an arguments value. The new syntax (the
// value in double quotes) closes its double quote, its single quotes
// balance ('' inside them is a quote) and a double quote inside is
// doubled; the old syntax escapes a double quote with a backslash.
std::optional<std::string> arguments_problem(std::string_view value) {
  if (!value.empty() && value.front() == '"') {
    if (value.size() < 2 || value.back() != '"')
      return "the value opens a double quote and does not close it";
    const std::string_view s = value.substr(1, value.size() - 2);
    bool quoted = false;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '\'') {
        if (quoted && i + 1 < s.size() && s[i + 1] == '\'') {
          ++i;
          continue;
        }
        quoted = !quoted;
      } else if (s[i] == '"') {
        if (i + 1 < s.size() && s[i + 1] == '"') {
          ++i;
          continue;
        }
        return "a double quote inside the value must be doubled (\"\")";
      }
    }
    if (quoted) return "a single quote is not closed (write '' for a quote inside single quotes)";
    return std::nullopt;
  }
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (value[i] == '\\') {
      ++i;
    } else if (value[i] == '"') {
      return "a double quote in old-syntax arguments needs a backslash; or put the whole value in double "
             "quotes (new syntax)";
    }
  }
  return std::nullopt;
}

std::vector<std::string> job_arguments(const classad::ClassAd& job) {
  if (const classad::Attribute* a = job.find("Arguments")) {
    classad::Value v = classad::evaluate(*a->expr, &job, nullptr, {});
    if (v.is_string()) return split_new_arguments(v.as_string());
  }
  std::vector<std::string> out;
  if (const classad::Attribute* a = job.find("Args")) {
    classad::Value v = classad::evaluate(*a->expr, &job, nullptr, {});
    if (v.is_string()) {
      std::string_view s = v.as_string();
      std::size_t i = 0;
      while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
        std::size_t st = i;
        while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
        if (i > st) out.emplace_back(s.substr(st, i - st));
      }
    }
  }
  return out;
}

}  // namespace cara::schedd
