#include "apps/commands/demo_command.h"

#include <sys/stat.h>
#include <unistd.h>

#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/scoped_actor.hpp>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iomanip>
#include <map>
#include <thread>

#include "actors/message_types.h"
#include "actors/pool.h"
#include "actors/system_accounts.h"
#include "apps/commands/arguments.h"
#include "apps/commands/tool_options.h"
#include "apps/demo/demo_pool.h"
#include "model/classad/eval.h"
#include "model/schedd/job_status.h"
#include "os/system_host.h"

namespace cara::apps {
namespace {

constexpr const char* kUsage =
    "usage: cara demo [--eps N] [--scale F] [--job-seconds S] [--timeout S] [--keep]\n"
    "  --eps N          execution points, each a 24+1 core thesis worker node (default 4)\n"
    "  --scale F        fraction of the thesis's 10,000 jobs to submit (default 0.1)\n"
    "  --job-seconds S  how long each job sleeps (the thesis's 500-700 s, scaled; default 0.5)\n"
    "  --timeout S      give up after S seconds (default 110)\n"
    "  --keep           keep the job output directory\n";

struct Options {
  int eps = 4;
  double scale = 0.1, job_seconds = 0.5, timeout = 110;
  bool keep = false;
};

Result<Options> parse(const std::vector<std::string>& args) {
  Options o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto number = [&](double lo, double hi) -> Result<double> {
      if (i + 1 >= args.size()) return Error{a + " expects a number"};
      const std::string& v = args[++i];
      char* end = nullptr;
      const double d = std::strtod(v.c_str(), &end);
      if (v.empty() || *end != '\0' || !(d >= lo && d <= hi))
        return Error{a + " expects a number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                     ", got '" + v + "'"};
      return d;
    };
    Result<double> v = 0.0;
    if (is_flag(a, "eps")) {
      if (!(v = number(1, 64))) return Error{v.error()};
      o.eps = static_cast<int>(*v);
    } else if (is_flag(a, "scale")) {
      if (!(v = number(0.0001, 1))) return Error{v.error()};
      o.scale = *v;
    } else if (is_flag(a, "job-seconds")) {
      if (!(v = number(0, 3600))) return Error{v.error()};
      o.job_seconds = *v;
    } else if (is_flag(a, "timeout")) {
      if (!(v = number(1, 86400))) return Error{v.error()};
      o.timeout = *v;
    } else if (is_flag(a, "keep")) {
      o.keep = true;
    } else {
      return Error{"unknown argument '" + a + "'"};
    }
  }
  return o;
}

Result<std::shared_ptr<const config::Config>> load(const std::string& text, const char* daemon,
                                                   const std::shared_ptr<config::ConfigHost>& host) {
  auto c = config::config_from_text(text, {daemon, ""}, host);
  if (!c) return Error{std::string(daemon) + " configuration: " + c.error()};
  return std::shared_ptr<const config::Config>(std::make_shared<config::Config>(std::move(*c)));
}

struct Row {
  int idle = 0, running = 0, held = 0, submitted = 0;
};

}  // namespace

int run_demo(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (wants_help(args)) return (out << kUsage, 0);
  auto options = parse(args);
  if (!options) {
    err << "cara demo: " << options.error() << "\n" << kUsage;
    return kExitUserError;
  }
  const Options& o = *options;
  auto host = std::make_shared<os::SystemHost>();
  actors::PoolSpec spec;
  spec.files = host;
  auto cm = load(demo_central_manager_config(), "NEGOTIATOR", host);
  auto ap = load(demo_access_point_config(), "SCHEDD", host);
  if (!cm || !ap) {
    err << "cara demo: " << (!cm ? cm.error() : ap.error()) << "\n";
    return 1;
  }
  spec.nodes = {*cm, *ap};
  for (int i = 1; i <= o.eps; ++i) {
    auto ep = load(demo_execution_point_config(i), "STARTD", host);
    if (!ep) {
      err << "cara demo: " << ep.error() << "\n";
      return 1;
    }
    spec.nodes.push_back(*ep);
  }
  char dir_template[] = "/tmp/cara-demo-XXXXXX";
  if (!mkdtemp(dir_template)) {
    err << "cara demo: cannot create a directory for job output in /tmp\n";
    return 1;
  }
  const std::string dir = dir_template;
  // Like a personal pool: every job runs as the user running the demo, or
  // as nobody when that is root (no job runs as root), in a directory of
  // that user's.
  auto account = actors::personal_account();
  if (!account) {
    err << "cara demo: running as root and this machine has no user nobody to run the jobs as\n";
    return 1;
  }
  if (::chown(dir.c_str(), account->uid, account->gid) != 0 || ::chmod(dir.c_str(), 0755) != 0) {
    err << "cara demo: cannot give " << dir << " to " << account->name << ": " << std::strerror(errno)
        << "\n";
    return 1;
  }
  spec.accounts = std::make_shared<actors::OneAccount>(*account);
  spec.runner = std::make_shared<actors::ProcessRunner>(actors::ProcessRunner::Options{"", dir + "/execute"});

  caf::actor_system_config cfg;
  actors::configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  auto pool = actors::spawn_pool(sys, spec);
  if (!pool) {
    err << "cara demo: " << pool.error() << "\n";
    return 1;
  }
  caf::scoped_actor self{sys};
  const auto started = std::chrono::steady_clock::now();

  // Figure 22's submissions.
  std::map<std::pair<std::string, std::string>, Row> rows;  // (group, user)
  int total = 0;
  char sleep_text[32];
  std::snprintf(sleep_text, sizeof sleep_text, "%g", o.job_seconds);
  for (const DemoSubmission& s : demo_workload(o.scale)) {
    actors::SubmitRequest r;
    r.description = "executable = /bin/sh\narguments = \"-c 'sleep " + std::string(sleep_text) +
                    "; echo job $(Cluster).$(Process) of " + s.user +
                    "'\"\noutput = job_$(Cluster).$(Process).out\n" +
                    "error = job_$(Cluster).$(Process).err\nlog = demo.log\naccounting_group = " + s.group +
                    "\n" + (s.extra.empty() ? "" : s.extra + "\n") + "queue " + std::to_string(s.jobs) + "\n";
    r.label = "demo submission for " + s.user;
    r.owner = s.user;
    r.iwd = dir;
    bool ok = false;
    std::string why;
    self->request(pool->schedd, std::chrono::seconds(30), r)
        .receive([&](actors::SubmitReply& reply) { ok = reply.ok, why = reply.error; },
                 [&](caf::error& e) { why = caf::to_string(e); });
    if (!ok) {
      err << "cara demo: submitting for " << s.user << " failed: " << why << "\n";
      actors::stop_pool(sys, *pool);
      return 1;
    }
    rows[{s.group, s.user}].submitted += s.jobs;
    total += s.jobs;
  }
  out << "cara demo: " << o.eps << " execution points x 24+1 cores, " << total << " jobs of " << sleep_text
      << " s, output in " << dir << "\n";

  const bool tty = isatty(STDOUT_FILENO) != 0;
  std::map<std::string, double> share_sum;  // top-level group -> sum of running fractions
  int share_samples = 0, done = 0;
  bool finished = false;
  auto last_print = started - std::chrono::seconds(10);
  while (true) {
    const auto now = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(now - started).count();
    std::map<std::pair<std::string, std::string>, Row> live;
    bool answered = false;
    self->request(pool->schedd, std::chrono::seconds(10),
                  actors::QueueQuery{"", {"AcctGroup", "Owner", "JobStatus"}, false, ""})
        .receive(
            [&](actors::QueueReply& q) {
              answered = true;
              for (const actors::WireAd& j : q.jobs) {
                Row& r = live[{schedd::string_attr(j.ad, "AcctGroup"), schedd::string_attr(j.ad, "Owner")}];
                classad::Value st = classad::evaluate_attr(j.ad, "JobStatus");
                const std::int64_t s = st.is_int() ? st.as_int() : 1;
                if (s == 1)
                  ++r.idle;
                else if (s == 2 || s == 7)
                  ++r.running;
                else if (s == 5)
                  ++r.held;
              }
            },
            [&](caf::error&) {});
    if (!answered) break;
    int in_queue = 0, running = 0;
    bool all_idle_groups = true;
    std::map<std::string, int> running_by_group, idle_by_group;
    for (auto& [key, r] : rows) {
      const Row& l = live[key];
      r.idle = l.idle;
      r.running = l.running;
      r.held = l.held;
      in_queue += l.idle + l.running + l.held;
      running += l.running;
      running_by_group[demo_quota_group(key.first)] += l.running;
      idle_by_group[demo_quota_group(key.first)] += l.idle;
    }
    done = total - in_queue;
    // Shares are compared with quotas while every group still has work
    // waiting (afterwards the others take its surplus).
    for (const char* g : {"group_cms", "group_auger", "group_icecube"})
      if (idle_by_group[g] == 0) all_idle_groups = false;
    if (all_idle_groups && running > 0) {
      for (const char* g : {"group_cms", "group_auger", "group_icecube"})
        share_sum[g] += static_cast<double>(running_by_group[g]) / running;
      ++share_samples;
    }
    finished = in_queue == 0;
    if (finished || now - last_print >= std::chrono::seconds(tty ? 1 : 5)) {
      last_print = now;
      std::ostringstream t;
      if (tty) t << "\x1b[H\x1b[2J";
      t << std::fixed << std::setprecision(1) << "t = " << elapsed << " s   done " << done << " / " << total
        << "   running " << running << "\n";
      t << std::left << std::setw(18) << "group" << std::setw(10) << "user" << std::right << std::setw(9)
        << "running" << std::setw(7) << "idle" << std::setw(7) << "done"
        << "\n";
      for (const auto& [key, r] : rows)
        t << std::left << std::setw(18) << key.first << std::setw(10) << key.second << std::right
          << std::setw(9) << r.running << std::setw(7) << r.idle << std::setw(7)
          << (r.submitted - r.idle - r.running - r.held) << "\n";
      out << t.str() << std::flush;
    }
    if (finished || elapsed > o.timeout) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  actors::stop_pool(sys, *pool);
  out << "\nsummary: " << done << " of " << total << " jobs done in " << std::fixed << std::setprecision(1)
      << wall << " s\n";
  out << "share of running jobs while every group had jobs waiting, against its quota (thesis figure 20):\n";
  for (const char* g : {"group_cms", "group_auger", "group_icecube"}) {
    const double share = share_samples > 0 ? share_sum[g] / share_samples : 0;
    out << "  " << std::left << std::setw(14) << g << std::right << std::setw(6) << std::setprecision(1)
        << share * 100 << " %   quota " << std::setw(5) << demo_quota(g) * 100 << " %\n";
  }
  if (!o.keep) std::filesystem::remove_all(dir);
  if (!finished) {
    err << "cara demo: not every job finished within " << o.timeout << " s\n";
    return 1;
  }
  return 0;
}

}  // namespace cara::apps
