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
#include <map>
#include <optional>
#include <thread>

#include "actors/collector.h"
#include "actors/daemon_directory.h"
#include "actors/daemons.h"
#include "actors/had.h"
#include "actors/master.h"
#include "actors/system_accounts.h"
#include "apps/node/daemon_watch.h"
#include "apps/node/introducer.h"
#include "apps/node/local_commands.h"
#include "apps/node/name_check.h"
#include "apps/node/node_check.h"
#include "apps/node/node_plan.h"
#include "apps/node/node_stop.h"
#include "apps/node/tls_system.h"
#include "apps/node/view_host_link.h"
#include "apps/node/web_service.h"
#include "model/ha/had_config.h"
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

// The collectors a DaemonWatch of COLLECTOR reached, typed (null: none).
std::vector<collector_actor> collectors_of(const std::vector<caf::actor>& reached) {
  std::vector<collector_actor> out;
  for (const caf::actor& a : reached) out.push_back(caf::actor_cast<collector_actor>(a));
  return out;
}

// Joins the central managers, retrying until at least one answers (they
// may start after us; under high availability some may be down) or the
// node is asked to stop (then nothing is returned). Every central manager
// has its entry, with a null collector when it was not reached yet (the
// node's watch reaches it later). A central manager that refuses our
// certificate, or whose certificate we refuse, is no passing trouble: that
// is an error at once. The central manager's gate watches `session` (our
// gate) to know when we are gone.
Result<std::vector<std::pair<CentralManager, collector_actor>>> join_collectors(
    caf::actor_system& sys, const NodePlan& plan, const net::Credentials& creds,
    const net::TrustAnchor& anchor, net::Guard& guard, os::DaemonLog& log, const sigset_t& stop_signals,
    const caf::actor& session) {
  std::vector<std::pair<CentralManager, collector_actor>> out;
  for (const HostPort& cm : plan.collectors) out.push_back({CentralManager{cm, {}}, {}});
  for (double wait = 0.5;; wait = std::min(wait * 2, 10.0)) {
    bool any = false;
    for (auto& [central, collector] : out) {
      if (collector) {
        any = true;
        continue;
      }
      const HostPort& cm = central.where;
      auto joined = net::join(sys, cm.host, cm.port, creds, anchor, &guard, 10s, session);
      if (joined) {
        if (const auto c = actors::daemon_in<collector_actor>(joined->daemons)) {
          log.info("joined the central manager " + cm.host + ":" + std::to_string(cm.port) + " (" +
                   joined->peer.text() + ")");
          central.gate = joined->gate;
          collector = c;
          any = true;
          continue;
        }
        log.warning(cm.host + ":" + std::to_string(cm.port) + " runs no collector; retrying");
      } else if (net::tls_connect_failure(cm.host, cm.port)) {
        log.warning(joined.error());
        return Error{"COLLECTOR_HOST " + cm.host + ":" + std::to_string(cm.port) + ": " + joined.error()};
      } else {
        log.warning(joined.error() + "; retrying in " + std::to_string(wait) + " s");
      }
    }
    if (any) return out;
    timespec ts{static_cast<time_t>(wait), static_cast<long>((wait - static_cast<time_t>(wait)) * 1e9)};
    if (sigtimedwait(&stop_signals, nullptr, &ts) > 0)
      return std::vector<std::pair<CentralManager, collector_actor>>{};
  }
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

// What a node is before its actor system exists: its plan, its identity
// (certificate, pool CA, ALLOW_* lists), the stop signals blocked, the
// master's log. Everything is checked before the node listens or joins
// anyone, and every problem is told at once.
struct NodeBasics {
  std::shared_ptr<const config::Config> config;
  NodePlan plan;
  net::Credentials creds;
  net::TrustAnchor anchor;
  std::shared_ptr<net::Guard> guard;
  std::shared_ptr<os::DaemonLog> master_log;
  sigset_t stop_signals;
};

std::optional<NodeBasics> prepare(std::shared_ptr<const config::Config> config, std::ostream& err) {
  {
    actors::SystemAccounts accounts;
    const auto problems = check_node(*config, NodeCheckOptions{true, &accounts, actors::current_account()});
    if (!problems.empty()) {
      err << "cara master: the configuration cannot run: " << describe_problems(problems) << "\n";
      return std::nullopt;
    }
  }
  auto plan = plan_node(*config);
  if (!plan) {
    err << "cara master: " << plan.error() << "\n";
    return std::nullopt;
  }
  auto creds = net::Credentials::load(plan->certificate, plan->key);
  auto anchor = net::TrustAnchor::load(plan->ca);
  auto authz = net::Authorization::from_config(*config);
  if (!creds || !anchor || !authz) {
    err << "cara master: " << (!creds ? creds.error() : !anchor ? anchor.error() : authz.error()) << "\n";
    return std::nullopt;
  }
  auto master_log = open_log(*plan, "MASTER");
  auto guard = std::make_shared<net::Guard>(std::move(*authz), master_log);
  return NodeBasics{std::move(config), std::move(*plan),      std::move(*creds),   std::move(*anchor),
                    std::move(guard),  std::move(master_log), block_stop_signals()};
}

// A peer this node's TLS layer refuses is logged in the master's log (CAF
// would drop it silently), once per peer and minute, while this lives.
struct TlsRefusalLog {
  explicit TlsRefusalLog(std::shared_ptr<os::DaemonLog> log) {
    net::set_tls_refusal_log([log = std::move(log)](const std::string& m) { log->warning(m); });
  }
  ~TlsRefusalLog() { net::set_tls_refusal_log(nullptr); }
};

// The node while it runs, step by step (run_node). A step that ends the
// node returns its exit code.
class NodeRun {
 public:
  NodeRun(caf::actor_system& sys, const NodeBasics& node, std::function<Result<config::Config>()> reread)
      : sys_(sys), node_(node), plan_(node.plan), reread_(std::move(reread)) {}
  ~NodeRun() {
    // The watches' threads use the actor system and the credentials: they
    // stop before those go, whichever way the node ends.
    if (watch_) watch_->stop();
    if (view_watch_) view_watch_->stop();
    if (had_watch_) had_watch_->stop();
  }

  // Publishes the node's gate on its port.
  std::optional<int> listen(std::ostream& err);
  // The master's own settings: its name, address, stop timeouts, how it
  // reloads the configuration.
  void set_up_master();
  // A central manager runs its collector; any other node joins its
  // central managers' collectors first (retrying until they answer).
  std::optional<int> find_collectors(std::ostream& err);
  // NEGOTIATOR, SCHEDD and STARTD of DAEMON_LIST, each (re)spawned by the
  // master with the configuration as it is then.
  std::optional<int> add_daemons(std::ostream& err);
  std::optional<int> start_master(std::ostream& err);
  // The central managers' collectors are watched: one that comes back as
  // another actor is told to every daemon.
  void watch_central_managers();
  // A central manager with a HAD reaches the others of HAD_LIST and hands
  // their hads to its own.
  void watch_had_peers();
  // `cara submit` and `cara q` on the schedd's node.
  void serve_local_commands();
  // The web endpoint (WEB_PORT) on the collector's node.
  std::optional<int> serve_web(std::ostream& err);
  // Until a stop signal and the master's stop; returns the exit code.
  int until_stopped();

 private:
  std::optional<int> fail(std::ostream& err, const std::string& why, int rc = 2) {
    if (!why.empty()) err << "cara master: " << why << "\n";
    caf::anon_send_exit(gate_, caf::exit_reason::user_shutdown);
    if (services_->introducer) caf::anon_send_exit(services_->introducer, caf::exit_reason::user_shutdown);
    return rc;
  }
  node::RestartBackoff restart_backoff(const char* name) const {
    auto b = node::RestartBackoff::from_config(*node_.config, name);  // checked by prepare()
    return b ? *b : node::RestartBackoff{};
  }
  actors::DaemonContext context(const std::shared_ptr<os::DaemonLog>& log) const {
    return actors::DaemonContext{node_.guard, log, node_config_,
                                 nullptr};  // no observer: a node reports to nobody
  }
  void add_collector();
  // Daemon `name` of DAEMON_LIST, (re)spawned by the master where every
  // daemon is made (actors/daemons.h), with the configuration and the
  // collectors as they are then; `spawned` is told of each new actor.
  void add_daemon(const std::string& name, std::function<void(const caf::actor&)> spawned = {});

  caf::actor_system& sys_;
  const NodeBasics& node_;
  const NodePlan& plan_;
  std::function<Result<config::Config>()> reread_;
  net::gate_actor gate_;
  std::string address_;
  const actors::PoolClock clock_ = actors::PoolClock::wall();
  std::shared_ptr<actors::NodeConfig> node_config_ = std::make_shared<actors::NodeConfig>(node_.config);
  actors::MasterSetup master_;
  std::optional<actors::master_actor> master_actor_;
  std::shared_ptr<std::atomic<bool>> stopped_ = std::make_shared<std::atomic<bool>>(false);
  // The collector comes first: every other daemon reports to it. A daemon
  // (re)spawned later reads the current collectors; the running ones are
  // told when they change (a restarted local collector: by the master; the
  // central manager's: by the collector watch).
  std::shared_ptr<CollectorList> collectors_ = std::make_shared<CollectorList>();
  std::vector<CentralManager> centrals_;
  std::vector<caf::actor> central_collectors_;  // by central manager; null: not reached yet
  std::shared_ptr<DaemonWatch> watch_;
  std::shared_ptr<ViewHostLink> view_link_;
  std::shared_ptr<DaemonWatch> view_watch_;
  std::shared_ptr<DaemonWatch> had_watch_;  // the other central managers' hads (HAD_LIST)
  net::LocalServer local_;
  std::unique_ptr<WebService> web_;
  // What this node gives its daemons (shared with the master's spawn
  // functions); each daemon's log is opened once.
  std::shared_ptr<actors::NodeServices> services_ = std::make_shared<actors::NodeServices>();
  std::shared_ptr<std::map<std::string, actors::DaemonContext>> contexts_ =
      std::make_shared<std::map<std::string, actors::DaemonContext>>();
};

std::optional<int> NodeRun::listen(std::ostream& err) {
  gate_ = net::spawn_gate(sys_, net::GateSetup{node_.creds, node_.anchor, node_.guard, node_.master_log});
  auto published = caf::openssl::publish(gate_, plan_.port, plan_.bind.c_str(), true);
  if (!published)
    return fail(err, "cannot listen on " + plan_.bind + ":" + std::to_string(plan_.port) + " (" +
                         sys_.render(published.error()) + ")");
  address_ = "<" + plan_.advertise + ":" + std::to_string(plan_.port) + ">";
  node_.master_log->info("listening on " + plan_.bind + ":" + std::to_string(plan_.port) + " as " + address_);
  return std::nullopt;
}

void NodeRun::set_up_master() {
  const config::Config& config = *node_.config;
  master_.gate = gate_;
  master_.clock = clock_;
  master_.context = context(node_.master_log);
  master_.node_config = node_config_;
  master_.reload = [reread = reread_, running = plan_, guard = node_.guard] {
    return reload(reread, running, *guard);
  };
  master_.name = config.string("FULL_HOSTNAME").ok() ? *config.string("FULL_HOSTNAME") : plan_.advertise;
  master_.shutdown_graceful = plan_.shutdown_graceful;
  master_.shutdown_fast = plan_.shutdown_fast;
  // condor_off takes the path of the signals: SIGTERM graceful, SIGQUIT fast.
  master_.request_stop = [](bool fast) { ::kill(::getpid(), fast ? SIGQUIT : SIGTERM); };
  master_.stopped = [stopped = stopped_] { stopped->store(true); };
  master_.address = address_;
  if (plan_.master_update_interval > 0) master_.update_interval = plan_.master_update_interval;
  master_.collectors = [collectors = collectors_] { return collectors->get(); };
  services_->clock = clock_;
  services_->files = std::make_shared<os::SystemHost>();
  services_->address = address_;
  services_->durable = true;
  // A negotiator apart from the central manager meets the schedds' and
  // slots' nodes through its node (actors/introducer.h).
  if (plan_.runs("NEGOTIATOR"))
    services_->introducer = spawn_introducer(sys_, node_.creds, node_.anchor, node_.guard, node_.master_log,
                                             caf::actor_cast<caf::actor>(gate_));
  if (plan_.runs("HAD")) {
    // HAD_LIST names this node as host:port: its host name, the address
    // it advertises or binds, and its port.
    std::vector<std::string> names{master_.name, plan_.advertise, plan_.bind};
    services_->ha = std::make_shared<actors::HaLink>(std::move(names), plan_.port);
  }
  services_->context = [contexts = contexts_](const std::string& daemon) { return contexts->at(daemon); };
}

void NodeRun::add_collector() {
  // CONDOR_VIEW_HOST: reached (again) in the background, told to each
  // collector.
  view_link_ = std::make_shared<ViewHostLink>();
  std::vector<CentralManager> views;
  for (const HostPort& v : plan_.view_hosts) views.push_back(CentralManager{v, {}});
  add_daemon("COLLECTOR",
             [collectors = collectors_, view_link = view_link_, ha = services_->ha](const caf::actor& a) {
               const auto c = caf::actor_cast<actors::collector_actor>(a);
               collectors->set_own(c);
               view_link->attach(c);
               if (ha) ha->set_collector(c);  // the had's heartbeats name it to the others
             });
  view_watch_ = std::make_shared<DaemonWatch>(
      sys_, "COLLECTOR", "view collector", views, std::vector<caf::actor>{}, node_.creds, node_.anchor,
      *node_.guard, contexts_->at("COLLECTOR").log, caf::actor_cast<caf::actor>(gate_),
      [link = view_link_](const std::vector<caf::actor>& reached) { link->update(collectors_of(reached)); },
      seconds_ms(plan_.collector_check_interval));
}

std::optional<int> NodeRun::find_collectors(std::ostream& err) {
  if (plan_.runs("COLLECTOR")) {
    add_collector();
    return std::nullopt;
  }
  auto reached = join_collectors(sys_, plan_, node_.creds, node_.anchor, *node_.guard, *node_.master_log,
                                 node_.stop_signals, caf::actor_cast<caf::actor>(gate_));
  if (!reached) return fail(err, reached.error());
  std::vector<collector_actor> joined;
  for (auto& [central, collector] : *reached) {
    centrals_.push_back(central);
    central_collectors_.push_back(caf::actor_cast<caf::actor>(collector));
    if (collector) joined.push_back(collector);
  }
  collectors_->set_remote(joined);
  if (joined.empty()) {
    node_.master_log->info("stopped before joining the central manager");
    return fail(err, "", 0);
  }
  if (Status unique = check_unique_name(sys_, joined, master_.name, master_.address); !unique) {
    node_.master_log->warning(unique.error());
    return fail(err, unique.error());
  }
  return std::nullopt;
}

void NodeRun::add_daemon(const std::string& name, std::function<void(const caf::actor&)> spawned) {
  (*contexts_)[name] = context(open_log(plan_, name.c_str()));
  master_.daemons.push_back({name,
                             [name, spawned, services = services_, node_config = node_config_,
                              collectors = collectors_](caf::actor_system& s) -> Result<caf::actor> {
                               // A restart reads the configuration and the collectors as they are now.
                               auto a = actors::spawn_daemon(s, name, *services, node_config->get(),
                                                             collectors->get());
                               if (a && spawned) spawned(*a);
                               return a;
                             },
                             restart_backoff(name.c_str())});
}

std::optional<int> NodeRun::add_daemons(std::ostream& err) {
  const config::Config& config = *node_.config;
  if (plan_.runs("SCHEDD"))
    services_->middleman = caf::actor_cast<caf::actor>(sys_.openssl_manager().actor_handle());
  if (plan_.runs("STARTD")) {
    actors::ProcessRunner::Options keeper;
    keeper.procd = config.string("PROCD").ok() ? *config.string("PROCD") : "";
    keeper.execute_dir = config.string("EXECUTE").ok() ? *config.string("EXECUTE") : "";
    auto runner = std::make_shared<actors::ProcessRunner>(keeper);
    if (auto s = runner->prepare(); !s) return fail(err, "STARTD: " + s.error());
    services_->runner = std::move(runner);
  }
  for (const std::string& name : plan_.daemons)
    if (name != "COLLECTOR") add_daemon(name);  // the collector came first (find_collectors)
  return std::nullopt;
}

std::optional<int> NodeRun::start_master(std::ostream& err) {
  auto master = actors::spawn_master(sys_, master_);
  if (!master) return fail(err, master.error());
  master_actor_ = *master;
  // However the master ends, the node counts as stopped.
  caf::actor_cast<caf::abstract_actor*>(*master_actor_)->attach_functor([stopped = stopped_] {
    stopped->store(true);
  });
  return std::nullopt;
}

void NodeRun::watch_central_managers() {
  if (centrals_.empty()) return;
  auto& sys = sys_;
  const actors::master_actor node_master = *master_actor_;
  // The central managers' collectors, when one is another actor: the
  // daemons spawned later get it, the running ones are told by the master.
  auto changed = [&sys, collectors = collectors_, log = node_.master_log,
                  node_master](const std::vector<caf::actor>& reached) {
    std::vector<collector_actor> now;
    for (const collector_actor& c : collectors_of(reached))
      if (c) now.push_back(c);
    collectors->set_remote(now);
    log->info(
        "the central manager's collector is another actor now, or was joined again: telling the node's "
        "daemons");
    caf::scoped_actor self{sys};
    self->send(node_master, actors::Collectors{});
  };
  watch_ = std::make_shared<DaemonWatch>(sys_, "COLLECTOR", "central manager", centrals_, central_collectors_,
                                         node_.creds, node_.anchor, *node_.guard, node_.master_log,
                                         caf::actor_cast<caf::actor>(gate_), changed,
                                         seconds_ms(plan_.collector_check_interval));
}

void NodeRun::watch_had_peers() {
  if (!services_->ha) return;
  // The other central managers' collectors, as the had hears of them: the
  // node's daemons report to them as well (the collectors agree on what
  // they hold; the standby's shows the active negotiator).
  services_->ha->on_peer_collectors([&sys = sys_, collectors = collectors_, log = node_.master_log,
                                     master = *master_actor_](const std::vector<collector_actor>& peers) {
    collectors->set_remote(peers);
    log->info("the other central managers' collectors: " + std::to_string(peers.size()) +
              " reachable; telling the node's daemons");
    caf::scoped_actor self{sys};
    self->send(master, actors::Collectors{});
  });
  auto setup = actors::had_setup(*node_.config, services_->ha);  // checked when the had was spawned
  if (!setup) return;
  std::vector<CentralManager> peers;
  std::vector<std::int32_t> members;
  // Each pair of central managers has one connection: the earlier in
  // HAD_LIST joins the later (two joins at once would make CAF drop one
  // connection, and the hads take a dropped link for a central manager
  // gone). The later one has the earlier's had from its heartbeats.
  for (std::size_t i = 0; i < setup->config.members.size(); ++i) {
    if (i <= setup->self) continue;
    const ha::HadMember& m = setup->config.members[i];
    peers.push_back(CentralManager{HostPort{m.host, m.port}, {}});
    members.push_back(static_cast<std::int32_t>(i));
  }
  auto& sys = sys_;
  auto changed = [&sys, link = services_->ha, members](const std::vector<caf::actor>& reached) {
    actors::HadPeers p;
    p.members = members;
    for (const caf::actor& a : reached) p.hads.push_back(caf::actor_cast<actors::had_actor>(a));
    if (auto had = link->had()) {
      caf::scoped_actor self{sys};
      self->send(had, p);
    }
  };
  // The hads watch each other closely themselves (heartbeats, monitors);
  // this only (re)joins the nodes, as often as HAD_CONNECTION_TIMEOUT asks.
  const auto every = std::chrono::milliseconds(std::max<std::int64_t>(
      100, std::min<std::int64_t>(setup->config.connection_timeout_ms,
                                  seconds_ms(plan_.collector_check_interval).count())));
  had_watch_ = std::make_shared<DaemonWatch>(
      sys_, "HAD", "central manager", peers, std::vector<caf::actor>(peers.size()), node_.creds, node_.anchor,
      *node_.guard, node_.master_log, caf::actor_cast<caf::actor>(gate_), changed, every);
}

// The node's schedd as its master knows it now: asked for each local
// command, since the master respawns a schedd that stopped (a store it
// could not write, a crash) as another actor.
actors::schedd_actor current_schedd(caf::scoped_actor& self, const actors::master_actor& master) {
  actors::schedd_actor schedd;
  self->request(master, 10s, actors::MasterStatusQuery{})
      .receive(
          [&](actors::MasterStatus& s) {
            schedd = actors::daemon_in<actors::schedd_actor>(s.names, s.daemons);
          },
          [&](caf::error&) {});
  return schedd;
}

void NodeRun::serve_local_commands() {
  if (!plan_.runs("SCHEDD")) return;
  const config::Config& config = *node_.config;
  const std::string domain = config.string("UID_DOMAIN").ok() ? *config.string("UID_DOMAIN") : "";
  auto started = local_.start(
      plan_.schedd_socket,
      [&sys = sys_, master = *master_actor_, guard = node_.guard, domain, host = plan_.advertise](
          const nlohmann::json& r, const net::LocalPeer& p, const net::ProgressNote& note) {
        // One blocking actor for all the requests of the serving thread (the
        // only caller), and the schedd the master named while it runs:
        // making an actor per request, and asking the master each time, was
        // a fifth of a one-job submit's time in the node (issue 21). The
        // actor monitors the schedd; its end (the master starts another) or
        // a late answer to a request that timed out, left in the mailbox,
        // starts both afresh.
        thread_local std::optional<caf::scoped_actor> self;
        thread_local actors::schedd_actor schedd;
        if (self && !(*self)->mailbox().empty()) {
          self.reset();
          schedd = actors::schedd_actor{};
        }
        if (!self) self.emplace(sys);
        const bool asks_schedd = r.value("command", "") != "whoami";
        if (asks_schedd && !schedd) {
          schedd = current_schedd(*self, master);
          if (schedd) (*self)->monitor(schedd);
        }
        return handle_local(*self, asks_schedd ? schedd : actors::schedd_actor{}, *guard, domain, host, r, p,
                            false, note);
      });
  if (!started)
    node_.master_log->warning("no local submit path: " + started.error());
  else
    node_.master_log->info("local commands on " + plan_.schedd_socket);
}

std::optional<int> NodeRun::serve_web(std::ostream& err) {
  if (!plan_.runs("COLLECTOR")) return std::nullopt;
  auto settings = web::WebSettings::from_config(*node_.config);  // checked by prepare()
  if (!settings || !settings->enabled) return std::nullopt;
  actors::WebSourceSetup source;
  source.collectors = [collectors = collectors_] { return collectors->get(); };
  source.ha = services_->ha;
  source.clock = clock_;
  auto web =
      WebService::start(sys_, *node_.config, *settings, std::move(source), node_.guard, node_.master_log);
  if (!web) {
    node_.master_log->warning(web.error());
    return fail(err, web.error());
  }
  web_ = std::move(*web);
  return std::nullopt;
}

int NodeRun::until_stopped() {
  std::string daemons;
  for (const std::string& d : plan_.daemons) daemons += (daemons.empty() ? "" : " ") + d;
  node_.master_log->info("node ready: " + daemons);
  const int sig = await_stop(node_.stop_signals, *master_actor_, sys_, plan_, *node_.master_log, *stopped_);
  local_.stop();
  if (web_) web_->stop();
  caf::anon_send_exit(gate_, caf::exit_reason::user_shutdown);
  if (services_->introducer) caf::anon_send_exit(services_->introducer, caf::exit_reason::user_shutdown);
  // The actor system ends its threads when run_node returns; should
  // anything hold it (a peer that does not let go), the process ends anyway.
  std::thread([log = node_.master_log] {
    std::this_thread::sleep_for(kTeardownLimit);
    log->warning("the node did not finish stopping within " + std::to_string(kTeardownLimit.count()) +
                 " s: exiting now");
    std::_Exit(0);
  }).detach();
  node_.master_log->info("stopped (" + stop_signal_name(sig) + ")");
  return 0;
}

}  // namespace

int run_node(std::shared_ptr<const config::Config> config, std::function<Result<config::Config>()> reread,
             std::ostream& err) {
  auto node = prepare(std::move(config), err);
  if (!node) return 2;
  // A file that reaches the file size limit (RLIMIT_FSIZE) is a write
  // error the store reports and the daemon stops on, with what failed;
  // SIGXFSZ would kill the whole node without a word.
  ::signal(SIGXFSZ, SIG_IGN);
  TlsRefusalLog refusals(node->master_log);
  caf::actor_system_config cfg;
  if (auto tls = configure_tls_system(cfg, TlsFiles{node->plan.certificate, node->plan.key, node->plan.ca});
      !tls) {
    err << "cara master: " << tls.error() << "\n";
    return 2;
  }
  // Remote failures are detected, never waited out (STACK-NOTES.md).
  cfg.set("middleman.heartbeat-interval", seconds(node->plan.heartbeat_interval));
  cfg.set("middleman.connection-timeout", seconds(node->plan.connection_timeout));
  caf::actor_system sys{cfg};
  NodeRun run(sys, *node, std::move(reread));
  if (auto rc = run.listen(err)) return *rc;
  run.set_up_master();
  if (auto rc = run.find_collectors(err)) return *rc;
  if (auto rc = run.add_daemons(err)) return *rc;
  // Before the master: a port it cannot have stops the node while nothing
  // runs yet. It reads the collectors only when asked.
  if (auto rc = run.serve_web(err)) return *rc;
  if (auto rc = run.start_master(err)) return *rc;
  run.watch_central_managers();
  run.watch_had_peers();
  run.serve_local_commands();
  return run.until_stopped();
}

}  // namespace cara::apps
