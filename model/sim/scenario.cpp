#include "model/sim/scenario.h"

#include <charconv>
#include <cmath>
#include <map>
#include <sstream>

#include "model/classad/parser.h"
#include "model/classad/unparse.h"

namespace cara::sim {
namespace {

bool blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::istringstream in{std::string(s)};
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

Result<double> parse_number(std::string_view text) {
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || end != text.data() + text.size() || !std::isfinite(v))
    return Error{"'" + std::string(text) + "' is not a number"};
  return v;
}

// A whole number of 0 or more, all of `text`.
std::optional<std::int64_t> whole_number(std::string_view text) {
  std::int64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc{} || end != text.data() + text.size() || n < 0) return std::nullopt;
  return n;
}

// A section's header, its first line, and its body.
struct Section {
  std::string kind;
  std::vector<std::string> args;            // positional
  std::map<std::string, std::string> opts;  // key=value
  int line = 0;
  std::string body;
  int body_line = 0;
};

class Reader {
 public:
  Reader(const std::string& file, Scenario& out) : file_(file), out_(out) {}

  Error at(int line, const std::string& what) const {
    return Error{file_ + ", line " + std::to_string(line) + ": " + what};
  }

  Result<std::int64_t> time_opt(const Section& s, const std::string& key,
                                std::optional<std::int64_t> fallback) {
    auto it = s.opts.find(key);
    if (it == s.opts.end()) {
      if (fallback) return *fallback;
      return at(s.line, "[" + s.kind + "] needs " + key + "=TIME");
    }
    auto d = parse_duration(it->second);
    if (!d) return at(s.line, key + ": " + d.error());
    return *d;
  }

  Status only(const Section& s, std::size_t args, std::initializer_list<const char*> keys,
              const char* usage) {
    if (s.args.size() != args) return at(s.line, "expected [" + std::string(usage) + "]");
    for (const auto& [k, v] : s.opts) {
      bool known = false;
      for (const char* want : keys) known = known || k == want;
      if (!known) return at(s.line, "[" + s.kind + "] has no option '" + k + "': expected [" + usage + "]");
    }
    return Ok{};
  }

  config::TextLayer layer(const Section& s) const { return config::TextLayer{s.body, file_, s.body_line}; }

  Status take(const Section& s) {
    if (s.kind == "pool" || s.kind == "central-manager" || s.kind == "access-point") {
      if (Status ok = only(s, 0, {}, s.kind.c_str()); !ok) return ok;
      auto& to = s.kind == "pool"              ? out_.pool.common
                 : s.kind == "central-manager" ? out_.pool.central_manager
                                               : out_.pool.access_point;
      to.push_back(layer(s));
      return Ok{};
    }
    if (s.kind == "machines") return machines(s);
    if (s.kind == "submit") {
      if (Status ok = only(s, 1, {"at"}, "submit OWNER at=TIME"); !ok) return ok;
      auto t = time_opt(s, "at", std::nullopt);
      if (!t) return Error{t.error()};
      out_.submits.push_back(ScenarioSubmit{*t, s.args[0], layer(s)});
      return Ok{};
    }
    if (s.kind == "arrivals") return arrivals(s);
    if (s.kind == "remove") return remove(s);
    if (s.kind == "userprio") return userprio(s);
    if (s.kind == "trace") return trace(s);
    if (s.kind == "reconfig") return reconfig(s);
    if (s.kind == "run") return run(s);
    return at(s.line,
              "unknown section [" + s.kind +
                  "]: expected pool, central-manager, access-point, machines, submit, arrivals, remove, "
                  "userprio, trace or run");
  }

 private:
  Status machines(const Section& s) {
    if (Status ok = only(s, 1, {"name"}, "machines COUNT name=PREFIX"); !ok) return ok;
    const auto n = whole_number(s.args[0]);
    if (!n || *n < 1 || *n > 10'000'000)
      return at(s.line, "[machines COUNT]: '" + s.args[0] + "' is not a count of machines (1 or more)");
    auto name = s.opts.find("name");
    const std::string prefix = name == s.opts.end() ? "ep" : name->second;
    if (prefix.empty() || prefix.find_first_of("@ \t") != std::string::npos)
      return at(s.line, "name=PREFIX: '" + prefix + "' is not a host name");
    for (std::int64_t i = 0; i < *n; ++i)
      out_.pool.machines.push_back(MachineSetup{prefix + std::to_string(++numbered_[prefix]), {layer(s)}});
    return Ok{};
  }

  Status arrivals(const Section& s) {
    if (Status ok = only(s, 1, {"every", "from", "until", "count"},
                         "arrivals OWNER every=TIME from=TIME until=TIME count=N");
        !ok)
      return ok;
    ScenarioArrivals a;
    a.owner = s.args[0];
    auto every = time_opt(s, "every", std::nullopt);
    if (!every) return Error{every.error()};
    if (*every <= 0) return at(s.line, "every=TIME must be more than 0");
    a.every = static_cast<double>(*every);
    auto from = time_opt(s, "from", 0);
    if (!from) return Error{from.error()};
    a.from = *from;
    if (s.opts.count("until")) {
      auto until = time_opt(s, "until", std::nullopt);
      if (!until) return Error{until.error()};
      a.until = *until;
    }
    if (auto c = s.opts.find("count"); c != s.opts.end()) {
      a.count = whole_number(c->second);
      if (!a.count) return at(s.line, "count=N: '" + c->second + "' is not a count");
    }
    if (!a.until && !a.count) return at(s.line, "[arrivals] needs until=TIME or count=N: it would never end");
    a.description = layer(s);
    out_.arrivals.push_back(std::move(a));
    return Ok{};
  }

  Status remove(const Section& s) {
    if (Status ok = only(s, 1, {"at"}, "remove OWNER at=TIME"); !ok) return ok;
    auto t = time_opt(s, "at", std::nullopt);
    if (!t) return Error{t.error()};
    std::string constraint = "Owner == ";
    classad::append_quoted(constraint, s.args[0], classad::Quoting::New);
    const std::string_view extra = trim(s.body);
    if (!extra.empty()) {
      std::string text;
      for (char c : extra) text += c == '\n' ? ' ' : c;
      if (auto e = classad::parse_expression(text); !e)
        return at(s.body_line, "the constraint does not parse: " + e.error());
      constraint = "(" + constraint + ") && (" + text + ")";
    }
    out_.removes.push_back(ScenarioRemove{*t, s.args[0], constraint, s.line});
    return Ok{};
  }

  Status userprio(const Section& s) {
    if (Status ok = only(s, 0, {"at"}, "userprio at=TIME"); !ok) return ok;
    auto t = time_opt(s, "at", std::nullopt);
    if (!t) return Error{t.error()};
    std::istringstream in(s.body);
    int line = s.body_line;
    for (std::string text; std::getline(in, text); ++line) {
      const std::string_view l = trim(text);
      if (l.empty() || l.front() == '#') continue;
      const auto w = words(l);
      auto kind = accounting::parse_priority_edit_kind(w[0]);
      if (!kind) return at(line, kind.error());
      accounting::PriorityEdit edit{*kind, w.size() > 1 ? w[1] : "", 0, std::nullopt};
      const bool valued =
          *kind != accounting::PriorityEditKind::ResetUsage && *kind != accounting::PriorityEditKind::Delete;
      if (w.size() != (valued ? 3u : 2u))
        return at(line, "expected '" + w[0] + " NAME" + (valued ? " VALUE'" : "'"));
      if (valued) {
        auto v = parse_number(w[2]);
        if (!v) return at(line, v.error());
        edit.value = *v;
      }
      out_.userprios.push_back(ScenarioUserprio{*t, std::move(edit), line});
    }
    return Ok{};
  }

  Status reconfig(const Section& s) {
    if (Status ok =
            only(s, 1, {"at", "name"}, "reconfig central-manager|access-point|machines at=TIME name=PREFIX");
        !ok)
      return ok;
    ScenarioReconfig r;
    const std::string& target = s.args[0];
    if (target == "central-manager")
      r.node = VirtualPool::Node::CentralManager;
    else if (target == "access-point")
      r.node = VirtualPool::Node::AccessPoint;
    else if (target == "machines")
      r.node = VirtualPool::Node::Machines;
    else
      return at(s.line, "[reconfig " + target + "]: expected central-manager, access-point or machines");
    if (auto n = s.opts.find("name"); n != s.opts.end()) {
      if (r.node != VirtualPool::Node::Machines) return at(s.line, "name=PREFIX is for [reconfig machines]");
      r.prefix = n->second;
    }
    auto t = time_opt(s, "at", std::nullopt);
    if (!t) return Error{t.error()};
    r.at = *t;
    r.body = layer(s);
    r.line = s.line;
    out_.reconfigs.push_back(std::move(r));
    return Ok{};
  }

  Status trace(const Section& s) {
    if (Status ok = only(s, 1, {"groups", "at", "user_prefix", "group_prefix"},
                         "trace FILE groups=BOOL at=TIME user_prefix=P group_prefix=P");
        !ok)
      return ok;
    ScenarioTrace t;
    t.path = s.args[0];
    t.line = s.line;
    if (auto g = s.opts.find("groups"); g != s.opts.end()) {
      if (g->second != "true" && g->second != "false")
        return at(s.line, "groups=BOOL: expected true or false, not '" + g->second + "'");
      t.groups = g->second == "true";
    }
    auto when = time_opt(s, "at", 0);
    if (!when) return Error{when.error()};
    t.at = *when;
    if (auto p = s.opts.find("user_prefix"); p != s.opts.end()) t.user_prefix = p->second;
    if (auto p = s.opts.find("group_prefix"); p != s.opts.end()) t.group_prefix = p->second;
    if (!trim(s.body).empty()) return at(s.body_line, "[trace] takes no body: its options go in the header");
    out_.traces.push_back(std::move(t));
    return Ok{};
  }

  Status run(const Section& s) {
    if (Status ok = only(s, 0, {}, "run"); !ok) return ok;
    std::istringstream in(s.body);
    int line = s.body_line;
    for (std::string text; std::getline(in, text); ++line) {
      const std::string_view l = trim(text);
      if (l.empty() || l.front() == '#') continue;
      const auto eq = l.find('=');
      if (eq == std::string_view::npos) return at(line, "expected KEY = VALUE");
      const std::string key(trim(l.substr(0, eq)));
      const std::string value(trim(l.substr(eq + 1)));
      if (key == "end" || key == "sample") {
        auto d = parse_duration(value);
        if (!d) return at(line, key + ": " + d.error());
        if (*d <= 0) return at(line, key + " must be more than 0");
        if (key == "end")
          out_.end = *d;
        else
          out_.sample = *d;
      } else if (key == "seed" || key == "start") {
        const auto n = whole_number(value);
        if (!n) return at(line, key + ": '" + value + "' is not a whole number of 0 or more");
        if (key == "seed")
          out_.pool.seed = static_cast<std::uint64_t>(*n);
        else
          out_.pool.start = *n;
      } else if (key == "window") {
        const auto dots = value.find("..");
        if (dots == std::string::npos) return at(line, "window: expected FROM..TO (times)");
        auto from = parse_duration(trim(std::string_view(value).substr(0, dots)));
        auto to = parse_duration(trim(std::string_view(value).substr(dots + 2)));
        if (!from) return at(line, "window: " + from.error());
        if (!to) return at(line, "window: " + to.error());
        if (*to <= *from) return at(line, "window: its end must come after its start");
        out_.window_start = *from;
        out_.window_end = *to;
      } else {
        return at(line, "[run] has no '" + key + "': expected end, sample, seed, start or window");
      }
    }
    return Ok{};
  }

  const std::string& file_;
  Scenario& out_;
  std::map<std::string, std::int64_t> numbered_;  // machines named so far, by prefix
};

Result<Section> header(std::string_view text, int line, const std::string& file) {
  auto fail = [&](const std::string& what) {
    return Error{file + ", line " + std::to_string(line) + ": " + what};
  };
  const auto close = text.find(']');
  if (close == std::string_view::npos) return fail("a section header needs its closing ']'");
  const std::string_view after = trim(text.substr(close + 1));
  if (!after.empty() && after.front() != '#')
    return fail("nothing may follow a section header but a comment");
  Section s;
  s.line = line;
  s.body_line = line + 1;
  const auto w = words(text.substr(1, close - 1));
  if (w.empty()) return fail("an empty section header");
  s.kind = w[0];
  for (std::size_t i = 1; i < w.size(); ++i) {
    const auto eq = w[i].find('=');
    if (eq == std::string::npos) {
      if (!s.opts.empty()) return fail("'" + w[i] + "': options (key=value) come after the other words");
      s.args.push_back(w[i]);
    } else {
      if (!s.opts.emplace(w[i].substr(0, eq), w[i].substr(eq + 1)).second)
        return fail("option '" + w[i].substr(0, eq) + "' given twice");
    }
  }
  return s;
}

}  // namespace

Result<std::int64_t> parse_duration(std::string_view text) {
  text = trim(text);
  if (text.empty()) return Error{"expected a time (90, 15m, 48h, 2d)"};
  double unit = 1;
  switch (text.back()) {
    case 's': unit = 1; break;
    case 'm': unit = 60; break;
    case 'h': unit = 3600; break;
    case 'd': unit = 86400; break;
    case 'w': unit = 7 * 86400; break;
    default: unit = 0;
  }
  if (unit != 0)
    text.remove_suffix(1);
  else
    unit = 1;
  auto v = parse_number(text);
  if (!v || *v < 0 || *v * unit > 1e15)
    return Error{"'" + std::string(text) + "' is not a time (90, 15m, 48h, 2d)"};
  return static_cast<std::int64_t>(std::llround(*v * unit));
}

Result<Scenario> parse_scenario(std::string_view text, const std::string& file) {
  Scenario out;
  out.file = file;
  out.pool.start = kDefaultStart;
  Reader reader(file, out);
  std::optional<Section> current;
  int line = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const auto nl = text.find('\n', pos);
    const std::string_view raw =
        text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    ++line;
    const std::string_view l = trim(raw);
    if (!l.empty() && l.front() == '[') {
      if (current)
        if (Status s = reader.take(*current); !s) return Error{s.error()};
      auto h = header(l, line, file);
      if (!h) return Error{h.error()};
      current = std::move(*h);
    } else if (current) {
      current->body.append(raw);
      current->body += '\n';
    } else if (!l.empty() && l.front() != '#') {
      return Error{file + ", line " + std::to_string(line) +
                   ": expected a section header ([pool], [machines N], ...)"};
    }
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  if (current)
    if (Status s = reader.take(*current); !s) return Error{s.error()};
  if (out.pool.machines.empty()) return Error{file + ": the scenario has no [machines N] section"};
  return out;
}

}  // namespace cara::sim
