#include "model/schedd/submit_description.h"

#include <algorithm>
#include <cctype>

#include "model/classad/symbol.h"
#include "model/config/expander.h"

namespace cara::schedd {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

std::string at(const std::string& label, int line) {
  return label + ", line " + std::to_string(line);
}

// The keyword `queue` at the start of a statement, and what follows it.
bool queue_keyword(std::string_view text, std::string_view& rest) {
  text = config::trim(text);
  if (text.size() < 5 || !classad::iequals(text.substr(0, 5), "queue")) return false;
  if (text.size() > 5 && !is_space(text[5])) return false;
  rest = config::trim(text.substr(5));
  return true;
}

bool key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
         c == '+' || c == '-';
}

// `key = value`: the key and the value, or an error.
Result<SubmitCommand> command(std::string_view text, int line, const std::string& where) {
  std::size_t eq = text.find('=');
  if (eq == std::string_view::npos) {
    return Error{where + ": expected 'command = value', '+Attribute = value' or 'queue', not '" +
                 std::string(config::trim(text)) + "'"};
  }
  std::string_view key = config::trim(text.substr(0, eq));
  bool ok = !key.empty();
  for (char c : key) ok = ok && key_char(c);
  if (!ok || key == "+" || classad::iequals(key, "MY."))
    return Error{where + ": '" + std::string(key) + "' is not a submit command name"};
  SubmitCommand c;
  c.key = std::string(key);
  c.value = std::string(config::trim(text.substr(eq + 1)));
  c.line = line;
  return c;
}

// Items of `in ( ... )`: one per line, or several separated by commas.
std::vector<std::string> list_items(std::string_view body) {
  std::vector<std::string> items;
  std::size_t pos = 0;
  while (pos <= body.size()) {
    std::size_t end = body.find('\n', pos);
    if (end == std::string_view::npos) end = body.size();
    std::string_view line = config::trim(body.substr(pos, end - pos));
    pos = end + 1;
    if (line.empty() || line[0] == '#') continue;
    for (const std::string& item : config::split_arguments(line)) {
      if (!item.empty()) items.push_back(item);
    }
  }
  return items;
}

}  // namespace

bool SubmitCommand::attribute() const {
  return (!key.empty() && key[0] == '+') ||
         (key.size() > 3 && classad::iequals(std::string_view(key).substr(0, 3), "MY."));
}

std::string SubmitCommand::attribute_name() const {
  return key[0] == '+' ? key.substr(1) : key.substr(3);
}

Result<QueueStatement> parse_queue(std::string_view args, int line) {
  QueueStatement q;
  q.line = line;
  args = config::trim(args);
  // Find the keyword that introduces the items, if any.
  auto find_word = [&](std::string_view word) -> std::size_t {
    for (std::size_t i = 0; i + word.size() <= args.size(); ++i) {
      if ((i == 0 || is_space(args[i - 1]) || args[i - 1] == ',') &&
          classad::iequals(args.substr(i, word.size()), word) &&
          (i + word.size() == args.size() || is_space(args[i + word.size()]) ||
           args[i + word.size()] == '(')) {
        return i;
      }
    }
    return std::string_view::npos;
  };
  std::size_t kw = std::string_view::npos;
  std::string_view word;
  for (std::string_view w : {"in", "from", "matching"}) {
    std::size_t at_w = find_word(w);
    if (at_w != std::string_view::npos && (kw == std::string_view::npos || at_w < kw)) {
      kw = at_w;
      word = w;
    }
  }
  std::string_view head = kw == std::string_view::npos ? args : config::trim(args.substr(0, kw));
  // The head: [count] [var[, var...]]
  std::vector<std::string> words;
  for (std::string part : config::split_arguments(head)) {
    std::size_t i = 0;
    while (i < part.size()) {
      while (i < part.size() && is_space(part[i])) ++i;
      std::size_t s = i;
      while (i < part.size() && !is_space(part[i])) ++i;
      if (i > s) words.push_back(part.substr(s, i - s));
    }
  }
  if (!words.empty()) {
    const std::string& first = words.front();
    const bool counted =
        kw == std::string_view::npos || std::isdigit(static_cast<unsigned char>(first[0])) || first[0] == '$';
    if (counted) {
      q.count = first;
      words.erase(words.begin());
    }
  }
  if (kw == std::string_view::npos) {
    if (!words.empty())
      return Error{"line " + std::to_string(line) + ": unexpected '" + words.front() +
                   "' in the queue statement"};
    return q;
  }
  for (const std::string& v : words) {
    bool name = !v.empty() && std::all_of(v.begin(), v.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
    if (!name) return Error{"line " + std::to_string(line) + ": '" + v + "' is not a variable name"};
    q.vars.push_back(v);
  }
  if (q.vars.empty()) q.vars.push_back("Item");
  std::string_view rest = config::trim(args.substr(kw + word.size()));
  if (word == "in") {
    q.source = QueueStatement::Source::List;
    if (rest.empty() || rest.front() != '(' || rest.back() != ')') {
      return Error{"line " + std::to_string(line) + ": expected 'in (item, ...)'"};
    }
    q.items = list_items(rest.substr(1, rest.size() - 2));
  } else if (word == "from") {
    q.source = QueueStatement::Source::File;
    if (rest.empty()) return Error{"line " + std::to_string(line) + ": expected a file name after 'from'"};
    if (rest.front() == '(' && rest.back() == ')') {
      // `from ( ... )` is an inline list, as condor_submit allows.
      q.source = QueueStatement::Source::List;
      q.items = list_items(rest.substr(1, rest.size() - 2));
    } else {
      q.file = std::string(rest);
    }
  } else {
    q.source = QueueStatement::Source::Matching;
    std::string_view r = rest;
    for (std::string_view mode : {"files", "dirs"}) {
      if (r.size() >= mode.size() && classad::iequals(r.substr(0, mode.size()), mode) &&
          (r.size() == mode.size() || is_space(r[mode.size()]))) {
        (mode == "files" ? q.matching_files : q.matching_dirs) = true;
        r = config::trim(r.substr(mode.size()));
      }
    }
    if (!r.empty() && r.front() == '(' && r.back() == ')') r = r.substr(1, r.size() - 2);
    for (const std::string& p : list_items(std::string(r))) {
      std::size_t i = 0;
      while (i < p.size()) {
        while (i < p.size() && is_space(p[i])) ++i;
        std::size_t s = i;
        while (i < p.size() && !is_space(p[i])) ++i;
        if (i > s) q.patterns.push_back(p.substr(s, i - s));
      }
    }
    if (q.patterns.empty())
      return Error{"line " + std::to_string(line) + ": expected file patterns after 'matching'"};
  }
  return q;
}

Result<SubmitDescription> parse_submit(std::string_view text, const std::string& label,
                                       const std::vector<std::string>& appends, const std::string& queue) {
  const std::vector<std::string_view> physical = config::split_lines(text);
  SubmitDescription d;
  SubmitBlock current;
  for (std::size_t i = 0; i < physical.size(); ++i) {
    const int number = static_cast<int>(i) + 1;
    std::string_view raw = physical[i];
    if (raw.find('\0') != std::string_view::npos) return Error{at(label, number) + ": NUL byte in the line"};
    std::string_view t = config::trim(raw);
    if (t.empty() || t[0] == '#') continue;
    std::string joined(raw);
    // Continuation lines.
    while (!joined.empty() && config::trim(joined).ends_with("\\") && i + 1 < physical.size()) {
      std::string_view j = config::trim(joined);
      joined = std::string(j.substr(0, j.size() - 1));
      ++i;
      joined += ' ';
      joined.append(config::trim(physical[i]));
    }
    std::string_view rest;
    if (queue_keyword(joined, rest)) {
      // `queue x in (` may continue over lines until `)`.
      std::string args(rest);
      if (args.find('(') != std::string::npos && args.find(')') == std::string::npos) {
        std::size_t k = i + 1;
        for (; k < physical.size(); ++k) {
          args += '\n';
          args.append(physical[k]);
          if (physical[k].find(')') != std::string_view::npos) break;
        }
        if (k == physical.size()) return Error{at(label, number) + ": no ')' closing the queue items"};
        i = k;
      }
      auto q = parse_queue(args, number);
      if (!q) return Error{label + ", " + q.error()};
      current.queue = std::move(*q);
      d.blocks.push_back(std::move(current));
      current = SubmitBlock{};
      continue;
    }
    auto c = command(joined, number, at(label, number));
    if (!c) return Error{c.error()};
    current.commands.push_back(std::move(*c));
  }
  if (!queue.empty()) {
    // -queue: the file's queue statement is replaced (a file may have at
    // most one).
    if (d.blocks.size() > 1) {
      return Error{label + ": -queue cannot be used with a file that has more than one queue statement"};
    }
    if (!d.blocks.empty()) {
      // The commands before the file's queue, then any after it.
      std::vector<SubmitCommand> merged = std::move(d.blocks.front().commands);
      d.blocks.clear();
      for (SubmitCommand& c : current.commands) merged.push_back(std::move(c));
      current.commands = std::move(merged);
    }
    auto q = parse_queue(queue, 0);
    if (!q) return Error{"-queue " + queue + ": " + q.error()};
    current.queue = std::move(*q);
    d.blocks.push_back(std::move(current));
    current = SubmitBlock{};
  }
  if (d.blocks.empty()) return Error{label + ": no queue statement (add 'queue' or use -queue)"};
  // -append: commands placed just before the (last) queue statement.
  for (const std::string& a : appends) {
    auto c = command(a, 0, "-append '" + a + "'");
    if (!c) return Error{c.error()};
    d.blocks.back().commands.push_back(std::move(*c));
  }
  return d;
}

}  // namespace cara::schedd
