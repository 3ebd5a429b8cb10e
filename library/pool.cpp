// The public real-time API (include/caracara/pool.h) over the embedded
// pool (actors/pool.h): the daemons `cara master` runs, in one actor
// system. Translation only — every decision is the daemons'.
#include "caracara/pool.h"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/after.hpp>
#include <caf/scoped_actor.hpp>
#include <caf/send.hpp>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>

#include "actors/message_types.h"
#include "actors/pool.h"
#include "actors/system_accounts.h"
#include "library/translation.h"
#include "model/accounting/accountant_config.h"
#include "model/classad/eval.h"
#include "model/collector/ad_store.h"
#include "model/schedd/job_status.h"
#include "os/system_host.h"

namespace caracara {

namespace {

namespace actors = cara::actors;
namespace classad = cara::classad;
using cara::config::TextLayer;

constexpr auto kAnswerTimeout = std::chrono::seconds(60);

// One node of the pool: what it reads (the pool's common text, its own,
// each reconfiguration's, then what the pool sets), and its daemons.
struct PoolNode {
  std::string host;
  const char* subsystem = "STARTD";
  std::string daemon_list;
  std::vector<TextLayer> layers;
  std::shared_ptr<actors::NodeConfig> config;
  std::vector<caf::actor> daemons;
};

double number(const classad::ClassAd& ad, const char* name) {
  const classad::Value v = classad::evaluate_attr(ad, name);
  if (v.is_int()) return static_cast<double>(v.as_int());
  return v.is_real() ? v.as_real() : 0;
}

std::string text(const classad::ClassAd& ad, const char* name) {
  const classad::Value v = classad::evaluate_attr(ad, name);
  return v.is_string() ? std::string(v.as_string()) : std::string();
}

}  // namespace

struct Pool::Impl {
  PoolSpec spec;
  std::string dir;
  bool own_dir = false;
  std::shared_ptr<cara::os::DaemonLog> log;

  PoolNode cm, ap;
  std::map<std::string, PoolNode> machines;
  actors::PoolSpec daemons;
  actors::EmbeddedPool pool;
  std::unique_ptr<caf::actor_system_config> cfg;
  std::unique_ptr<caf::actor_system> sys;
  std::atomic<bool> stopped = false;
  // The machines and the nodes' configuration layers: the caller's thread
  // and a callback (the dispatcher's) may both change them.
  std::mutex nodes;

  // The daemons' events, told to the listeners on the dispatcher's thread.
  std::mutex mutex;
  std::condition_variable arrived, drained;
  std::deque<cara::node::PoolEvent> inbox;
  std::vector<std::function<void(const Event&)>> listeners;
  bool closing = false;
  std::uint64_t delivered = 0;
  std::thread dispatcher;
  detail::CycleChanges changes;

  // ---- nodes

  cara::Result<std::shared_ptr<const cara::config::Config>> read(const PoolNode& n,
                                                                 const std::vector<TextLayer>& layers) const {
    std::vector<TextLayer> all = layers;
    // What the pool decides comes last: a node runs what it is for.
    all.push_back(TextLayer{"DAEMON_LIST = " + n.daemon_list + "\n", "the pool's own settings", 1});
    auto c = cara::config::host_config_from_layers(all, {n.subsystem, ""}, n.host, spec.seed);
    if (!c)
      return cara::Error{(n.host == "cm"   ? std::string("the central manager")
                          : n.host == "ap" ? std::string("the access point")
                                           : "machine " + n.host) +
                         ": " + c.error()};
    return std::shared_ptr<const cara::config::Config>(std::make_shared<cara::config::Config>(std::move(*c)));
  }

  PoolNode node(std::string host, const char* subsystem, std::string daemon_list,
                const ConfigText& own) const {
    PoolNode n;
    n.host = std::move(host);
    n.subsystem = subsystem;
    n.daemon_list = std::move(daemon_list);
    n.layers = detail::layers(spec.common);
    for (TextLayer& l : detail::layers(own)) n.layers.push_back(std::move(l));
    auto c = read(n, n.layers);
    if (!c) throw Error(c.error());
    n.config = std::make_shared<actors::NodeConfig>(*c);
    return n;
  }

  PoolNode machine_node(const MachineSpec& m) const {
    if (m.name.empty() || m.name == "cm" || m.name == "ap")
      throw Error("a machine needs a name of its own (not empty, \"cm\" or \"ap\"), got '" + m.name + "'");
    return node(m.name, "STARTD", "MASTER, STARTD", m.config);
  }

  // ---- asking the daemons

  template <class Reply, class Handle, class Message>
  Reply ask(const Handle& to, Message message, const std::string& what) const {
    if (stopped) throw Error(what + ": the pool has stopped");
    caf::scoped_actor self{*sys, true};  // hidden: not an actor the system waits for
    std::optional<Reply> out;
    std::string failure;
    self->request(to, kAnswerTimeout, std::move(message))
        .receive([&](Reply& r) { out = std::move(r); }, [&](caf::error& e) { failure = sys->render(e); });
    if (!out) throw Error(what + ": " + (failure.empty() ? "no answer" : failure));
    return std::move(*out);
  }

  // ---- events

  void observe(const cara::node::PoolEvent& e) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (listeners.empty() && e.kind != cara::node::PoolEventKind::Finished &&
          e.kind != cara::node::PoolEventKind::Removed)
        return;
      inbox.push_back(e);
    }
    arrived.notify_one();
  }

  void dispatch() {
    std::unique_lock<std::mutex> lock(mutex);
    while (true) {
      arrived.wait(lock, [&] { return closing || !inbox.empty(); });
      if (inbox.empty()) return;  // closing, and every event told
      const cara::node::PoolEvent e = std::move(inbox.front());
      inbox.pop_front();
      const auto told = listeners;
      const bool querying = !closing && !told.empty() && e.kind == cara::node::PoolEventKind::Cycle;
      lock.unlock();
      std::vector<Event> out{detail::public_event(e)};
      if (querying) {
        try {
          for (Event& change : changes.after_cycle(e.time, priorities(), group_quotas()))
            out.push_back(std::move(change));
        } catch (const Error&) {
          // The negotiator stopping meanwhile: the next cycle tells.
        }
      }
      for (const Event& o : out)
        for (const auto& l : told) l(o);
      lock.lock();
      ++delivered;
      drained.notify_all();
    }
  }

  // ---- state

  std::vector<SubmitterPriority> priorities() const {
    auto reply =
        ask<actors::UserprioReply>(pool.negotiator, actors::UserprioQuery{}, "reading the priorities");
    auto groups = cara::accounting::AccountantConfig::from_config(*cm.config->get());
    std::vector<SubmitterPriority> out;
    for (const actors::WireAd& w : reply.records) {
      const classad::ClassAd& a = w.ad;
      const classad::Value group = classad::evaluate_attr(a, "IsAccountingGroup");
      if (group.is_bool() && group.as_bool()) continue;
      const std::string name = text(a, "Name");
      out.push_back(SubmitterPriority{name, groups ? groups->group_of(name) : std::string(),
                                      number(a, "Priority"), number(a, "EffectivePriority"),
                                      number(a, "PriorityFactor"), number(a, "ResourcesUsed"),
                                      number(a, "AccumulatedUsage")});
    }
    return out;
  }

  std::vector<GroupQuota> group_quotas() const {
    auto reply =
        ask<actors::UserprioReply>(pool.negotiator, actors::UserprioQuery{}, "reading the group quotas");
    std::vector<GroupQuota> out;
    for (const actors::WireAd& w : reply.groups) {
      const classad::ClassAd& a = w.ad;
      out.push_back(GroupQuota{text(a, "Name"), number(a, "ConfigQuota"), number(a, "EffectiveQuota"),
                               number(a, "GroupResourcesAllocated"), number(a, "Requested"),
                               number(a, "GroupResourcesInUse")});
    }
    return out;
  }

  JobCounts jobs() const {
    auto reply = ask<actors::QueueReply>(pool.schedd, actors::QueueQuery{"", {"JobStatus"}, false, ""},
                                         "reading the queue");
    if (!reply.ok) throw Error("reading the queue: " + reply.error);
    JobCounts c;
    for (const actors::WireAd& w : reply.jobs) detail::count_job(c, w.ad);
    return c;
  }

  // How many jobs the queue holds, in any state.
  std::size_t queued() const {
    auto reply = ask<actors::QueueReply>(pool.schedd, actors::QueueQuery{"", {"JobStatus"}, false, ""},
                                         "reading the queue");
    if (!reply.ok) throw Error("reading the queue: " + reply.error);
    return reply.jobs.size();
  }

  // The machine's startd stops fast (its jobs killed, its slots withdrawn)
  // and ends; killed outright if it has not within the answer timeout.
  void stop_machine(const PoolNode& n) {
    caf::scoped_actor self{*sys, true};  // hidden: not an actor the system waits for
    for (const caf::actor& d : n.daemons) {
      self->monitor(d);
      self->send(caf::actor_cast<actors::startd_actor>(d), actors::NodeStop{true});
    }
    for (std::size_t i = 0; i < n.daemons.size(); ++i)
      self->receive([](const caf::down_msg&) {}, caf::after(kAnswerTimeout) >>
                                                     [&] {
                                                       for (const caf::actor& d : n.daemons)
                                                         caf::anon_send_exit(d, caf::exit_reason::kill);
                                                     });
  }

  void stop() {
    if (stopped) return;
    if (std::this_thread::get_id() == dispatcher.get_id())
      throw Error("a pool cannot be stopped from its own event callback");
    // Jobs are killed before the other daemons go (condor_off -fast).
    {
      std::lock_guard<std::mutex> lock(nodes);
      for (const auto& [name, n] : machines) stop_machine(n);
    }
    actors::stop_pool(*sys, pool);
    sys->await_all_actors_done();  // no event arrives after this
    stopped = true;
    {
      std::lock_guard<std::mutex> lock(mutex);
      closing = true;
    }
    arrived.notify_one();
    // The dispatcher's thread asked the daemons through scoped actors of
    // its own: it ends before the actor system, whose end otherwise waits
    // for it forever (CAF 0.17).
    if (dispatcher.joinable()) dispatcher.join();
    sys.reset();
    daemons.runner.reset();  // the process keeper ends
    remove_directory();
  }

  void remove_directory() {
    if (!own_dir) return;
    own_dir = false;
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }

  ~Impl() { remove_directory(); }  // a pool that did not start
};

Pool::Pool(const PoolSpec& spec, const PoolOptions& options) : impl_(std::make_unique<Impl>()) {
  const std::string& directory = options.directory;
  Impl& p = *impl_;
  p.spec = spec;
  if (spec.machines.empty()) throw Error("the pool has no machines");
  // Like a personal pool: every job runs as the program's user, or as
  // nobody when that is root (no job runs as root).
  auto account = actors::personal_account();
  if (!account) throw Error("running as root and this machine has no user nobody to run the jobs as");

  // Every node's configuration reads before anything starts.
  p.cm = p.node("cm", "NEGOTIATOR", "MASTER, COLLECTOR, NEGOTIATOR", spec.central_manager);
  p.ap = p.node("ap", "SCHEDD", "MASTER, SCHEDD", spec.access_point);
  std::vector<std::string> order;
  for (const MachineSpec& m : spec.machines) {
    if (p.machines.count(m.name)) throw Error("two machines are named " + m.name);
    p.machines.emplace(m.name, p.machine_node(m));
    order.push_back(m.name);
  }

  if (directory.empty()) {
    char name[] = "/tmp/caracara-pool-XXXXXX";
    if (!::mkdtemp(name))
      throw Error(std::string("cannot create a directory for the pool in /tmp: ") + std::strerror(errno));
    p.dir = name;
    p.own_dir = true;
  } else {
    std::error_code ec;
    std::filesystem::create_directories(directory, ec);
    if (ec) throw Error("cannot create the pool's directory " + directory + ": " + ec.message());
    p.dir = std::filesystem::absolute(directory).string();
  }
  if (p.own_dir &&
      (::chown(p.dir.c_str(), account->uid, account->gid) != 0 || ::chmod(p.dir.c_str(), 0755) != 0))
    throw Error("cannot give " + p.dir + " to " + account->name + ": " + std::strerror(errno));
  p.log = std::make_shared<cara::os::DaemonLog>("pool", p.dir + "/pool.log", false);

  actors::PoolSpec& d = p.daemons;
  d.nodes = {p.cm.config->get(), p.ap.config->get()};
  d.node_configs = {p.cm.config, p.ap.config};
  for (const std::string& m : order) {
    d.nodes.push_back(p.machines.at(m).config->get());
    d.node_configs.push_back(p.machines.at(m).config);
  }
  auto runner = std::make_shared<actors::ProcessRunner>(
      actors::ProcessRunner::Options{options.procd, p.dir + "/execute"});
  if (cara::Status s = runner->prepare(); !s) throw Error("the process keeper (cara-procd): " + s.error());
  d.runner = runner;
  d.files = std::make_shared<cara::os::SystemHost>();
  d.accounts = std::make_shared<actors::OneAccount>(*account);
  d.log = p.log;
  d.seed = spec.seed;
  Impl* impl = impl_.get();
  d.observer = [impl](const cara::node::PoolEvent& e) { impl->observe(e); };

  p.cfg = std::make_unique<caf::actor_system_config>();
  actors::configure_actor_system(*p.cfg);
  p.sys = std::make_unique<caf::actor_system>(*p.cfg);
  auto spawned = actors::spawn_pool(*p.sys, d);
  if (!spawned) {
    p.sys.reset();
    p.stopped = true;
    throw Error(spawned.error());
  }
  p.pool = *spawned;
  p.cm.daemons = {caf::actor_cast<caf::actor>(p.pool.collector),
                  caf::actor_cast<caf::actor>(p.pool.negotiator)};
  p.ap.daemons = {caf::actor_cast<caf::actor>(p.pool.schedd)};
  for (std::size_t i = 0; i < order.size(); ++i)
    p.machines.at(order[i]).daemons = {caf::actor_cast<caf::actor>(p.pool.startds[i])};
  p.dispatcher = std::thread([impl] { impl->dispatch(); });
}

Pool::~Pool() {
  try {
    stop();
  } catch (...) {
    // Stopping from a callback: the pool outlives it (a programming error
    // the explicit stop() reports).
  }
}

void Pool::stop() {
  impl_->stop();
}

const std::string& Pool::directory() const {
  return impl_->dir;
}

std::vector<std::string> Pool::submit(const std::string& owner, const std::string& description) {
  actors::SubmitRequest r;
  r.description = description;
  r.label = "submit description";
  r.owner = owner;
  r.iwd = impl_->dir;
  auto reply = impl_->ask<actors::SubmitReply>(impl_->pool.schedd, std::move(r), "submitting");
  if (!reply.ok) throw Error(reply.error);
  return detail::job_ids(reply.cluster, reply.count);
}

std::vector<std::string> Pool::submit_ad(const std::string& owner, const std::string& job_ad,
                                         std::int64_t count) {
  auto description = detail::description_of_ad(job_ad, count);
  if (!description) throw Error(description.error());
  return submit(owner, *description);
}

std::size_t Pool::remove(const std::string& constraint) {
  actors::JobActionRequest r{"rm", constraint, "removed through the caracara API", "condor", false};
  auto reply = impl_->ask<actors::JobActionReply>(impl_->pool.schedd, std::move(r), "removing jobs");
  if (!reply.ok) throw Error(reply.error);
  return reply.done.size();
}

void Pool::userprio(const std::string& command, const std::string& name, double value) {
  auto reply = impl_->ask<actors::CommandReply>(
      impl_->pool.negotiator, actors::UserprioCommand{command, name, value, 0}, "userprio " + command);
  if (!reply.ok) throw Error(reply.error);
}

void Pool::reconfigure(Node node, const ConfigText& config, const std::string& machine_prefix) {
  Impl& p = *impl_;
  std::lock_guard<std::mutex> lock(p.nodes);
  std::vector<PoolNode*> chosen;
  if (node == Node::CentralManager) chosen.push_back(&p.cm);
  if (node == Node::AccessPoint) chosen.push_back(&p.ap);
  if (node == Node::Machines) {
    for (auto& [name, n] : p.machines)
      if (name.rfind(machine_prefix, 0) == 0) chosen.push_back(&n);
    if (chosen.empty()) throw Error("no machine's name begins with '" + machine_prefix + "'");
  }
  // Every new configuration reads before any node takes one.
  std::vector<std::shared_ptr<const cara::config::Config>> fresh;
  for (PoolNode* n : chosen) {
    std::vector<TextLayer> layers = n->layers;
    layers.push_back(detail::layer(config));
    auto c = p.read(*n, layers);
    if (!c) throw Error(c.error());
    fresh.push_back(*c);
  }
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    PoolNode& n = *chosen[i];
    n.layers.push_back(detail::layer(config));
    n.config->set(fresh[i]);
    for (const caf::actor& d : n.daemons) {
      auto reply = p.ask<actors::CommandReply>(d, actors::Reconfigure{}, "reconfiguring " + n.host);
      if (!reply.ok) throw Error("reconfiguring " + n.host + ": " + reply.error);
    }
  }
}

void Pool::add_machine(const MachineSpec& machine) {
  Impl& p = *impl_;
  std::lock_guard<std::mutex> lock(p.nodes);
  if (p.stopped) throw Error("adding a machine: the pool has stopped");
  if (p.machines.count(machine.name)) throw Error("the pool already has a machine named " + machine.name);
  PoolNode n = p.machine_node(machine);
  auto startd = actors::spawn_daemon(*p.sys, "STARTD", actors::node_services(p.daemons, n.config),
                                     n.config->get(), {p.pool.collector});
  if (!startd) throw Error("machine " + machine.name + ": " + startd.error());
  n.daemons = {*startd};
  p.machines.emplace(machine.name, std::move(n));
}

void Pool::remove_machine(const std::string& name) {
  Impl& p = *impl_;
  std::lock_guard<std::mutex> lock(p.nodes);
  auto it = p.machines.find(name);
  if (it == p.machines.end()) throw Error("the pool has no machine named " + name);
  if (p.stopped) throw Error("removing a machine: the pool has stopped");
  // Its jobs killed and its slots gone before this returns.
  p.stop_machine(it->second);
  p.machines.erase(it);
}

void Pool::on_event(std::function<void(const Event&)> callback) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->listeners.push_back(std::move(callback));
}

bool Pool::wait_until_empty(double timeout_seconds) {
  Impl& p = *impl_;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  while (true) {
    std::uint64_t seen;
    {
      std::lock_guard<std::mutex> lock(p.mutex);
      seen = p.delivered;
    }
    if (p.queued() == 0) return true;
    // A job leaves the queue with an event (Finished, Removed): wait for
    // the next one told, then look again.
    std::unique_lock<std::mutex> lock(p.mutex);
    if (!p.drained.wait_until(lock, deadline, [&] { return p.delivered != seen; })) return false;
  }
}

std::vector<SubmitterPriority> Pool::priorities() const {
  return impl_->priorities();
}

std::vector<GroupQuota> Pool::group_quotas() const {
  return impl_->group_quotas();
}

JobCounts Pool::jobs() const {
  return impl_->jobs();
}

double Pool::cores() const {
  // A partitionable slot's Cpus are what is left of it; TotalSlotCpus
  // what it was given (a static slot's are the same).
  actors::AdQueryRequest q{static_cast<std::int32_t>(cara::collector::AdType::Machine),
                           "DynamicSlot =!= true",
                           {"TotalSlotCpus", "Cpus"},
                           false};
  auto reply = impl_->ask<actors::AdQueryReply>(impl_->pool.collector, std::move(q), "reading the slots");
  if (!reply.ok) throw Error("reading the slots: " + reply.error);
  double cores = 0;
  for (const actors::WireAd& w : reply.ads)
    cores += w.ad.lookup("TotalSlotCpus") ? number(w.ad, "TotalSlotCpus") : number(w.ad, "Cpus");
  return cores;
}

}  // namespace caracara
