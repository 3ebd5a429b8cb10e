#include "apps/node/node.h"

#include <atomic>
#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/openssl/manager.hpp>
#include <caf/openssl/publish.hpp>
#include <caf/scoped_actor.hpp>
#include <caf/send.hpp>
#include <csignal>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "actors/collector.h"
#include "actors/daemon_directory.h"
#include "actors/master.h"
#include "actors/negotiator.h"
#include "actors/schedd.h"
#include "actors/startd.h"
#include "actors/system_accounts.h"
#include "apps/node/collector_watch.h"
#include "apps/node/node_check.h"
#include "apps/node/node_plan.h"
#include "apps/node/tls_system.h"
#include "apps/node/view_host_link.h"
#include "model/classad/unparse.h"
#include "net/gate.h"
#include "net/local_socket.h"
#include "net/tls_failures.h"
#include "os/system_host.h"

namespace cara::apps {
namespace {

using namespace std::chrono_literals;
using actors::collector_actor;

std::shared_ptr<os::DaemonLog> open_log(const NodePlan& plan, const std::string& daemon) {
  return std::make_shared<os::DaemonLog>(daemon, plan.log_dir + "/" + os::log_file_name(daemon), true);
}

std::chrono::milliseconds seconds_ms(double s) {
  return std::chrono::milliseconds{static_cast<std::int64_t>(s * 1000)};
}

caf::timespan seconds(double s) {
  return caf::timespan{static_cast<std::int64_t>(s * 1e9)};
}

// Joins each central manager, retrying until it answers (it may start
// after us) or the node is asked to stop (then nothing is returned). A
// central manager that refuses our certificate, or whose certificate we
// refuse, is no passing trouble: that is an error at once. The central
// manager's gate watches `session` (our gate) to know when we are gone.
Result<std::vector<std::pair<CentralManager, collector_actor>>> join_collectors(
    caf::actor_system& sys, const NodePlan& plan, const net::Credentials& creds,
    const net::TrustAnchor& anchor, net::Guard& guard, os::DaemonLog& log, const sigset_t& stop_signals,
    const caf::actor& session) {
  std::vector<std::pair<CentralManager, collector_actor>> out;
  for (const HostPort& cm : plan.collectors) {
    for (double wait = 0.5;; wait = std::min(wait * 2, 10.0)) {
      auto joined = net::join(sys, cm.host, cm.port, creds, anchor, &guard, 10s, session);
      if (joined) {
        if (const auto collector = actors::daemon_in<collector_actor>(joined->daemons)) {
          log.info("joined the central manager " + cm.host + ":" + std::to_string(cm.port) + " (" +
                   joined->peer.text() + ")");
          out.push_back({CentralManager{cm, joined->gate}, collector});
          break;
        }
        log.warning(cm.host + ":" + std::to_string(cm.port) + " runs no collector; retrying");
      } else if (net::tls_connect_failure(cm.host, cm.port)) {
        log.warning(joined.error());
        return Error{"COLLECTOR_HOST " + cm.host + ":" + std::to_string(cm.port) + ": " + joined.error()};
      } else {
        log.warning(joined.error() + "; retrying in " + std::to_string(wait) + " s");
      }
      timespec ts{static_cast<time_t>(wait), static_cast<long>((wait - static_cast<time_t>(wait)) * 1e9)};
      if (sigtimedwait(&stop_signals, nullptr, &ts) > 0)
        return std::vector<std::pair<CentralManager, collector_actor>>{};
    }
  }
  return out;
}

// How long the actor system may take to end after its daemons stopped.
constexpr std::chrono::seconds kTeardownLimit{10};

const char* signal_name(int sig) {
  switch (sig) {
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGQUIT: return "SIGQUIT";
    default: return "signal";
  }
}

// Waits for the node to be asked to stop, then has the master stop it
// (condor_master's rules): SIGTERM or SIGINT gracefully — jobs retire and
// vacate — within SHUTDOWN_GRACEFUL_TIMEOUT, SIGQUIT fast — jobs are
// killed — within SHUTDOWN_FAST_TIMEOUT. A second SIGTERM turns a graceful
// stop fast; a signal during a fast stop, or the two timeouts and a minute
// more passing, ends the process at once (its process keeper then kills
// the jobs). Returns the first signal.
int await_stop(const sigset_t& signals, const actors::master_actor& master, caf::actor_system& sys,
               const NodePlan& plan, os::DaemonLog& log, const std::atomic<bool>& stopped) {
  int first = 0;
  sigwait(&signals, &first);
  bool fast = first == SIGQUIT;
  log.info(std::string("stopping ") + (fast ? "fast" : "gracefully") + " (" + signal_name(first) + ")");
  caf::scoped_actor self{sys};
  self->send(master, actors::NodeStop{fast});
  const auto limit = std::chrono::steady_clock::now() +
                     std::chrono::seconds(plan.shutdown_graceful + plan.shutdown_fast + 60);
  while (!stopped.load()) {
    const timespec tick{0, 100'000'000};
    const int sig = sigtimedwait(&signals, nullptr, &tick);
    if (sig > 0) {
      if (fast) {
        log.warning(std::string("stopping at once (") + signal_name(sig) + " during a fast stop)");
        std::_Exit(1);
      }
      fast = true;
      log.info(std::string("stopping fast now (") + signal_name(sig) + ")");
      self->send(master, actors::NodeStop{true});
    }
    if (std::chrono::steady_clock::now() > limit) {
      log.warning(
          "the daemons did not stop within SHUTDOWN_GRACEFUL_TIMEOUT + SHUTDOWN_FAST_TIMEOUT: exiting now");
      std::_Exit(1);
    }
  }
  return first;
}

nlohmann::json handle_local(caf::actor_system& sys, const actors::schedd_actor& schedd,
                            const net::Guard& guard, const std::string& domain, const std::string& host,
                            const nlohmann::json& request, const net::LocalPeer& peer) {
  const std::string command = request.value("command", "");
  const net::Identity who{peer.user + "@" + domain, host};
  caf::scoped_actor self{sys};
  if (command == "submit") {
    if (auto no = guard.refuse(net::Permission::Write, who, "schedd (local)"))
      return {{"ok", false}, {"error", *no}};
    // Never root's jobs, whatever its account is called (HTCondor's
    // condor_submit refuses uid 0 too).
    if (peer.uid == 0)
      return {{"ok", false},
              {"error", "submitting jobs as root (uid 0) is not allowed, for security reasons"}};
    actors::SubmitRequest r;
    r.description = request.value("description", "");
    r.label = request.value("label", "");
    r.owner = peer.user;  // the kernel's word, not the request's
    r.iwd = request.value("iwd", "");
    r.environment = request.value("environment", std::vector<std::string>{});
    r.appends = request.value("appends", std::vector<std::string>{});
    nlohmann::json reply = {{"ok", false}, {"error", "the schedd did not answer"}};
    self->request(schedd, 30s, std::move(r))
        .receive(
            [&](actors::SubmitReply& s) {
              reply = {{"ok", s.ok},
                       {"error", s.error},
                       {"cluster", s.cluster},
                       {"count", s.count},
                       {"warning", s.warning}};
            },
            [&](caf::error& e) { reply["error"] = "the schedd did not answer: " + sys.render(e); });
    return reply;
  }
  if (command == "q") {
    if (auto no = guard.refuse(net::Permission::Read, who, "schedd (local)"))
      return {{"ok", false}, {"error", *no}};
    actors::QueueQuery q;
    q.constraint = request.value("constraint", "");
    q.projection = request.value("projection", std::vector<std::string>{});
    nlohmann::json reply = {{"ok", false}, {"error", "the schedd did not answer"}};
    self->request(schedd, 30s, std::move(q))
        .receive(
            [&](actors::QueueReply& r) {
              std::vector<std::string> jobs;
              for (const actors::WireAd& j : r.jobs) jobs.push_back(classad::unparse(j.ad));
              reply = {{"ok", r.ok}, {"error", r.error}, {"jobs", jobs}};
            },
            [&](caf::error& e) { reply["error"] = "the schedd did not answer: " + sys.render(e); });
    return reply;
  }
  return {{"ok", false}, {"error", "unknown command '" + command + "'; expected submit or q"}};
}

// condor_reconfig on this node: the configuration read again, checked,
// and the node's own part (authorization) applied. What cannot change
// without a restart is noted.
Result<actors::Reloaded> reload(const std::function<Result<config::Config>()>& reread,
                                const NodePlan& running, net::Guard& guard) {
  auto c = reread();
  if (!c) return Error{c.error()};
  auto config = std::make_shared<const config::Config>(std::move(*c));
  // All or nothing: every daemon's reading is checked before any applies.
  actors::SystemAccounts accounts;
  const auto problems = check_node(*config, NodeCheckOptions{false, &accounts, actors::current_account()});
  if (!problems.empty()) return Error{describe_problems(problems)};
  auto plan = plan_node(*config);
  if (!plan) return Error{plan.error()};
  auto authz = net::Authorization::from_config(*config);
  if (!authz) return Error{authz.error()};
  actors::Reloaded r{config, {}};
  if (plan->daemons != running.daemons)
    r.notes.push_back("DAEMON_LIST changed: restart the node to apply it");
  if (plan->port != running.port || plan->bind != running.bind || plan->advertise != running.advertise)
    r.notes.push_back("the node's address changed: restart the node to apply it");
  if (plan->certificate != running.certificate || plan->key != running.key || plan->ca != running.ca)
    r.notes.push_back("the node's certificate files changed: restart the node to apply them");
  guard.set_authorization(std::move(*authz));
  return r;
}

}  // namespace

int run_node(std::shared_ptr<const config::Config> config, std::function<Result<config::Config>()> reread,
             std::ostream& err) {
  // Everything is checked before the node listens or joins anyone, and
  // every problem is told at once.
  {
    actors::SystemAccounts accounts;
    const auto problems = check_node(*config, NodeCheckOptions{true, &accounts, actors::current_account()});
    if (!problems.empty()) {
      err << "cara master: the configuration cannot run: " << describe_problems(problems) << "\n";
      return 2;
    }
  }
  auto plan = plan_node(*config);
  if (!plan) {
    err << "cara master: " << plan.error() << "\n";
    return 2;
  }
  auto creds = net::Credentials::load(plan->certificate, plan->key);
  auto anchor = net::TrustAnchor::load(plan->ca);
  auto authz = net::Authorization::from_config(*config);
  if (!creds || !anchor || !authz) {
    err << "cara master: " << (!creds ? creds.error() : !anchor ? anchor.error() : authz.error()) << "\n";
    return 2;
  }
  // SIGTERM/SIGINT are taken by sigwait below; every thread inherits the mask.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGQUIT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  auto master_log = open_log(*plan, "MASTER");
  // A peer this node's TLS layer refuses is logged here (CAF would drop it
  // silently), once per peer and minute.
  net::set_tls_refusal_log([log = master_log](const std::string& m) { log->warning(m); });
  struct ForgetRefusalLog {
    ~ForgetRefusalLog() { net::set_tls_refusal_log(nullptr); }
  } forget_refusal_log;
  auto guard = std::make_shared<net::Guard>(std::move(*authz), master_log);

  caf::actor_system_config cfg;
  if (auto tls = configure_tls_system(cfg, TlsFiles{plan->certificate, plan->key, plan->ca}); !tls) {
    err << "cara master: " << tls.error() << "\n";
    return 2;
  }
  // Remote failures are detected, never waited out (STACK-NOTES.md).
  cfg.set("middleman.heartbeat-interval", seconds(plan->heartbeat_interval));
  cfg.set("middleman.connection-timeout", seconds(plan->connection_timeout));
  caf::actor_system sys{cfg};

  auto gate = net::spawn_gate(sys, net::GateSetup{*creds, *anchor, guard, master_log});
  auto published = caf::openssl::publish(gate, plan->port, plan->bind.c_str(), true);
  if (!published) {
    err << "cara master: cannot listen on " << plan->bind << ":" << plan->port << " ("
        << sys.render(published.error()) << ")\n";
    caf::anon_send_exit(gate, caf::exit_reason::user_shutdown);
    return 2;
  }
  const std::string address = "<" + plan->advertise + ":" + std::to_string(plan->port) + ">";
  master_log->info("listening on " + plan->bind + ":" + std::to_string(plan->port) + " as " + address);

  const actors::PoolClock clock = actors::PoolClock::wall();
  actors::MasterSetup master;
  master.gate = gate;
  master.clock = clock;
  auto node_config = std::make_shared<actors::NodeConfig>(config);
  master.context = actors::DaemonContext{guard, master_log, node_config};
  master.node_config = node_config;
  master.reload = [reread, running = *plan, guard] { return reload(reread, running, *guard); };
  master.name = config->string("FULL_HOSTNAME").ok() ? *config->string("FULL_HOSTNAME") : plan->advertise;
  master.shutdown_graceful = plan->shutdown_graceful;
  master.shutdown_fast = plan->shutdown_fast;
  // condor_off takes the path of the signals: SIGTERM graceful, SIGQUIT fast.
  master.request_stop = [](bool fast) { ::kill(::getpid(), fast ? SIGQUIT : SIGTERM); };
  auto stopped = std::make_shared<std::atomic<bool>>(false);
  master.stopped = [stopped] { stopped->store(true); };
  master.address = address;
  if (plan->master_update_interval > 0) master.update_interval = plan->master_update_interval;

  // The collector comes first: every other daemon reports to it. A daemon
  // (re)spawned later reads the current collectors; the running ones are
  // told when they change (a restarted local collector: by the master; the
  // central manager's: by the collector watch below).
  auto collectors = std::make_shared<CollectorList>();
  master.collectors = [collectors] { return collectors->get(); };
  std::vector<CentralManager> centrals;
  std::shared_ptr<CollectorWatch> watch;
  std::shared_ptr<ViewHostLink> view_link;
  std::shared_ptr<CollectorWatch> view_watch;
  // The watches' threads use the actor system and the credentials: they
  // stop before those go, whichever way this function returns.
  struct StopWatches {
    std::shared_ptr<CollectorWatch>&central, &views;
    ~StopWatches() {
      if (central) central->stop();
      if (views) views->stop();
    }
  } stop_watches{watch, view_watch};
  auto restart_backoff = [&](const char* name) {
    auto b = node::RestartBackoff::from_config(*config, name);  // checked above
    return b ? *b : node::RestartBackoff{};
  };
  if (plan->runs("COLLECTOR")) {
    auto policy = collector::CollectorPolicy::from_config(*config);
    if (!policy) {
      err << "cara master: COLLECTOR: " << policy.error() << "\n";
      return 2;
    }
    actors::CollectorSetup setup;
    setup.policy = *policy;
    setup.clock = clock;
    setup.context = actors::DaemonContext{guard, open_log(*plan, "COLLECTOR"), node_config};
    // CONDOR_VIEW_HOST: reached (again) in the background, told to each
    // collector.
    view_link = std::make_shared<ViewHostLink>();
    std::vector<CentralManager> views;
    for (const HostPort& v : plan->view_hosts) views.push_back(CentralManager{v, {}});
    view_watch = std::make_shared<CollectorWatch>(
        sys, "view collector", views, std::vector<collector_actor>{}, *creds, *anchor, *guard,
        setup.context.log, caf::actor_cast<caf::actor>(gate),
        [link = view_link](const std::vector<collector_actor>& reached) { link->update(reached); },
        seconds_ms(plan->collector_check_interval));
    master.daemons.push_back(
        {"COLLECTOR",
         [setup, collectors, view_link, node_config](caf::actor_system& s) mutable -> Result<caf::actor> {
           // A restart reads the configuration as it is now.
           auto policy = collector::CollectorPolicy::from_config(*node_config->get());
           if (!policy) return Error{policy.error()};
           setup.policy = std::move(*policy);
           auto c = actors::spawn_collector(s, setup);
           collectors->set({c});
           view_link->attach(c);
           return caf::actor_cast<caf::actor>(c);
         },
         restart_backoff("COLLECTOR")});
  } else {
    std::vector<collector_actor> joined;
    auto reached = join_collectors(sys, *plan, *creds, *anchor, *guard, *master_log, stop_signals,
                                   caf::actor_cast<caf::actor>(gate));
    if (!reached) {
      err << "cara master: " << reached.error() << "\n";
      caf::anon_send_exit(gate, caf::exit_reason::user_shutdown);
      return 2;
    }
    for (auto& [central, collector] : *reached) {
      centrals.push_back(central);
      joined.push_back(collector);
    }
    collectors->set(joined);
    if (joined.empty()) {
      master_log->info("stopped before joining the central manager");
      caf::anon_send_exit(gate, caf::exit_reason::user_shutdown);
      return 0;
    }
  }
  auto middleman = caf::actor_cast<caf::actor>(sys.openssl_manager().actor_handle());
  if (plan->runs("NEGOTIATOR")) {
    auto log = open_log(*plan, "NEGOTIATOR");
    master.daemons.push_back({"NEGOTIATOR",
                              [=](caf::actor_system& s) -> Result<caf::actor> {
                                actors::NegotiatorSetup n;
                                n.config = node_config->get();
                                n.clock = clock;
                                n.collectors = collectors->get();
                                n.context = actors::DaemonContext{guard, log, node_config};
                                auto a = actors::spawn_negotiator(s, n);
                                if (!a) return Error{a.error()};
                                return caf::actor_cast<caf::actor>(*a);
                              },
                              restart_backoff("NEGOTIATOR")});
  }
  if (plan->runs("SCHEDD")) {
    auto log = open_log(*plan, "SCHEDD");
    master.daemons.push_back({"SCHEDD",
                              [=](caf::actor_system& s) -> Result<caf::actor> {
                                actors::ScheddSetup sd;
                                sd.config = node_config->get();
                                sd.clock = clock;
                                sd.collectors = collectors->get();
                                sd.files = std::make_shared<os::SystemHost>();
                                sd.context = actors::DaemonContext{guard, log, node_config};
                                sd.middleman = middleman;
                                auto a = actors::spawn_schedd(s, sd);
                                if (!a) return Error{a.error()};
                                return caf::actor_cast<caf::actor>(*a);
                              },
                              restart_backoff("SCHEDD")});
  }
  if (plan->runs("STARTD")) {
    auto log = open_log(*plan, "STARTD");
    actors::ProcessRunner::Options keeper;
    keeper.procd = config->string("PROCD").ok() ? *config->string("PROCD") : "";
    keeper.execute_dir = config->string("EXECUTE").ok() ? *config->string("EXECUTE") : "";
    auto runner = std::make_shared<actors::ProcessRunner>(keeper);
    if (auto s = runner->prepare(); !s) {
      err << "cara master: STARTD: " << s.error() << "\n";
      return 2;
    }
    master.daemons.push_back({"STARTD",
                              [=](caf::actor_system& s) -> Result<caf::actor> {
                                actors::StartdSetup st;
                                st.config = node_config->get();
                                st.clock = clock;
                                st.collectors = collectors->get();
                                st.runner = runner;
                                st.context = actors::DaemonContext{guard, log, node_config};
                                st.address = address;
                                auto a = actors::spawn_startd(s, st);
                                if (!a) return Error{a.error()};
                                return caf::actor_cast<caf::actor>(*a);
                              },
                              restart_backoff("STARTD")});
  }
  auto master_actor = actors::spawn_master(sys, master);
  if (!master_actor) {
    err << "cara master: " << master_actor.error() << "\n";
    caf::anon_send_exit(gate, caf::exit_reason::user_shutdown);
    return 2;
  }
  if (!centrals.empty()) {
    auto node_master = *master_actor;
    auto running = [&sys, node_master] {
      std::vector<caf::actor> out;
      caf::scoped_actor self{sys};
      self->request(node_master, 5s, actors::MasterStatusQuery{})
          .receive([&](actors::MasterStatus& s) { out = s.daemons; }, [](caf::error&) {});
      return out;
    };
    // The central managers' collectors, when one is another actor: the
    // daemons spawned later get it, the running ones are told.
    auto changed = [&sys, collectors, running, master_log,
                    node_master](const std::vector<collector_actor>& now) {
      collectors->set(now);
      actors::Collectors update;
      for (const collector_actor& c : now)
        if (c) update.collectors.push_back(c);
      master_log->info(
          "the central manager's collector is another actor now, or was joined again: telling the "
          "node's daemons");
      caf::scoped_actor self{sys};
      for (const caf::actor& d : running())
        if (d) self->send(d, update);
      self->send(node_master, update);
    };
    watch = std::make_shared<CollectorWatch>(sys, "central manager", centrals, collectors->get(), *creds,
                                             *anchor, *guard, master_log, caf::actor_cast<caf::actor>(gate),
                                             changed, seconds_ms(plan->collector_check_interval));
  }

  net::LocalServer local;
  if (plan->runs("SCHEDD")) {
    actors::schedd_actor schedd;
    caf::scoped_actor self{sys};
    self->request(*master_actor, 10s, actors::MasterStatusQuery{})
        .receive(
            [&](actors::MasterStatus& s) {
              schedd = actors::daemon_in<actors::schedd_actor>(s.names, s.daemons);
            },
            [&](caf::error&) {});
    const std::string domain = config->string("UID_DOMAIN").ok() ? *config->string("UID_DOMAIN") : "";
    const std::string host = plan->advertise;
    auto started = local.start(plan->schedd_socket, [&sys, schedd, guard, domain, host](
                                                        const nlohmann::json& r, const net::LocalPeer& p) {
      return handle_local(sys, schedd, *guard, domain, host, r, p);
    });
    if (!started)
      master_log->warning("no local submit path: " + started.error());
    else
      master_log->info("local commands on " + plan->schedd_socket);
  }
  master_log->info("node ready: " + [&] {
    std::string s;
    for (const std::string& d : plan->daemons) s += (s.empty() ? "" : " ") + d;
    return s;
  }());

  // However the master ends, the node counts as stopped.
  caf::actor_cast<caf::abstract_actor*>(*master_actor)->attach_functor([stopped] { stopped->store(true); });
  const int sig = await_stop(stop_signals, *master_actor, sys, *plan, *master_log, *stopped);
  local.stop();
  caf::anon_send_exit(gate, caf::exit_reason::user_shutdown);
  // The actor system ends its threads when this returns; should anything
  // hold it (a peer that does not let go), the process ends anyway.
  std::thread([log = master_log] {
    std::this_thread::sleep_for(kTeardownLimit);
    log->warning("the node did not finish stopping within " + std::to_string(kTeardownLimit.count()) +
                 " s: exiting now");
    std::_Exit(0);
  }).detach();
  master_log->info(std::string("stopped (") + signal_name(sig) + ")");
  return 0;
}

}  // namespace cara::apps
