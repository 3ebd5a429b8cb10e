#include "apps/commands/queue_view.h"

#include <cstdio>
#include <map>
#include <sstream>

#include "apps/commands/arguments.h"
#include "apps/commands/status_view.h"
#include "apps/commands/text_table.h"
#include "apps/commands/tool_options.h"
#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/classad/time_format.h"
#include "model/classad/unparse.h"
#include "model/schedd/job_status.h"

namespace cara::apps {

const char* const kQueueUsage =
    "usage: cara q [--config FILE] [-name SCHEDD] [-pool CM] [-nobatch | -batch | -run | -hold | -totals]\n"
    "              [-wide] [-allusers]\n"
    "              [-constraint EXPR] [USER | CLUSTER | CLUSTER.PROC ...]\n"
    "       cara q -better-analyze | -analyze  JOB | CLUSTER  [--config FILE] [-pool CM]\n";
const char* const kHistoryUsage =
    "usage: cara history [--config FILE] [-name SCHEDD] [-pool CM] [-limit N] [-wide] [-constraint EXPR]\n"
    "                    [USER | CLUSTER | CLUSTER.PROC ...]\n";

namespace {

double real_of(const classad::ClassAd& ad, const char* attr) {
  double d = 0;
  return classad::evaluate_attr(ad, attr).number(d) ? d : 0;
}

// condor_q's ST column: HTCondor's letters for JobStatus 1..7.
const char* status_letter(std::int64_t s) {
  static const char* const kLetters[] = {"?", "I", "R", "X", "C", "H", ">", "S"};
  return s >= 1 && s <= 7 ? kLetters[s] : "?";
}

std::string job_id_text(const classad::ClassAd& job) {
  return std::to_string(schedd::int_attr(job, "ClusterId")) + "." +
         std::to_string(schedd::int_attr(job, "ProcId"));
}

// A number, or "_" for none (the batch table's way).
std::string count_or_blank(std::int64_t n) {
  return n == 0 ? "_" : std::to_string(n);
}

std::string cut(const std::string& s, std::size_t width, bool wide) {
  if (wide || s.size() <= width) return s;
  return s.substr(0, width);
}

// The time a job has run: its past runs and, while it runs, this one.
std::int64_t run_time(const classad::ClassAd& job, std::int64_t now) {
  double t = real_of(job, "RemoteWallClockTime");
  const std::int64_t status = schedd::int_attr(job, "JobStatus");
  if (status == 2 || status == 7) {
    const std::int64_t started = schedd::int_attr(job, "JobCurrentStartDate");
    if (started > 0 && now > started) t += static_cast<double>(now - started);
  }
  return static_cast<std::int64_t>(t);
}

// The command as condor_q shows it: the executable's name and arguments.
std::string command_text(const classad::ClassAd& job) {
  std::string cmd = schedd::string_attr(job, "Cmd");
  if (auto slash = cmd.rfind('/'); slash != std::string::npos) cmd = cmd.substr(slash + 1);
  std::string args = schedd::string_attr(job, "Arguments");
  if (args.empty()) args = schedd::string_attr(job, "Args");
  return args.empty() ? cmd : cmd + " " + args;
}

std::string size_mb(const classad::ClassAd& job) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", real_of(job, "ImageSize") / 1024.0);
  return buf;
}

std::string all_of(const std::vector<std::string>& clauses) {
  if (clauses.size() == 1) return clauses[0];
  std::string out;
  for (const std::string& c : clauses) out += (out.empty() ? "(" : " && (") + c + ")";
  return out;
}

void batch_table(std::ostream& out, const std::vector<classad::ClassAd>& jobs, const QueueContext& c) {
  struct Batch {
    std::string owner, name;
    std::int64_t submitted = 0, run = 0, idle = 0, held = 0, present = 0;
    std::map<std::int64_t, std::int64_t> cluster_procs;  // TotalSubmitProcs per cluster
    std::map<std::int64_t, std::int64_t> cluster_present;
    std::string first, last;
    std::int64_t min_proc = -1, max_proc = -1;
  };
  std::vector<Batch> batches;
  std::map<std::pair<std::string, std::string>, std::size_t> index;
  bool any_held = false;
  for (const classad::ClassAd& job : jobs) {
    const std::string owner = schedd::string_attr(job, "Owner");
    const std::int64_t cluster = schedd::int_attr(job, "ClusterId"), proc = schedd::int_attr(job, "ProcId");
    std::string name = schedd::string_attr(job, "JobBatchName");
    if (name.empty()) name = "ID: " + std::to_string(cluster);
    auto [it, fresh] = index.emplace(std::pair{owner, name}, batches.size());
    if (fresh) {
      batches.emplace_back();
      batches.back().owner = owner;
      batches.back().name = name;
    }
    Batch& b = batches[it->second];
    const std::int64_t q = schedd::int_attr(job, "QDate");
    if (b.submitted == 0 || (q > 0 && q < b.submitted)) b.submitted = q;
    switch (schedd::int_attr(job, "JobStatus")) {
      case 1: ++b.idle; break;
      case 2:
      case 7: ++b.run; break;
      case 5:
        ++b.held;
        any_held = true;
        break;
      default: break;
    }
    ++b.present;
    b.cluster_procs[cluster] = std::max<std::int64_t>(schedd::int_attr(job, "TotalSubmitProcs"), 1);
    ++b.cluster_present[cluster];
    if (b.first.empty()) b.first = job_id_text(job);
    b.last = job_id_text(job);
    if (b.min_proc < 0 || proc < b.min_proc) b.min_proc = proc;
    b.max_proc = std::max(b.max_proc, proc);
  }
  Table t;
  t.blank_after_header = false;
  t.columns = {{"OWNER"}, {"BATCH_NAME"}, {"SUBMITTED", true}, {"DONE", true}, {"RUN", true}, {"IDLE", true}};
  if (any_held) t.columns.push_back({"HOLD", true});
  t.columns.push_back({"TOTAL", true});
  t.columns.push_back({"JOB_IDS"});
  for (auto& col : t.columns)
    if (col.right) col.min_width = 6;
  for (const Batch& b : batches) {
    std::int64_t done = 0;
    for (const auto& [cluster, procs] : b.cluster_procs)
      done += std::max<std::int64_t>(procs - b.cluster_present.at(cluster), 0);
    std::string ids = b.first;
    if (b.cluster_procs.size() > 1)
      ids = b.first + " ... " + b.last;
    else if (b.max_proc > b.min_proc)
      ids = b.first + "-" + std::to_string(b.max_proc);
    std::vector<std::string> row{b.owner,
                                 b.name,
                                 short_date(b.submitted, c.offset),
                                 count_or_blank(done),
                                 count_or_blank(b.run),
                                 count_or_blank(b.idle)};
    if (any_held) row.push_back(count_or_blank(b.held));
    row.push_back(std::to_string(b.present + done));
    row.push_back(ids);
    t.rows.push_back(std::move(row));
  }
  t.print(out);
}

void job_table(std::ostream& out, QueueOptions::View view, const std::vector<classad::ClassAd>& jobs,
               const QueueContext& c, bool wide) {
  Table t;
  t.blank_after_header = false;
  switch (view) {
    case QueueOptions::View::Run:
      t.columns = {{"ID"}, {"OWNER"}, {"SUBMITTED", true}, {"RUN_TIME", true}, {"HOST(S)"}};
      break;
    case QueueOptions::View::Hold:
      t.columns = {{"ID"}, {"OWNER"}, {"HELD_SINCE", true}, {"HOLD_REASON"}};
      break;
    default:
      t.columns = {{"ID"}, {"OWNER"},     {"SUBMITTED", true}, {"RUN_TIME", true, 12},
                   {"ST"}, {"PRI", true}, {"SIZE", true},      {"CMD"}};
  }
  for (const classad::ClassAd& job : jobs) {
    const std::string id = job_id_text(job), owner = schedd::string_attr(job, "Owner");
    const std::string submitted = short_date(schedd::int_attr(job, "QDate"), c.offset);
    switch (view) {
      case QueueOptions::View::Run:
        t.rows.push_back({id, owner, submitted, activity_time(run_time(job, c.now)),
                          schedd::string_attr(job, "RemoteHost")});
        break;
      case QueueOptions::View::Hold:
        t.rows.push_back({id, owner, short_date(schedd::int_attr(job, "EnteredCurrentStatus"), c.offset),
                          cut(schedd::string_attr(job, "HoldReason"), 60, wide)});
        break;
      default:
        t.rows.push_back({id, owner, submitted, activity_time(run_time(job, c.now)),
                          status_letter(schedd::int_attr(job, "JobStatus")),
                          std::to_string(schedd::int_attr(job, "JobPrio")), size_mb(job),
                          cut(command_text(job), 40, wide)});
    }
  }
  t.print(out);
}

}  // namespace

bool is_cluster_selector(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

bool is_job_selector(const std::string& s) {
  const auto dot = s.find('.');
  return dot != std::string::npos && is_cluster_selector(s.substr(0, dot)) &&
         is_cluster_selector(s.substr(dot + 1));
}

std::string selector_constraint(const std::string& s) {
  if (is_cluster_selector(s)) return "ClusterId == " + s;
  if (is_job_selector(s)) {
    const auto dot = s.find('.');
    return "ClusterId == " + s.substr(0, dot) + " && ProcId == " + s.substr(dot + 1);
  }
  // A user as Owner has it, or as User (alice@domain).
  return (s.find('@') == std::string::npos ? "Owner == " : "User == ") + classad::quoted(s);
}

std::string short_date(std::int64_t secs, std::int32_t offset) {
  if (secs <= 0) return "???";
  const classad::CivilTime t = classad::civil_from_secs(secs, offset);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%2d/%-2d %02d:%02d", t.month, t.day, t.hour, t.minute);
  return buf;
}

std::string counts_text(const schedd::JobCounts& c) {
  return std::to_string(c.total) + " jobs; " + std::to_string(c.completed) + " completed, " +
         std::to_string(c.removed) + " removed, " + std::to_string(c.idle) + " idle, " +
         std::to_string(c.running) + " running, " + std::to_string(c.held) + " held, " +
         std::to_string(c.suspended) + " suspended";
}

Result<QueueOptions> parse_queue_options(const std::vector<std::string>& args, bool history) {
  QueueOptions o;
  const SharedOptions shared{&o.config, &o.target.pool, &o.constraint, &o.output, &o.target.name};
  const std::pair<const char*, QueueOptions::View> views[] = {{"nobatch", QueueOptions::View::NoBatch},
                                                              {"batch", QueueOptions::View::Batch},
                                                              {"run", QueueOptions::View::Run},
                                                              {"hold", QueueOptions::View::Hold},
                                                              {"totals", QueueOptions::View::Totals}};
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto common = shared.take(args, i);
    if (!common) return Error{common.error()};
    if (*common) continue;
    bool view = false;
    for (const auto& [name, v] : views)
      if (!history && is_flag(a, name)) {
        o.view = v;
        view = true;
      }
    if (view) continue;
    if (is_flag(a, "wide") || a.rfind("-wide:", 0) == 0) {
      o.wide = true;
    } else if (!history && is_flag(a, "allusers")) {
      o.allusers = true;
    } else if (history && (is_flag(a, "limit") || is_flag(a, "match"))) {
      auto v = option_value(args, i, "a number of jobs");
      if (!v) return Error{v.error()};
      char* end = nullptr;
      o.limit = std::strtoll(v->c_str(), &end, 10);
      if (v->empty() || *end != '\0' || o.limit < 1)
        return Error{a + " expects a positive number of jobs, not '" + *v + "'"};
    } else if (!a.empty() && a[0] == '-') {
      return Error{"unknown option " + a};
    } else {
      o.selectors.push_back(a);
    }
  }
  return o;
}

std::string queue_constraint(const QueueOptions& o, const std::string& me, bool history) {
  std::vector<std::string> clauses;
  std::string any;
  for (const std::string& s : o.selectors)
    any += (any.empty() ? "" : " || ") + ("(" + selector_constraint(s) + ")");
  if (!any.empty()) clauses.push_back(any);
  if (!o.constraint.empty()) clauses.push_back(o.constraint);
  if (o.view == QueueOptions::View::Run) clauses.push_back("JobStatus == 2");
  if (o.view == QueueOptions::View::Hold) clauses.push_back("JobStatus == 5");
  if (!history && !o.allusers && o.selectors.empty() && !me.empty())
    clauses.push_back("Owner == " + classad::quoted(me));
  if (clauses.empty()) return "";
  return all_of(clauses);
}

std::string format_queue(const QueueOptions& o, const std::vector<classad::ClassAd>& jobs,
                         const QueueContext& c) {
  std::ostringstream out;
  if (o.output.mode != AdOutput::Mode::Table) {
    o.output.print(out, jobs);
    return out.str();
  }
  const classad::CivilTime t = classad::civil_from_secs(c.now, c.offset);
  char when[32];
  std::snprintf(when, sizeof when, "%02d/%02d/%02d %02d:%02d:%02d", t.month, t.day,
                static_cast<int>(t.year % 100), t.hour, t.minute, t.second);
  out << "\n\n-- Schedd: " << c.schedd << " @ " << when << "\n";
  if (o.view == QueueOptions::View::Batch)
    batch_table(out, jobs, c);
  else if (o.view != QueueOptions::View::Totals)
    job_table(out, o.view, jobs, c, o.wide);
  schedd::JobCounts query;
  for (const classad::ClassAd& j : jobs) query.add(j);
  out << "\nTotal for query: " << counts_text(query) << "\n";
  if (!o.allusers && o.selectors.empty())
    out << "Total for " << c.me << ": " << counts_text(c.totals.owner) << "\n";
  out << "Total for all users: " << counts_text(c.totals.all) << "\n";
  return out.str();
}

std::string format_history(const QueueOptions& o, const std::vector<classad::ClassAd>& jobs,
                           const QueueContext& c) {
  std::ostringstream out;
  if (o.output.mode != AdOutput::Mode::Table) {
    o.output.print(out, jobs);
    return out.str();
  }
  Table t;
  t.blank_after_header = false;
  t.columns = {{"ID"}, {"OWNER"}, {"SUBMITTED", true}, {"RUN_TIME", true, 12}, {"ST"}, {"COMPLETED", true},
               {"CMD"}};
  for (const classad::ClassAd& job : jobs) {
    // When it finished: completed, or removed (when it entered that status).
    std::int64_t done = schedd::int_attr(job, "CompletionDate");
    if (done == 0) done = schedd::int_attr(job, "EnteredCurrentStatus");
    t.rows.push_back({job_id_text(job), schedd::string_attr(job, "Owner"),
                      short_date(schedd::int_attr(job, "QDate"), c.offset),
                      activity_time(run_time(job, c.now)), status_letter(schedd::int_attr(job, "JobStatus")),
                      short_date(done, c.offset), cut(command_text(job), 40, o.wide)});
  }
  t.print(out);
  return out.str();
}

}  // namespace cara::apps
