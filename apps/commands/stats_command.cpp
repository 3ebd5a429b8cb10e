// cara stats: the pool's history from the collector (condor_stats over an
// HTCondorView collector; KEEP_POOL_HISTORY). Rows of machines, submitters
// and accounting groups sampled every POOL_HISTORY_SAMPLING_INTERVAL, in a
// time range: the last day unless -lasthours, -lastweek, -lastmonth or
// -from/-to (seconds since the epoch) say otherwise.
#include <ctime>
#include <iomanip>

#include "apps/commands/ad_output.h"
#include "apps/commands/arguments.h"
#include "apps/commands/node_commands.h"
#include "apps/commands/tool_options.h"
#include "apps/commands/tool_support.h"
#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/classad/time_format.h"

namespace cara::apps {
namespace {

using namespace std::chrono_literals;

constexpr const char* kStatsUsage =
    "usage: cara stats [--config FILE] [-lastday | -lastweek | -lastmonth | -lasthours N |\n"
    "                  -from SECONDS [-to SECONDS]] [-resourcequery MACHINE | -userquery USER |\n"
    "                  -groupquery GROUP | -resourcelist | -userlist | -grouplist]\n"
    "                  [-constraint EXPR] [-af ATTR,ATTR... | -json | -l]\n";

std::optional<std::int64_t> number(const std::string& text) {
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < 0) return std::nullopt;
  return v;
}

// A sample's time, UTC.
std::string when(std::int64_t t) {
  return classad::format_time(classad::civil_from_secs(t, 0), 0, t, "%Y-%m-%d %H:%M:%S");
}

std::string text(const classad::ClassAd& row, const char* attr) {
  return autoformat_value(row, attr);
}

// One table line per row, its columns by what the row is.
void print_row(std::ostream& out, const classad::ClassAd& row) {
  const std::string type = text(row, "MyType");
  classad::Value t = classad::evaluate_attr(row, "Time");
  out << std::left << std::setw(21) << (t.is_int() ? when(t.as_int()) : "?");
  if (type == "MachineHistory") {
    out << "machine   " << std::setw(28) << text(row, "Name") << " slots " << text(row, "Slots")
        << " claimed " << text(row, "Claimed") << " unclaimed " << text(row, "Unclaimed") << " busy "
        << text(row, "Busy") << " cpus " << text(row, "CpusInUse") << "/" << text(row, "Cpus") << "\n";
  } else if (type == "SubmitterHistory") {
    out << "submitter " << std::setw(28) << text(row, "Name") << " group " << text(row, "Group")
        << " running " << text(row, "RunningJobs") << " idle " << text(row, "IdleJobs") << " held "
        << text(row, "HeldJobs") << "\n";
  } else {
    out << "group     " << std::setw(28) << text(row, "Name") << " submitters " << text(row, "Submitters")
        << " running " << text(row, "RunningJobs") << " idle " << text(row, "IdleJobs") << " held "
        << text(row, "HeldJobs") << "\n";
  }
}

}  // namespace

int run_stats(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (wants_help(args)) return (out << kStatsUsage, 0);
  // Flags without a value first; the rest are options with one.
  std::vector<std::string> rest;
  std::optional<std::int64_t> span;  // seconds back from now
  std::string list;                  // -resourcelist, -userlist, -grouplist: the row type
  AdOutput output;                   // -json, -l: the samples as ads
  for (const std::string& a : args) {
    if (is_flag(a, "json") || is_flag(a, "long:json") || is_flag(a, "l:json"))
      output.mode = AdOutput::Mode::Json;
    else if (is_flag(a, "l") || is_flag(a, "long"))
      output.mode = AdOutput::Mode::Long;
    else if (is_flag(a, "lastday"))
      span = 86400;
    else if (is_flag(a, "lastweek"))
      span = 7 * 86400;
    else if (is_flag(a, "lastmonth"))
      span = 30 * 86400;
    else if (is_flag(a, "resourcelist"))
      list = "MachineHistory";
    else if (is_flag(a, "userlist"))
      list = "SubmitterHistory";
    else if (is_flag(a, "grouplist"))
      list = "GroupHistory";
    else
      rest.push_back(a);
  }
  auto start = options_only(
      rest,
      {"config", "lasthours", "from", "to", "resourcequery", "userquery", "groupquery", "constraint", "af"},
      "stats", kStatsUsage, "TOOL", err);
  if (!start) return kExitUserError;
  const Parsed& p = start->parsed;
  const std::int64_t now = static_cast<std::int64_t>(std::time(nullptr));
  if (auto h = option(p, "lasthours")) {
    auto n = number(*h);
    if (!n || *n == 0) {
      err << "cara stats: -lasthours expects a positive number of hours, not '" << *h << "'\n" << kStatsUsage;
      return kExitUserError;
    }
    span = *n * 3600;
  }
  std::int64_t from = now - span.value_or(86400), to = now;
  for (auto [name, into] : {std::pair{"from", &from}, std::pair{"to", &to}}) {
    if (auto v = option(p, name)) {
      auto n = number(*v);
      if (!n) {
        err << "cara stats: -" << name << " expects seconds since the epoch, not '" << *v << "'\n"
            << kStatsUsage;
        return kExitUserError;
      }
      *into = *n;
    }
  }
  if (span && option(p, "from")) {
    err << "cara stats: -from and a -last option name two ranges; give one\n" << kStatsUsage;
    return kExitUserError;
  }
  // What to select: one machine, submitter or group, a list, and -constraint.
  std::vector<std::string> clauses;
  for (auto [name, type] :
       {std::pair{"resourcequery", "MachineHistory"}, std::pair{"userquery", "SubmitterHistory"},
        std::pair{"groupquery", "GroupHistory"}})
    if (auto v = option(p, name))
      clauses.push_back("MyType == \"" + std::string(type) + "\" && Name == " + classad::quoted(*v));
  if (!list.empty()) clauses.push_back("MyType == \"" + list + "\"");
  if (auto c = option(p, "constraint")) {
    if (auto e = classad::parse_expression(*c); !e) {
      err << "cara stats: -constraint: " << e.error() << "\n";
      return kExitUserError;
    }
    clauses.push_back("(" + *c + ")");
  }
  std::string constraint;
  for (const std::string& c : clauses) constraint += (constraint.empty() ? "" : " && ") + c;
  const std::vector<std::string> af = attribute_list(option(p, "af").value_or(""));

  int rc = 0;
  auto client = PoolClient::open(start->config, "stats", err, rc);
  if (!client) return rc;
  caf::actor_system& sys = client->system();
  const auto found = central_collector(*client);
  if (!found) {
    err << "cara stats: " << found.error() << "\n";
    return 1;
  }
  caf::scoped_actor self{sys};
  self->request(*found, 30s, actors::PoolHistoryQuery{from, to, constraint, {}})
      .receive(
          [&](actors::AdQueryReply& r) {
            if (!r.ok) {
              err << "cara stats: " << r.error << "\n";
              rc = 1;
              return;
            }
            if (output.mode != AdOutput::Mode::Table) {
              std::vector<classad::ClassAd> ads;
              for (const actors::WireAd& w : r.ads) ads.push_back(w.ad);
              output.print(out, ads);
              return;
            }
            if (!list.empty() && af.empty()) {
              // The names seen in the range, once each, in order.
              std::set<std::string> names;
              for (const actors::WireAd& w : r.ads) names.insert(text(w.ad, "Name"));
              for (const std::string& n : names) out << n << "\n";
              return;
            }
            for (const actors::WireAd& w : r.ads) {
              if (af.empty())
                print_row(out, w.ad);
              else
                out << autoformat(w.ad, af) << "\n";
            }
          },
          [&](caf::error& e) {
            err << "cara stats: the collector did not answer: " << sys.render(e) << "\n";
            rc = 1;
          });
  return rc;
}

}  // namespace cara::apps
