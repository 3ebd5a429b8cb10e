// cara q: the local schedd's queue, through its Unix socket (condor_q).
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "apps/commands/node_commands.h"
#include "apps/commands/tool_support.h"
#include "apps/node/node_plan.h"
#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "net/local_socket.h"

namespace cara::apps {
namespace {

using namespace std::chrono_literals;

constexpr const char* kQUsage = "usage: cara q [--config FILE] [-constraint EXPR] [-af ATTR,ATTR...]\n";

const char* status_letter(std::int64_t s) {
  switch (s) {
    case 1: return "I";
    case 2: return "R";
    case 3: return "X";
    case 4: return "C";
    case 5: return "H";
    case 7: return "S";
    default: return "?";
  }
}

}  // namespace

int run_q(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  auto start = options_only(args, {"config", "constraint", "af"}, "q", kQUsage, "TOOL", err);
  if (!start) return 2;
  const Parsed* p = &start->parsed;
  const config::Config* cfg = &start->config;
  const std::string constraint = option(*p, "constraint").value_or("");
  if (!constraint.empty()) {
    if (auto e = classad::parse_expression(constraint); !e) {
      err << "cara q: -constraint: " << e.error() << "\n";
      return 2;
    }
  }
  std::vector<std::string> af;
  if (auto a = option(*p, "af")) {
    std::string item;
    for (char c : *a + ",") {
      if (c == ',' || c == ' ') {
        if (!item.empty()) af.push_back(item);
        item.clear();
      } else {
        item += c;
      }
    }
  }
  auto socket = cfg->string("SCHEDD_SOCKET");
  if (!socket) {
    err << "cara q: " << socket.error() << "\n";
    return 2;
  }
  auto reply = net::local_call(*socket, {{"command", "q"}, {"constraint", constraint}}, 30s);
  if (!reply) {
    err << "cara q: " << reply.error() << "\n";
    return 2;
  }
  if (!reply->value("ok", false)) {
    err << "cara q: " << reply->value("error", "") << "\n";
    return 1;
  }
  if (af.empty())
    out << std::left << std::setw(10) << "ID" << std::setw(14) << "OWNER" << std::setw(4) << "ST"
        << "CMD\n";
  std::size_t n = 0;
  for (const std::string& text : reply->value("jobs", std::vector<std::string>{})) {
    auto ad = classad::parse_classad(text);
    if (!ad) continue;
    ++n;
    auto get = [&](const char* a) { return classad::evaluate_attr(*ad, a); };
    if (!af.empty()) {
      for (std::size_t i = 0; i < af.size(); ++i) {
        classad::Value v = get(af[i].c_str());
        out << (i ? " " : "") << (v.is_string() ? std::string(v.as_string()) : classad::unparse(v));
      }
      out << "\n";
      continue;
    }
    classad::Value c = get("ClusterId"), pr = get("ProcId"), o = get("Owner"), s = get("JobStatus"),
                   cmd = get("Cmd");
    const std::string id = (c.is_int() ? std::to_string(c.as_int()) : "?") + "." +
                           (pr.is_int() ? std::to_string(pr.as_int()) : "?");
    out << std::left << std::setw(10) << id << std::setw(14)
        << (o.is_string() ? std::string(o.as_string()) : "?") << std::setw(4)
        << (s.is_int() ? status_letter(s.as_int()) : "?")
        << (cmd.is_string() ? std::string(cmd.as_string()) : "") << "\n";
  }
  if (af.empty()) out << n << " jobs\n";
  return 0;
}

}  // namespace cara::apps
