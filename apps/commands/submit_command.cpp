#include "apps/commands/submit_command.h"

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>

#include "apps/commands/arguments.h"
#include "model/classad/unparse.h"
#include "model/config/config.h"
#include "model/config/config_host.h"
#include "model/schedd/schedd_settings.h"
#include "model/schedd/submission.h"
#include "net/local_socket.h"

namespace cara::apps {
namespace {

constexpr const char* kUsage =
    "usage: cara submit FILE [-append LINE]... [--config FILE]\n"
    "       cara submit -dry-run OUT FILE [-append LINE]... [-queue ARGS] [--config FILE] [--owner NAME]\n";

// To the schedd on this node, over its local socket (SCHEDD_SOCKET): the
// schedd learns who we are from the kernel, so no certificate is needed.
int submit_to_schedd(const config::Config& cfg, const std::string& text, const std::string& file,
                     const std::vector<std::string>& appends, const SubmitEnvironment& env, std::ostream& out,
                     std::ostream& err) {
  auto socket = cfg.string("SCHEDD_SOCKET");
  if (!socket) {
    err << "cara submit: " << socket.error() << "\n";
    return 2;
  }
  std::vector<std::string> environment;
  for (const auto& [k, v] : env.environment) environment.push_back(k + "=" + v);
  nlohmann::json request = {{"command", "submit"}, {"description", text},        {"label", file},
                            {"iwd", env.cwd},      {"environment", environment}, {"appends", appends}};
  auto reply = net::local_call(*socket, request, std::chrono::seconds(60));
  if (!reply) {
    err << "cara submit: " << reply.error() << "\n";
    return 2;
  }
  if (!reply->value("ok", false)) {
    err << "ERROR: Failed to commit job submission into the queue.\nERROR: " << reply->value("error", "")
        << "\n";
    return 1;
  }
  if (const std::string w = reply->value("warning", ""); !w.empty())
    err << "WARNING: Committed job submission into the queue with the following warning:\nWARNING: " << w
        << "\n";
  const std::int64_t count = reply->value("count", std::int64_t{0});
  out << "Submitting job(s).\n"
      << count << " job(s) submitted to cluster " << reply->value("cluster", std::int64_t{0}) << ".\n";
  return 0;
}

}  // namespace

int run_submit(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
               std::shared_ptr<config::ConfigHost> host, const SubmitEnvironment& env) {
  std::optional<std::string> dry_run_out, file, config_file, queue_args;
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
      if (!(dry_run_out = next("an output file (- for standard output)"))) return 2;
    } else if (is_flag(a, "append") || a == "-a") {
      auto v = next("a submit command");
      if (!v) return 2;
      appends.push_back(*v);
    } else if (is_flag(a, "queue")) {
      if (!(queue_args = next("queue arguments"))) return 2;
    } else if (is_flag(a, "config")) {
      if (!(config_file = next("a configuration file"))) return 2;
    } else if (is_flag(a, "owner")) {
      auto v = next("a user name");
      if (!v) return 2;
      owner = *v;
    } else if (is_flag(a, "help") || a == "-h") {
      out << kUsage;
      return 0;
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      err << "cara submit: unknown option " << a << "\n" << kUsage;
      return 2;
    } else if (!file) {
      file = a;
    } else {
      err << "cara submit: more than one submit file (" << *file << ", " << a << ")\n" << kUsage;
      return 2;
    }
  }
  if (!file) {
    err << "cara submit: expected a submit file\n" << kUsage;
    return 2;
  }
  config::LoadOptions load;
  load.config_file = config_file;
  load.who = {"SUBMIT", ""};
  auto cfg = config::load_config(load, host);
  if (!cfg) {
    // With no configuration at all, the built-in defaults serve.
    if (config_file) {
      err << "cara submit: " << cfg.error() << "\n";
      return 2;
    }
    cfg = config::config_from_text("", load.who, host);
  }
  auto text = host->read_file(*file);
  if (!text) {
    err << "cara submit: cannot read submit file " << text.error() << "\n";
    return 2;
  }
  if (!dry_run_out) {
    if (queue_args) {
      err << "cara submit: -queue works with -dry-run only; put the queue statement in " << *file << "\n";
      return 2;
    }
    return submit_to_schedd(*cfg, *text, *file, appends, env, out, err);
  }
  // The schedd's side, read as the schedd reads it (SCHEDD.* prefixes
  // apply), into a queue of its own: the same call as a real submission.
  const config::Config schedd_config = cfg->as({"SCHEDD", ""});
  auto settings = schedd::ScheddSettings::from_config(schedd_config);
  if (!settings) {
    err << "cara submit: " << settings.error() << "\n";
    return 2;
  }
  auto policy = schedd::QueuePolicy::from_config(schedd_config, settings->name);
  if (!policy) {
    err << "cara submit: " << policy.error() << "\n";
    return 2;
  }
  schedd::JobQueue queue(std::move(*policy), "<" + settings->name + ">");
  const schedd::Submission submission{*text, *file,   appends,        queue_args.value_or(""),
                                      owner, env.cwd, env.environment};
  const schedd::SubmitSite site{settings->uid_domain, &schedd_config, host.get()};
  auto submitted = schedd::submit_description(queue, submission, site, env.now);
  if (!submitted) {
    err << "ERROR: Failed to commit job submission into the queue.\nERROR: " << submitted.error() << "\n";
    return 1;
  }
  if (submitted->warning) {
    err << "WARNING: Committed job submission into the queue with the following warning:\nWARNING: "
        << *submitted->warning << "\n";
  }
  std::ofstream file_out;
  std::ostream* sink = &out;
  if (*dry_run_out != "-") {
    file_out.open(*dry_run_out);
    if (!file_out) {
      err << "cara submit: cannot write " << *dry_run_out << "\n";
      return 2;
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
    return 2;
  }
  return 0;
}

}  // namespace cara::apps
