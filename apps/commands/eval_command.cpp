#include "apps/commands/eval_command.h"

#include <fstream>
#include <iostream>
#include <sstream>

#include "apps/commands/tool_options.h"
#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/classad/unparse.h"

namespace cara::apps {
namespace {

using classad::ClassAd;

// Reads an ad in either syntax from `path` ("-" is standard input).
bool load_ad(const std::string& path, std::istream& in, ClassAd& ad, std::ostream& err) {
  std::stringstream buf;
  if (path == "-") {
    buf << in.rdbuf();
  } else {
    std::ifstream f(path);
    if (!f) {
      err << "cara eval: cannot read " << path << ": no such file or not readable\n";
      return false;
    }
    buf << f.rdbuf();
  }
  auto parsed = classad::parse_classad(buf.str());
  if (!parsed) {
    err << "cara eval: " << path << ": " << parsed.error() << "\n";
    return false;
  }
  ad = std::move(*parsed);
  return true;
}

bool is_option(const std::string& a, const char* name) {
  return a == std::string("-") + name || a == std::string("--") + name;
}

// `Name = expr` (but not `Name == expr`): the position of '=', or npos.
std::size_t assignment_at(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  auto ident = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  if (i >= s.size() || !ident(s[i]) || (s[i] >= '0' && s[i] <= '9')) return std::string::npos;
  while (i < s.size() && ident(s[i])) ++i;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  if (i < s.size() && s[i] == '=' &&
      (i + 1 >= s.size() || (s[i + 1] != '=' && s[i + 1] != '?' && s[i + 1] != '!'))) {
    return i;
  }
  return std::string::npos;
}

class Session {
 public:
  Session(std::ostream& out, std::ostream& err, const EvalClock& clock) : out_(out), err_(err) {
    env_.now = clock.now;
    env_.local_offset = clock.local_offset;
  }

  // Handles one argument (or one line of standard input).
  void handle(const std::string& arg) {
    std::size_t first = arg.find_first_not_of(" \t\r");
    if (first == std::string::npos) return;
    if (arg[first] == '[') {
      // A whole ad replaces MY; `[...].x` and the like are expressions.
      auto ad = classad::parse_new_classad(arg);
      if (ad) {
        my_ = std::move(*ad);
        return;
      }
      if (!classad::parse_expression(arg)) return parse_error(arg, ad.error());
    } else if (assignment_at(arg) != std::string::npos) {
      auto ok = classad::insert_long_form_line(my_, arg);
      if (!ok) {
        // Fall back to new-syntax string escapes for the value.
        std::string name = arg.substr(first, arg.find_first_of(" \t=", first) - first);
        auto expr = classad::parse_expression(arg.substr(arg.find('=') + 1));
        if (!expr) return parse_error(arg, ok.error());
        my_.insert(name, *expr);
      }
      return;
    }
    auto expr = classad::parse_expression(arg);
    if (!expr) return parse_error(arg, expr.error());
    if (print_ad_) out_ << classad::unparse(my_) << "\n";
    classad::Value v = classad::evaluate(**expr, &my_, have_target_ ? &target_ : nullptr, env_);
    out_ << classad::unparse(v) << "\n";
  }

  ClassAd& my() { return my_; }
  void set_target(ClassAd ad) {
    target_ = std::move(ad);
    have_target_ = true;
  }
  void set_print_ad(bool on) { print_ad_ = on; }
  bool failed() const { return failed_; }

 private:
  void parse_error(const std::string& arg, const std::string& why) {
    err_ << "parse error: " << why << " in: " << arg << "\n";
    failed_ = true;
  }

  std::ostream& out_;
  std::ostream& err_;
  classad::EvalEnv env_;
  ClassAd my_, target_;
  bool have_target_ = false;
  bool print_ad_ = false;
  bool failed_ = false;
};

void usage(std::ostream& out) {
  out << "usage: cara eval [--my FILE] [--target FILE] [--print-ad | --quiet] [ARG ...]\n"
         "  Evaluates ClassAd expressions against a MY ad and an optional TARGET ad.\n"
         "  ARG is `Name = expr` (adds to MY), `[ ... ]` (replaces MY) or an expression\n"
         "  (prints its value). Without ARG, reads them from standard input, one per line.\n"
         "  FILE holds an ad in new `[ ... ]` or old `Name = expr` long form; '-' is stdin.\n";
}

}  // namespace

int run_eval(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err,
             const EvalClock& clock) {
  Session session(out, err, clock);
  bool any_argument = false;
  bool stdin_used = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto file_option = [&](const char* what) -> const std::string* {
      if (i + 1 >= args.size()) {
        err << "cara eval: " << a << " needs a FILE argument (" << what << ")\n";
        return nullptr;
      }
      return &args[++i];
    };
    if (is_option(a, "help") || a == "-h") {
      usage(out);
      return 0;
    }
    if (is_option(a, "my") || is_option(a, "my-file") || is_option(a, "file")) {
      const std::string* path = file_option("the MY ad");
      if (!path) return kExitUserError;
      stdin_used |= *path == "-";
      if (!load_ad(*path, in, session.my(), err)) return kExitUserError;
    } else if (is_option(a, "target") || is_option(a, "target-file")) {
      const std::string* path = file_option("the TARGET ad");
      if (!path) return kExitUserError;
      stdin_used |= *path == "-";
      ClassAd t;
      if (!load_ad(*path, in, t, err)) return kExitUserError;
      session.set_target(std::move(t));
    } else if (is_option(a, "quiet")) {
      session.set_print_ad(false);
    } else if (is_option(a, "print-ad")) {
      session.set_print_ad(true);
    } else if (a.size() > 1 && a[0] == '-' && a[1] == '-') {
      err << "cara eval: unknown option " << a << " (expected --my, --target, --print-ad or --quiet)\n";
      return kExitUserError;
    } else {
      any_argument = true;
      session.handle(a);
    }
  }
  if (!any_argument) {
    if (stdin_used) {
      err << "cara eval: standard input already holds an ad; give expressions as arguments\n";
      return kExitUserError;
    }
    std::string line;
    while (std::getline(in, line)) session.handle(line);
  }
  return session.failed() ? 1 : 0;
}

}  // namespace cara::apps
