#include "apps/commands/job_listing.h"

#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "apps/commands/tool_options.h"
#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/classad/unparse.h"
#include "net/local_socket.h"

namespace cara::apps {
namespace {

using namespace std::chrono_literals;

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

int run_job_listing(const JobListing& how, const std::vector<std::string>& args, std::ostream& out,
                    std::ostream& err) {
  std::vector<std::string> names{"config", "constraint", "af"};
  if (how.history) names.push_back("limit");
  const std::string tool = std::string("cara ") + how.tool;
  auto start = options_only(args, names, how.tool, how.usage, "TOOL", err);
  if (!start) return 2;
  const Parsed* p = &start->parsed;
  const config::Config* cfg = &start->config;
  const std::string constraint = option(*p, "constraint").value_or("");
  if (!constraint.empty()) {
    if (auto e = classad::parse_expression(constraint); !e) {
      err << tool << ": -constraint: " << e.error() << "\n";
      return 2;
    }
  }
  const std::vector<std::string> af = attribute_list(option(*p, "af").value_or(""));
  std::int64_t limit = 0;
  if (auto l = option(*p, "limit")) {
    char* end = nullptr;
    limit = std::strtoll(l->c_str(), &end, 10);
    if (l->empty() || *end != '\0' || limit < 1) {
      err << tool << ": -limit expects a positive number of jobs, not '" << *l << "'\n" << how.usage;
      return 2;
    }
  }
  auto socket = cfg->string("SCHEDD_SOCKET");
  if (!socket) {
    err << tool << ": " << socket.error() << "\n";
    return 2;
  }
  nlohmann::json request{{"command", how.command}, {"constraint", constraint}};
  if (how.history) request["limit"] = limit;
  auto reply = net::local_call(*socket, request, 30s);
  if (!reply) {
    err << tool << ": " << reply.error() << "\n";
    return 2;
  }
  if (!reply->value("ok", false)) {
    err << tool << ": " << reply->value("error", "") << "\n";
    return 1;
  }
  if (af.empty()) {
    out << std::left << std::setw(10) << "ID" << std::setw(14) << "OWNER" << std::setw(4) << "ST";
    if (how.history) out << std::setw(12) << "COMPLETED";
    out << "CMD\n";
  }
  std::size_t n = 0;
  for (const std::string& text : reply->value("jobs", std::vector<std::string>{})) {
    auto ad = classad::parse_classad(text);
    if (!ad) continue;
    ++n;
    auto get = [&](const char* a) { return classad::evaluate_attr(*ad, a); };
    if (!af.empty()) {
      out << autoformat(*ad, af) << "\n";
      continue;
    }
    classad::Value c = get("ClusterId"), pr = get("ProcId"), o = get("Owner"), s = get("JobStatus"),
                   cmd = get("Cmd");
    const std::string id = (c.is_int() ? std::to_string(c.as_int()) : "?") + "." +
                           (pr.is_int() ? std::to_string(pr.as_int()) : "?");
    out << std::left << std::setw(10) << id << std::setw(14)
        << (o.is_string() ? std::string(o.as_string()) : "?") << std::setw(4)
        << (s.is_int() ? status_letter(s.as_int()) : "?");
    if (how.history) {
      // When it finished: completed, or removed (when it entered that status).
      classad::Value done = get("CompletionDate");
      if (!done.is_int() || done.as_int() == 0) done = get("EnteredCurrentStatus");
      out << std::setw(12) << (done.is_int() ? std::to_string(done.as_int()) : "?");
    }
    out << (cmd.is_string() ? std::string(cmd.as_string()) : "") << "\n";
  }
  if (af.empty()) out << n << " jobs\n";
  return 0;
}

}  // namespace cara::apps
