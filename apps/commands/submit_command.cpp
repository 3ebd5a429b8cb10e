#include "apps/commands/submit_command.h"

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>

#include "apps/commands/arguments.h"
#include "apps/commands/progress_bar.h"
#include "apps/commands/schedd_link.h"
#include "apps/commands/tool_options.h"
#include "model/classad/unparse.h"
#include "model/config/config.h"
#include "model/config/config_host.h"
#include "model/schedd/schedd_settings.h"
#include "model/schedd/submission.h"
#include "os/executable_check.h"

namespace cara::apps {
namespace {

constexpr const char* kUsage =
    "usage: cara submit FILE [-append LINE]... [-queue ARGS] [--config FILE] [-name SCHEDD] [-pool CM]\n"
    "       cara submit -dry-run OUT FILE [-append LINE]... [-queue ARGS] [--config FILE] [--owner NAME]\n";

// How a refused submission is told: condor_submit's "Failed to commit"
// only when the queue's policy refused it, not its description.
void say_refusal(std::ostream& err, bool at_commit, const std::string& why) {
  if (at_commit) err << "ERROR: Failed to commit job submission into the queue.\n";
  err << "ERROR: " << why << "\n";
}

// The queue the schedd of this configuration would have, for a submission
// built or tried here (SCHEDD.* prefixes apply, as the schedd reads them).
struct LocalQueue {
  config::Config config;
  schedd::ScheddSettings settings;
  std::optional<schedd::JobQueue> queue;
};
Result<LocalQueue> local_queue(const config::Config& cfg) {
  LocalQueue q{cfg.as({"SCHEDD", ""}), {}, std::nullopt};
  auto settings = schedd::ScheddSettings::from_config(q.config);
  if (!settings) return Error{settings.error()};
  q.settings = std::move(*settings);
  auto policy = schedd::QueuePolicy::from_config(q.config, q.settings.name);
  if (!policy) return Error{policy.error()};
  q.queue.emplace(std::move(*policy), "<" + q.settings.name + ">");
  return q;
}

// condor_submit's check, made here as the submitting user: its first
// job's executable exists and may be run (the schedd would otherwise
// queue a job that can only be held). Only that job's executable is
// worked out, not its ad: building the whole ad was some 0.5 ms of a
// one-job submit's 1.4 ms of CPU here (issue 21). A description that does
// not parse or expand here is left to the schedd, which says why.
std::optional<std::string> executable_refusal(const config::Config& cfg, const schedd::Submission& submission,
                                              const config::ConfigHost& host) {
  const config::Config schedd_config = cfg.as({"SCHEDD", ""});
  const schedd::SubmitSite site{"", &schedd_config, &host};
  auto cmd = schedd::first_submission_command(1, submission, site);
  if (!cmd || !*cmd || (*cmd)->empty()) return std::nullopt;
  if (auto problem = os::executable_problem(**cmd)) return "Executable file " + **cmd + " " + *problem;
  return std::nullopt;
}

// To the schedd on this node, over its local socket (SCHEDD_SOCKET): the
// schedd learns who we are from the kernel, so no certificate is needed.
int submit_to_schedd(const config::Config& cfg, const schedd::Submission& submission,
                     const config::ConfigHost& host, const ScheddLink& link, std::ostream& out,
                     std::ostream& err, ProgressBar* bar) {
  if (auto refusal = executable_refusal(cfg, submission, host)) {
    say_refusal(err, false, *refusal);
    return kExitUserError;
  }
  std::vector<std::string> environment;
  for (const auto& [k, v] : submission.environment) environment.push_back(k + "=" + v);
  const nlohmann::json request = {{"command", "submit"},        {"description", submission.description},
                                  {"label", submission.label},  {"iwd", submission.iwd},
                                  {"environment", environment}, {"appends", submission.appends},
                                  {"queue", submission.queue},  {"progress", bar != nullptr}};
  auto reply = link(request);
  if (bar) bar->finish();
  if (!reply) {
    err << "cara submit: " << reply.error() << "\n";
    return kExitUnreachable;
  }
  if (!reply->value("ok", false)) {
    say_refusal(err, reply->value("at_commit", false), reply->value("error", ""));
    return kExitUserError;
  }
  if (const std::string w = reply->value("warning", ""); !w.empty())
    err << "WARNING: Committed job submission into the queue with the following warning:\nWARNING: " << w
        << "\n";
  const std::int64_t count = reply->value("count", std::int64_t{0});
  out << "Submitting job(s).\n"
      << count << " job(s) submitted to cluster " << reply->value("cluster", std::int64_t{0}) << ".\n";
  return kExitOk;
}

}  // namespace

int run_submit(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
               std::shared_ptr<config::ConfigHost> host, const SubmitEnvironment& env,
               const RemoteSchedds* remote) {
  std::optional<std::string> dry_run_out, file, config_file, queue_args;
  ScheddTarget target;  // -name SCHEDD, -pool CM: a schedd of the pool, over TLS
  std::vector<std::string> appends;
  std::string owner = env.user;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto next = [&](const char* what) -> std::optional<std::string> {
      if (i + 1 >= args.size()) {
        err << "cara submit: " << a << " expects " << what << "\n" << kUsage;
        return std::nullopt;
      }
      return args[++i];
    };
    if (is_flag(a, "dry-run")) {
      if (!(dry_run_out = next("an output file (- for standard output)"))) return kExitUserError;
    } else if (is_flag(a, "append") || a == "-a") {
      auto v = next("a submit command");
      if (!v) return kExitUserError;
      appends.push_back(*v);
    } else if (is_flag(a, "queue")) {
      if (!(queue_args = next("queue arguments"))) return kExitUserError;
    } else if (is_flag(a, "name") || is_flag(a, "pool")) {
      auto v = next(is_flag(a, "name") ? "a schedd's name" : "a central manager, HOST[:PORT]");
      if (!v) return kExitUserError;
      (is_flag(a, "name") ? target.name : target.pool) = *v;
    } else if (is_flag(a, "config")) {
      if (!(config_file = next("a configuration file"))) return kExitUserError;
    } else if (is_flag(a, "owner")) {
      auto v = next("a user name");
      if (!v) return kExitUserError;
      owner = *v;
    } else if (is_flag(a, "help") || a == "-h") {
      out << kUsage;
      return 0;
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      err << "cara submit: unknown option " << a << "\n" << kUsage;
      return kExitUserError;
    } else if (!file) {
      file = a;
    } else {
      err << "cara submit: more than one submit file (" << *file << ", " << a << ")\n" << kUsage;
      return kExitUserError;
    }
  }
  if (!file) {
    err << "cara submit: expected a submit file\n" << kUsage;
    return kExitUserError;
  }
  config::LoadOptions load;
  load.config_file = config_file;
  load.who = {"SUBMIT", ""};
  auto cfg = config::load_config(load, host);
  if (!cfg) {
    // With no configuration at all, the built-in defaults serve.
    if (config_file) {
      err << "cara submit: " << cfg.error() << "\n";
      return kExitUserError;
    }
    cfg = config::config_from_text("", load.who, host);
  }
  auto text = host->read_file(*file);
  if (!text) {
    err << "cara submit: cannot read submit file " << text.error() << "\n";
    return kExitUserError;
  }
  const schedd::Submission submission{*text, *file,   appends,        queue_args.value_or(""),
                                      owner, env.cwd, env.environment};
  if (!dry_run_out) {
    int rc = kExitOk;
    // A progress bar on a terminal, from the local schedd's notes (a
    // remote schedd, -name, sends none).
    ProgressBar bar(out);
    const bool progress = env.terminal && !target.remote();
    net::ProgressNote note;
    if (progress)
      note = [&bar](const nlohmann::json& n) {
        bar.update(n.value("built", std::int64_t{0}), n.value("total", std::int64_t{0}));
      };
    auto link = target.remote()
                    ? schedd_link(*cfg, target, remote, "cara submit", err, rc)
                    : std::optional<ScheddLink>(local_schedd(*cfg, std::chrono::seconds(60), note));
    if (!link) return rc;
    return submit_to_schedd(*cfg, submission, *host, *link, out, err, progress ? &bar : nullptr);
  }
  // The schedd's side, into a queue of its own: the same call as a real
  // submission.
  auto local = local_queue(*cfg);
  if (!local) {
    err << "cara submit: " << local.error() << "\n";
    return kExitUserError;
  }
  schedd::JobQueue& queue = *local->queue;
  const schedd::SubmitSite site{local->settings.uid_domain, &local->config, host.get()};
  auto submitted = schedd::submit_description(queue, submission, site, env.now);
  if (!submitted) {
    say_refusal(err, submitted.at_commit, submitted.error);
    return kExitUserError;
  }
  if (submitted.submitted->warning) {
    err << "WARNING: Committed job submission into the queue with the following warning:\nWARNING: "
        << *submitted.submitted->warning << "\n";
  }
  std::ofstream file_out;
  std::ostream* sink = &out;
  if (*dry_run_out != "-") {
    file_out.open(*dry_run_out);
    if (!file_out) {
      err << "cara submit: cannot write " << *dry_run_out << "\n";
      return kExitUserError;
    }
    sink = &file_out;
  }
  bool first = true;
  for (const auto& [id, job] : queue.jobs()) {
    if (!first) *sink << "\n";
    first = false;
    *sink << classad::unparse_long_form(job);
  }
  sink->flush();
  if (!*sink) {
    err << "cara submit: writing " << *dry_run_out << " failed\n";
    return kExitUserError;
  }
  return 0;
}

}  // namespace cara::apps
