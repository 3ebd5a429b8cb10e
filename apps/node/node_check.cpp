#include "apps/node/node_check.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "actors/had.h"
#include "actors/job_runner.h"
#include "apps/node/node_plan.h"
#include "apps/web/web_settings.h"
#include "model/accounting/accountant_config.h"
#include "model/accounting/group_tree.h"
#include "model/collector/ad_store.h"
#include "model/config/config_check.h"
#include "model/defrag/defrag_policy.h"
#include "model/negotiation/negotiator_policy.h"
#include "model/node/restart_backoff.h"
#include "model/schedd/queue_policy.h"
#include "model/schedd/schedd_settings.h"
#include "model/startd/startd.h"
#include "model/startd/startd_settings.h"
#include "net/authorization.h"
#include "net/pki.h"

namespace cara::apps {
namespace {

template <class T>
Status ok_or(const Result<T>& r) {
  if (!r) return Error{r.error()};
  return Ok{};
}

// Where `knob` was set, for a message ("KNOB = value (set at f, line n)").
std::string knob_text(const config::Config& c, const std::string& knob) {
  const config::Definition* d = c.definition(knob);
  auto v = c.string(knob);
  std::string text = knob + " = " + (v ? *v : std::string("?"));
  if (d && d->origin.file != "<default>") text += " (set at " + d->origin.describe() + ")";
  return text;
}

// Each daemon's reading of the configuration, as it reads it at start and
// at a reconfiguration; the name says whose it is.
struct Reading {
  const char* daemon;
  config::ConfigReading read;
};

std::vector<Reading> readings(const NodePlan& plan) {
  std::vector<Reading> out;
  out.push_back({"MASTER", [](const config::Config& c) -> Status {
                   auto p = plan_node(c);
                   if (!p) return Error{p.error()};
                   for (const std::string& d : p->daemons)
                     if (auto b = node::RestartBackoff::from_config(c, d); !b) return Error{b.error()};
                   return ok_or(net::Authorization::from_config(c));
                 }});
  if (plan.runs("COLLECTOR"))
    out.push_back({"COLLECTOR", [](const config::Config& c) -> Status {
                     if (auto w = web::WebSettings::from_config(c); !w) return Error{w.error()};
                     return ok_or(collector::CollectorPolicy::from_config(c));
                   }});
  if (plan.runs("NEGOTIATOR"))
    out.push_back({"NEGOTIATOR", [](const config::Config& c) -> Status {
                     if (auto p = negotiation::NegotiatorPolicy::from_config(c); !p) return Error{p.error()};
                     if (auto a = accounting::AccountantConfig::from_config(c); !a) return Error{a.error()};
                     return ok_or(accounting::GroupTree::from_config(c));
                   }});
  if (plan.runs("HAD"))
    out.push_back({"HAD", [](const config::Config& c) -> Status {
                     auto p = plan_node(c);
                     if (!p) return Error{p.error()};
                     auto host = c.string("FULL_HOSTNAME");
                     auto link = std::make_shared<actors::HaLink>(
                         std::vector<std::string>{host ? *host : "", p->advertise, p->bind}, p->port);
                     return ok_or(actors::had_setup(c, link));
                   }});
  if (plan.runs("DEFRAG"))
    out.push_back(
        {"DEFRAG", [](const config::Config& c) { return ok_or(defrag::DefragPolicy::from_config(c)); }});
  if (plan.runs("SCHEDD"))
    out.push_back({"SCHEDD", [](const config::Config& c) -> Status {
                     auto settings = schedd::ScheddSettings::from_config(c);
                     if (!settings) return Error{settings.error()};
                     return ok_or(schedd::QueuePolicy::from_config(c, settings->name));
                   }});
  if (plan.runs("STARTD"))
    out.push_back({"STARTD", [](const config::Config& c) -> Status {
                     if (auto s = startd::Startd::create(c, 0); !s) return Error{s.error()};
                     return ok_or(startd::StartdSettings::from_config(c));
                   }});
  return out;
}

void add(std::vector<std::string>& problems, std::string p) {
  if (std::find(problems.begin(), problems.end(), p) == problems.end()) problems.push_back(std::move(p));
}

// The certificate, key and CA files: readable, and what they should be.
void check_tls_files(const config::Config& c, const NodePlan& plan, std::vector<std::string>& problems) {
  for (auto [knob, path] :
       {std::pair{"AUTH_SSL_SERVER_CERTFILE", &plan.certificate},
        std::pair{"AUTH_SSL_SERVER_KEYFILE", &plan.key}, std::pair{"AUTH_SSL_SERVER_CAFILE", &plan.ca}}) {
    const int fd = ::open(path->c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      add(problems, knob_text(c, knob) + ": cannot read " + *path + ": " + std::strerror(errno));
      continue;
    }
    ::close(fd);
  }
  if (problems.empty()) {
    if (auto creds = net::Credentials::load(plan.certificate, plan.key); !creds)
      add(problems, knob_text(c, "AUTH_SSL_SERVER_CERTFILE") + ": " + creds.error());
    if (auto anchor = net::TrustAnchor::load(plan.ca); !anchor)
      add(problems, knob_text(c, "AUTH_SSL_SERVER_CAFILE") + ": " + anchor.error());
  }
}

// A directory the node writes: made if missing, and writable.
void check_directory(const config::Config& c, const std::string& knob, std::vector<std::string>& problems) {
  auto dir = c.string(knob);
  if (!dir || dir->empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(*dir, ec);
  if (ec) {
    add(problems, knob_text(c, knob) + ": cannot create " + *dir + ": " + ec.message());
    return;
  }
  if (::access(dir->c_str(), W_OK | X_OK) != 0)
    add(problems, knob_text(c, knob) + ": cannot write in " + *dir + ": " + std::strerror(errno));
}

// The address and port the node is to listen on are free and this
// machine's: a test bind, released at once.
void check_port(const config::Config& c, const NodePlan& plan, std::vector<std::string>& problems) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string where = plan.bind + ":" + std::to_string(plan.port);
  const std::string chosen =
      plan.port_knob == "SHARED_PORT_PORT" ? knob_text(c, "SHARED_PORT_PORT") : plan.port_knob;
  if (int rc = ::getaddrinfo(plan.bind.c_str(), std::to_string(plan.port).c_str(), &hints, &found); rc != 0) {
    add(problems,
        knob_text(c, "NETWORK_INTERFACE") + ": cannot listen on " + where + ": " + gai_strerror(rc));
    return;
  }
  const int fd = ::socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);  // as the node will
  if (fd < 0 || ::bind(fd, found->ai_addr, found->ai_addrlen) != 0) {
    const int e = errno;
    add(problems, "cannot listen on " + where + " (the port from " + chosen + ", the address from " +
                      knob_text(c, "NETWORK_INTERFACE") + "): bind: " + std::strerror(e));
  }
  if (fd >= 0) ::close(fd);
  ::freeaddrinfo(found);
}

void check_execution_point(const config::Config& c, const NodeCheckOptions& o,
                           std::vector<std::string>& problems) {
  auto settings = startd::StartdSettings::from_config(c);
  if (settings && o.accounts)
    for (std::string& p : startd::check_run_as_accounts(settings->run_as, *o.accounts, o.daemon))
      add(problems, std::move(p));
  if (!o.at_start) return;
  check_directory(c, "EXECUTE", problems);
  auto procd = c.string("PROCD");
  const actors::ProcessRunner::Options keeper{procd ? *procd : "", ""};
  const std::string program = keeper.program();
  if (::access(program.c_str(), X_OK) != 0)
    add(problems, (keeper.procd.empty() ? "the process keeper" : knob_text(c, "PROCD")) + ": cannot run " +
                      program + ": " + std::strerror(errno));
}

}  // namespace

std::vector<std::string> check_node(const config::Config& config, const NodeCheckOptions& options) {
  std::vector<std::string> problems;
  auto plan = plan_node(config);
  // Which daemons run decides whose knobs count; with no plan, the
  // master's reading reports why.
  const NodePlan known = plan ? *plan : NodePlan{};
  for (const Reading& r : readings(known))
    for (std::string& e : config::collect_config_errors(config, r.read))
      add(problems, std::string(r.daemon) + ": " + e);
  if (!plan) return problems;
  if (plan->runs("STARTD")) check_execution_point(config, options, problems);
  if (!options.at_start) return problems;
  check_tls_files(config, *plan, problems);
  for (const char* dir : {"LOG", "SPOOL"}) check_directory(config, dir, problems);
  check_port(config, *plan, problems);
  return problems;
}

std::string describe_problems(const std::vector<std::string>& problems) {
  if (problems.size() == 1) return problems.front();
  std::string text = std::to_string(problems.size()) + " problems:";
  for (const std::string& p : problems) text += "\n  " + p;
  return text;
}

}  // namespace cara::apps
