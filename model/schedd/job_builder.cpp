#include "model/schedd/job_builder.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/classad/symbol.h"
#include "model/common/text.h"
#include "model/config/config.h"
#include "model/config/config_host.h"
#include "model/config/defaults.h"
#include "model/config/expander.h"
#include "model/schedd/job_arguments.h"
#include "model/schedd/job_claim.h"
#include "model/schedd/job_status.h"
#include "model/schedd/job_walk.h"

namespace cara::schedd {
namespace {

std::string where(const SubmitContext& ctx, const SubmitCommand& c) {
  return c.line > 0 ? ctx.label + ", line " + std::to_string(c.line)
                    : "-append '" + c.key + " = " + c.value + "'";
}

bool is_true_word(std::string_view v) {
  std::string l = to_lower(config::trim(v));
  return l == "true" || l == "yes" || l == "1" || l == "t" || l == "y";
}

// Whether `expr` mentions attribute `name` (any scope).
bool references(const classad::ExprTree& expr, std::string_view name) {
  for (std::size_t i = 0; i < expr.size(); ++i) {
    const classad::Node& n = expr.node(static_cast<classad::NodeIndex>(i));
    if ((n.kind == classad::NodeKind::Attr || n.kind == classad::NodeKind::ScopedAttr ||
         n.kind == classad::NodeKind::Select) &&
        classad::iequals(expr.name(n), name)) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::optional<std::int64_t> size_in_units(std::string_view text, double base_kib) {
  text = config::trim(text);
  std::size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
  if (i == 0) return std::nullopt;
  char* end = nullptr;
  std::string number(text.substr(0, i));
  double value = std::strtod(number.c_str(), &end);
  if (*end) return std::nullopt;
  std::string unit = to_lower(config::trim(text.substr(i)));
  double kib;
  if (unit.empty())
    kib = base_kib;
  else if (unit == "k" || unit == "kb")
    kib = 1;
  else if (unit == "m" || unit == "mb")
    kib = 1024;
  else if (unit == "g" || unit == "gb")
    kib = 1024.0 * 1024;
  else if (unit == "t" || unit == "tb")
    kib = 1024.0 * 1024 * 1024;
  else
    return std::nullopt;
  // A size no int64 holds is no size (the fuzzer found 2111...1G
  // overflowing the conversion).
  const double units = std::ceil(value * kib / base_kib);
  if (!(units < 9.2e18)) return std::nullopt;
  return static_cast<std::int64_t>(units);
}

namespace {

// Builds one job ad from the expanded commands.
class JobAdBuilder {
 public:
  JobAdBuilder(const SubmitContext& ctx, classad::ClassAd& ad) : ctx_(ctx), ad_(ad) {}

  Status expression(const std::string& attr, const std::string& value, const SubmitCommand& c) {
    auto e = classad::parse_expression_shared(value);
    if (!e)
      return Error{where(ctx_, c) + ": " + c.key + " = " + value +
                   " is not a valid expression: " + e.error()};
    ad_.insert(attr, *e);
    return Ok{};
  }

  Status apply(const SubmitCommand& c, const std::string& value) {
    if (c.attribute()) return expression(c.attribute_name(), value, c);
    const std::string key = to_lower(c.key);
    if (key == "executable") {
      path_ = value;
      return Ok{};
    }
    if (key == "arguments" || key == "args") {
      if (auto problem = arguments_problem(value)) return Error{where(ctx_, c) + ": arguments: " + *problem};
      if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
        ad_.set("Arguments", std::string_view(value).substr(1, value.size() - 2));
      } else {
        ad_.set("Args", value);
      }
      return Ok{};
    }
    if (key == "universe") {
      if (!classad::iequals(value, "vanilla")) {
        return Error{where(ctx_, c) + ": universe " + value +
                     " is not supported: caracara runs vanilla universe jobs (universe = vanilla)"};
      }
      return Ok{};
    }
    static const std::map<std::string, std::string> strings = {
        {"input", "In"},
        {"output", "Out"},
        {"error", "Err"},
        {"log", "UserLog"},
        {"initialdir", "Iwd"},
        {"accounting_group", "AcctGroup"},
        {"accounting_group_user", "AcctGroupUser"},
        {"kill_sig", "KillSig"},
        {"should_transfer_files", "ShouldTransferFiles"},
        {"when_to_transfer_output", "WhenToTransferOutput"},
        {"transfer_input_files", "TransferInput"},
        {"transfer_output_files", "TransferOutput"},
    };
    if (auto it = strings.find(key); it != strings.end()) {
      ad_.set(it->second, value);
      return Ok{};
    }
    if (key == "environment" || key == "env") {
      if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
        environment_ = value.substr(1, value.size() - 2);
      } else {
        // Old syntax: NAME=value;NAME=value.
        std::string converted;
        std::size_t start = 0;
        for (std::size_t i = 0; i <= value.size(); ++i) {
          if (i == value.size() || value[i] == ';') {
            std::string_view pair = config::trim(std::string_view(value).substr(start, i - start));
            if (!pair.empty()) converted += (converted.empty() ? "" : " ") + std::string(pair);
            start = i + 1;
          }
        }
        environment_ = converted;
      }
      return Ok{};
    }
    if (key == "getenv") {
      getenv_ = is_true_word(value);
      return Ok{};
    }
    if (key == "request_cpus") return expression("RequestCpus", value, c);
    if (key == "request_memory" || key == "request_disk") {
      const bool memory = key == "request_memory";
      auto amount = size_in_units(value, memory ? 1024 : 1);
      std::string attr = memory ? "RequestMemory" : "RequestDisk";
      if (amount) {
        ad_.set(attr, *amount);
        return Ok{};
      }
      return expression(attr, value, c);
    }
    if (key.rfind("request_", 0) == 0 && key.size() > 8) {
      std::string name = c.key.substr(8);
      custom_requests_.push_back(name);
      return expression("Request" + name, value, c);
    }
    if (key == "requirements") {
      auto e = classad::parse_expression_shared(value);
      if (!e)
        return Error{where(ctx_, c) + ": requirements = " + value +
                     " is not a valid expression: " + e.error()};
      requirements_ = *e;
      requirements_text_ = value;
      return Ok{};
    }
    if (key == "rank") return expression("Rank", value, c);
    if (key == "priority") return expression("JobPrio", value, c);
    if (key == "nice_user") {
      nice_ = is_true_word(value);
      return Ok{};
    }
    if (key == "hold") {  // condor_submit's hold = true: queued held, until condor_release
      hold_ = is_true_word(value);
      return Ok{};
    }
    if (key == "concurrency_limits") {
      limits_line_ = c.line;
      ad_.set("ConcurrencyLimits", to_lower(value));
      return Ok{};
    }
    if (key == "concurrency_limits_expr") {
      limits_expr_line_ = c.line;
      return expression("ConcurrencyLimitsExpr", value, c);
    }
    if (key == "job_lease_duration") return expression("JobLeaseDuration", value, c);
    if (key == "max_retirement_time") return expression("MaxJobRetirementTime", value, c);
    if (key == "job_max_vacate_time") return expression("JobMaxVacateTime", value, c);
    // The job's own periodic policy, read by evaluate_periodic().
    if (key == "periodic_hold") return expression("PeriodicHold", value, c);
    if (key == "periodic_hold_reason") return expression("PeriodicHoldReason", value, c);
    if (key == "periodic_hold_subcode") return expression("PeriodicHoldSubCode", value, c);
    if (key == "periodic_release") return expression("PeriodicRelease", value, c);
    if (key == "periodic_remove") return expression("PeriodicRemove", value, c);
    return Ok{};  // any other name is a submit macro only
  }

  // Iwd (initialdir, else the submitter's directory) and Cmd (the
  // executable's path, relative ones in Iwd): all that first_job_command
  // asks of a job.
  Status place_command() {
    if (path_.empty()) return Error{ctx_.label + ": no executable (the one command every job needs)"};
    iwd_ = ad_.find("Iwd") ? string_attr("Iwd") : ctx_.iwd;
    ad_.set("Iwd", iwd_);
    ad_.set("Cmd", path_[0] == '/' || iwd_.empty() ? path_ : iwd_ + "/" + path_);
    return Ok{};
  }

  // What every job gets, after its commands.
  Status finish(std::int64_t proc, const SubmitDescription&) {
    if (auto placed = place_command(); !placed) return placed;
    if (limits_line_ >= 0 && limits_expr_line_ >= 0) {
      return Error{ctx_.label + ", line " + std::to_string(std::max(limits_line_, limits_expr_line_)) +
                   ": concurrency_limits and concurrency_limits_expr cannot both be given"};
    }
    const std::string& iwd = iwd_;
    // The user log is kept as a full path (the thesis's figure 9); input
    // and output stay relative to Iwd, as written.
    if (ad_.find("UserLog")) {
      std::string log = string_attr("UserLog");
      if (!log.empty() && log[0] != '/' && !iwd.empty()) ad_.set("UserLog", iwd + "/" + log);
    }
    ad_.set("MyType", "Job");
    ad_.set("TargetType", "Machine");
    ad_.set("ClusterId", ctx_.cluster_id);
    ad_.set("ProcId", proc);
    ad_.set("Owner", ctx_.owner);
    ad_.set("User", ctx_.owner + "@" + ctx_.uid_domain);
    ad_.set("QDate", ctx_.now);
    ad_.set("JobStatus", hold_ ? 5 : 1);
    if (hold_) {
      // HTCondor's reason and code (15, SubmittedOnHold).
      ad_.set("HoldReason", "submitted on hold at user's request");
      ad_.set("HoldReasonCode", 15);
      ad_.set("HoldReasonSubCode", 0);
    }
    ad_.set("EnteredCurrentStatus", ctx_.now);
    ad_.set("JobUniverse", 5);
    ad_.set("NumJobStarts", 0);
    ad_.set("RemoteWallClockTime", 0.0);
    ad_.set("CumulativeSuspensionTime", 0);
    ad_.set("MinHosts", 1);
    ad_.set("MaxHosts", 1);
    ad_.set("CurrentHosts", 0);
    ad_.set("NiceUser", nice_);
    for (auto [attr, fallback] :
         {std::pair{"In", "/dev/null"}, std::pair{"Out", "/dev/null"}, std::pair{"Err", "/dev/null"}}) {
      if (!ad_.find(attr)) ad_.set(attr, fallback);
    }
    if (!ad_.find("JobPrio")) ad_.set("JobPrio", 0);
    // condor_submit's default lease: the execution point keeps the job
    // running this long when its schedd is gone (job_claim.h).
    if (!ad_.find("JobLeaseDuration")) ad_.set("JobLeaseDuration", kDefaultJobLease);
    if (!ad_.find("Rank")) ad_.set("Rank", 0.0);
    if (!ad_.find("ImageSize") || !ad_.find("DiskUsage")) {
      const std::int64_t kib = image_size();
      if (!ad_.find("ImageSize")) ad_.set("ImageSize", kib);
      if (!ad_.find("DiskUsage")) ad_.set("DiskUsage", kib);
    }
    if (nice_ && !ad_.find("MaxJobRetirementTime")) ad_.set("MaxJobRetirementTime", 0);  // nice_user default
    // The accounting group: group.user, the user being accounting_group_user
    // or the owner; nice_user jobs without a group go to nice-user.<owner>.
    if (ad_.find("AcctGroup")) {
      std::string user = ad_.find("AcctGroupUser") ? string_attr("AcctGroupUser") : ctx_.owner;
      ad_.set("AcctGroupUser", user);
      ad_.set("AccountingGroup", string_attr("AcctGroup") + "." + user);
    } else if (nice_) {
      ad_.set("AccountingGroup", "nice-user." + ctx_.owner);
    }
    if (!environment_.empty() || getenv_) {
      std::string env;
      if (getenv_) {
        for (const auto& [k, v] : ctx_.environment) {
          if (v.find_first_of(" '\"") != std::string::npos) continue;  // kept simple: no quoting needed
          env += (env.empty() ? "" : " ") + k + "=" + v;
        }
      }
      if (!environment_.empty()) env += (env.empty() ? "" : " ") + environment_;  // explicit wins (later)
      ad_.set("Environment", env);
    }
    // Request defaults (JOB_DEFAULT_REQUEST*), then Requirements with the
    // automatic clauses.
    for (auto [attr, knob] : {std::pair{"RequestCpus", "JOB_DEFAULT_REQUESTCPUS"},
                              std::pair{"RequestMemory", "JOB_DEFAULT_REQUESTMEMORY"},
                              std::pair{"RequestDisk", "JOB_DEFAULT_REQUESTDISK"}}) {
      if (ad_.find(attr)) continue;
      classad::ExprPtr e;
      if (ctx_.config) {
        auto v = ctx_.config->expression(knob);
        if (!v) return Error{v.error()};
        e = *v;
      } else {
        // No configuration: the built-in default of the one defaults table.
        for (const config::KnobDefault& d : config::knob_defaults()) {
          if (std::string_view(d.name) == knob) e = *classad::parse_expression(d.value);
        }
      }
      ad_.insert(attr, e);
    }
    std::string clauses;
    auto add = [&](const std::string& c) { clauses += (clauses.empty() ? "" : " && ") + c; };
    auto mentions = [&](std::string_view name) { return requirements_ && references(*requirements_, name); };
    std::string arch = "X86_64", opsys = "LINUX";
    if (ctx_.config) {
      arch = ctx_.config->string("ARCH", arch).value();
      opsys = ctx_.config->string("OPSYS", opsys).value();
    }
    if (!mentions("Arch")) add("(TARGET.Arch == \"" + arch + "\")");
    if (!mentions("OpSys")) add("(TARGET.OpSys == \"" + opsys + "\")");
    if (!mentions("Disk")) add("(TARGET.Disk >= RequestDisk)");
    if (!mentions("Memory")) add("(TARGET.Memory >= RequestMemory)");
    if (!mentions("Cpus")) add("(TARGET.Cpus >= RequestCpus)");
    for (const std::string& r : custom_requests_) {
      if (!mentions(r)) add("(TARGET." + r + " >= Request" + r + ")");
    }
    std::string full =
        requirements_ ? "(" + requirements_text_ + ")" + (clauses.empty() ? "" : " && " + clauses) : clauses;
    // Shared: the jobs of a submission, and of the submissions after it,
    // spell it alike; they then hold one tree, and what is worked out per
    // tree downstream (the negotiator's reference walks) is worked out once.
    auto req = classad::parse_expression_shared(full);
    if (!req) return Error{ctx_.label + ": requirements: " + req.error()};
    ad_.insert("Requirements", *req);
    return Ok{};
  }

 private:
  std::string string_attr(const char* name) const {
    const classad::Attribute* a = ad_.find(name);
    classad::Value v = a ? classad::evaluate(*a->expr, &ad_, nullptr, {}) : classad::Value();
    return v.is_string() ? std::string(v.as_string()) : std::string();
  }
  std::int64_t image_size() const {
    if (ctx_.files) {
      // Its size, not its contents: every job of a cluster asks.
      auto bytes = ctx_.files->file_size(string_attr("Cmd"));
      if (bytes) return std::max<std::int64_t>(1, (*bytes + 1023) / 1024);
    }
    return 1;
  }

  const SubmitContext& ctx_;
  classad::ClassAd& ad_;
  std::string path_;
  std::string iwd_;  // set by place_command
  std::string environment_;
  bool getenv_ = false;
  bool nice_ = false;
  bool hold_ = false;
  int limits_line_ = -1, limits_expr_line_ = -1;
  classad::ExprPtr requirements_;
  std::string requirements_text_;
  std::vector<std::string> custom_requests_;
};

}  // namespace

Result<std::vector<classad::ClassAd>> build_jobs(const SubmitDescription& description,
                                                 const SubmitContext& ctx) {
  std::vector<classad::ClassAd> jobs;
  std::int64_t total = 0, every = 1;
  // Room for a job's attributes, made once per ad: the commands and the
  // some forty attributes finish() adds for the first job, then as many as
  // the job before had (a submission's jobs are alike).
  std::size_t room = 0;
  auto planned = [&](std::int64_t n) {
    total = n;
    every = std::max<std::int64_t>(1, total / 100);  // progress about a hundred times, and at the end
    jobs.reserve(static_cast<std::size_t>(total));
  };
  auto built = walk_jobs(description, ctx, planned,
                         [&](std::int64_t proc, const std::vector<SubmitCommand>& commands,
                             config::Expander& ex) -> Result<bool> {
                           classad::ClassAd ad;
                           ad.reserve(room != 0 ? room : commands.size() + 40);
                           JobAdBuilder builder(ctx, ad);
                           for (const SubmitCommand& c : commands) {
                             auto value = ex.expand(c.value);
                             if (!value) return Error{where(ctx, c) + ": " + value.error()};
                             if (auto s = builder.apply(c, *value); !s) return Error{s.error()};
                           }
                           if (auto s = builder.finish(proc, description); !s) return Error{s.error()};
                           room = ad.size();
                           jobs.push_back(std::move(ad));
                           if (ctx.progress && ((proc + 1) % every == 0 || proc + 1 == total))
                             ctx.progress(proc + 1, total);
                           return true;
                         });
  if (!built) return Error{built.error()};
  return jobs;
}

Result<std::optional<std::string>> first_job_command(const SubmitDescription& description,
                                                     const SubmitContext& ctx) {
  std::optional<std::string> cmd;
  auto walked = walk_jobs(
      description, ctx, [](std::int64_t) {},
      [&](std::int64_t, const std::vector<SubmitCommand>& commands, config::Expander& ex) -> Result<bool> {
        // Only the commands that set Iwd or the executable: the same
        // builder, spared every other command's parse.
        classad::ClassAd ad;
        JobAdBuilder builder(ctx, ad);
        for (const SubmitCommand& c : commands) {
          const bool places =
              c.attribute() ? classad::iequals(c.attribute_name(), "Iwd")
                            : classad::iequals(c.key, "executable") || classad::iequals(c.key, "initialdir");
          if (!places) continue;
          auto value = ex.expand(c.value);
          if (!value) return Error{where(ctx, c) + ": " + value.error()};
          if (auto s = builder.apply(c, *value); !s) return Error{s.error()};
        }
        if (auto s = builder.place_command(); !s) return Error{s.error()};
        cmd = string_attr(ad, "Cmd");
        return false;
      });
  if (!walked) return Error{walked.error()};
  return cmd;
}

}  // namespace cara::schedd
