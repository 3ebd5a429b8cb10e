#include "actors/master.h"

#include <caf/actor_system.hpp>
#include <caf/send.hpp>
#include <caf/typed_event_based_actor.hpp>
#include <optional>

#include "model/collector/ad_store.h"
#include "model/common/text.h"
#include "model/node/master_ad.h"
#include "net/gate_messages.h"

namespace cara::actors {
namespace {

struct Running {
  caf::actor actor;
  std::int32_t restarts = 0;
  std::int64_t started = 0;
  bool off = false;      // condor_off -daemon: not restarted until condor_on
  bool restart = false;  // condor_restart: started again once it has stopped
};

struct MasterState {
  std::vector<Running> running;  // as setup.daemons
  std::optional<bool> stopping;  // the node stops: fast or not
  std::int32_t stop_timer = 0;   // the deadline timer in force (older ones are stale)
  bool finished = false;
  static inline const char* name = "master";
};

using Self = master_actor::stateful_pointer<MasterState>;

constexpr std::int32_t kAdTimer = -1;  // Timer codes >= 0 restart a daemon
// Stop deadlines are kStopTimers - n (n = 1, 2, ...): only the newest counts.
constexpr std::int32_t kStopTimers = -2;

void publish_ad(Self self, const MasterSetup& setup) {
  if (!setup.collectors) return;
  std::vector<std::string> daemons, running;
  for (std::size_t i = 0; i < setup.daemons.size(); ++i) {
    daemons.push_back(setup.daemons[i].name);
    if (i < self->state.running.size() && self->state.running[i].actor)
      running.push_back(setup.daemons[i].name);
  }
  AdUpdate u{static_cast<std::int32_t>(collector::AdType::Master),
             {WireAd{node::master_ad(setup.name, setup.address, daemons, running, setup.clock.now(self))}},
             {caf::actor_cast<caf::actor>(self)}};
  for (const collector_actor& c : setup.collectors())
    if (c) self->send(c, u);
}

// The node's collectors changed (the local one restarted, a central
// manager's came back, another central manager's was found): the daemons
// that report to collectors hear the whole list (`collectors`), which
// replaces theirs.
void tell_collectors(Self self, const MasterSetup& setup) {
  if (!setup.collectors) return;
  const Collectors now{setup.collectors()};
  auto& running = self->state.running;
  for (std::size_t j = 0; j < running.size(); ++j) {
    const std::string& name = setup.daemons[j].name;
    if (running[j].actor &&
        (name == "NEGOTIATOR" || name == "SCHEDD" || name == "STARTD" || name == "DEFRAG"))
      caf::send_as(caf::actor_cast<caf::actor>(self), running[j].actor, now);
  }
}

// condor_reconfig: each running daemon applies the configuration and says
// how it went; the answer gathers what they said. A daemon waiting to be
// restarted reads the new configuration when it starts.
caf::result<CommandReply> reconfigure(Self self, const MasterSetup& setup) {
  if (auto no = setup.context.refused(self, net::Permission::Administrator, "master"))
    return CommandReply{false, *no};
  if (self->state.stopping) return CommandReply{false, "the node is stopping"};
  if (!setup.reload || !setup.node_config)
    return CommandReply{false, "this node has no configuration file to read again"};
  auto reloaded = setup.reload();
  if (!reloaded) {
    setup.context.warning("reconfiguration refused: " + reloaded.error());
    return CommandReply{false, "the configuration has an error, nothing changed: " + reloaded.error()};
  }
  setup.node_config->set(reloaded->config);
  // Each daemon's answer in its DAEMON_LIST place, so the reply reads the
  // same whichever answers first.
  struct Gathering {
    std::vector<std::optional<std::string>> done, failed;
    std::vector<std::string> notes;
    std::size_t waiting = 0;
  };
  auto g = std::make_shared<Gathering>();
  g->notes = reloaded->notes;
  g->done.resize(self->state.running.size());
  g->failed.resize(self->state.running.size());
  auto rp = self->make_response_promise<CommandReply>();
  auto finish = [self, setup, g, rp]() mutable {
    std::string text = "reconfigured MASTER";
    bool ok = true;
    for (const auto& d : g->done)
      if (d) text += " " + *d;
    for (const auto& f : g->failed)
      if (f) text += "; " + *f, ok = false;
    for (const std::string& n : g->notes) text += "; " + n;
    (ok ? setup.context.info(text) : setup.context.warning(text));
    publish_ad(self, setup);
    rp.deliver(CommandReply{ok, text});
  };
  for (std::size_t i = 0; i < self->state.running.size(); ++i)
    if (self->state.running[i].actor) ++g->waiting;
  if (g->waiting == 0) {
    finish();
    return rp;
  }
  for (std::size_t i = 0; i < self->state.running.size(); ++i) {
    const caf::actor& d = self->state.running[i].actor;
    if (!d) continue;
    const std::string name = setup.daemons[i].name;
    self->request(d, std::chrono::seconds(10), Reconfigure{})
        .then(
            [g, i, name, finish](CommandReply& r) mutable {
              if (r.ok)
                g->done[i] = name;
              else
                g->failed[i] = name + " kept its configuration: " + r.error;
              if (--g->waiting == 0) finish();
            },
            [g, i, name, finish](caf::error& e) mutable {
              g->failed[i] = name + " did not answer: " + caf::to_string(e);
              if (--g->waiting == 0) finish();
            });
  }
  return rp;
}

// ---- Stopping the node -------------------------------------------------------

bool is_startd(const MasterSetup& setup, std::size_t i) {
  return setup.daemons[i].name == "STARTD";
}

// Every daemon has ended: the node is stopped.
void finish_if_stopped(Self self, const MasterSetup& setup) {
  auto& st = self->state;
  if (!st.stopping || st.finished) return;
  for (const Running& r : st.running)
    if (r.actor) return;
  st.finished = true;
  setup.context.info("every daemon has stopped");
  if (setup.stopped) setup.stopped();
  self->quit(caf::exit_reason::user_shutdown);
}

// The daemons that have nothing to wind down stop once the startd is gone
// (its jobs' ends still reach their schedds and collectors).
void stop_the_rest(Self self, const MasterSetup& setup, caf::exit_reason how) {
  auto& st = self->state;
  for (std::size_t i = 0; i < st.running.size(); ++i)
    if (st.running[i].actor && !is_startd(setup, i)) self->send_exit(st.running[i].actor, how);
  finish_if_stopped(self, setup);
}

void arm_stop_deadline(Self self, std::int64_t seconds) {
  auto& st = self->state;
  ++st.stop_timer;
  self->delayed_send(self, std::chrono::seconds(std::max<std::int64_t>(0, seconds)),
                     Timer{kStopTimers - st.stop_timer});
}

void stop_node(Self self, const MasterSetup& setup, bool fast) {
  auto& st = self->state;
  if (st.finished || (st.stopping && (*st.stopping || !fast))) return;  // nothing new
  const bool escalating = st.stopping.has_value();
  st.stopping = fast;
  setup.context.info(escalating ? std::string("stopping fast now: jobs are killed")
                                : std::string("stopping ") + (fast ? "fast" : "gracefully"));
  bool startd = false;
  for (std::size_t i = 0; i < st.running.size(); ++i)
    if (st.running[i].actor && is_startd(setup, i)) {
      self->send(caf::actor_cast<startd_actor>(st.running[i].actor), NodeStop{fast});
      startd = true;
    }
  arm_stop_deadline(self, fast ? setup.shutdown_fast : setup.shutdown_graceful);
  if (!startd) stop_the_rest(self, setup, caf::exit_reason::user_shutdown);
}

// A stop deadline passed: graceful turns fast; fast kills what is left.
void stop_deadline(Self self, const MasterSetup& setup) {
  auto& st = self->state;
  if (!st.stopping || st.finished) return;
  if (!*st.stopping) {
    setup.context.warning("SHUTDOWN_GRACEFUL_TIMEOUT (" + std::to_string(setup.shutdown_graceful) +
                          " s) passed");
    return stop_node(self, setup, true);
  }
  setup.context.warning("SHUTDOWN_FAST_TIMEOUT (" + std::to_string(setup.shutdown_fast) +
                        " s) passed: the daemons left are killed");
  for (const Running& r : st.running)
    if (r.actor) self->send_exit(r.actor, caf::exit_reason::kill);
}

// One daemon stops (condor_off -daemon, condor_restart): a startd as the
// node's stop would have it (its jobs retire and vacate, or are killed
// when fast), the others at once.
void stop_daemon(Self self, const MasterSetup& setup, std::size_t i, bool fast) {
  const caf::actor& a = self->state.running[i].actor;
  if (!a) return;
  if (is_startd(setup, i))
    self->send(caf::actor_cast<startd_actor>(a), NodeStop{fast});
  else
    self->send_exit(a, fast ? caf::exit_reason::kill : caf::exit_reason::user_shutdown);
}

CommandReply control(Self self, const MasterSetup& setup, const DaemonControl& c) {
  auto& running = self->state.running;
  if (self->state.stopping) return CommandReply{false, "the node is stopping"};
  if (c.what != "off" && c.what != "on" && c.what != "restart")
    return CommandReply{false, "unknown daemon command '" + c.what + "': expected off, on or restart"};
  std::vector<std::size_t> which;
  std::string names;
  for (std::size_t i = 0; i < setup.daemons.size(); ++i) {
    names += (names.empty() ? "" : " ") + setup.daemons[i].name;
    if (c.daemon.empty() || iequals(c.daemon, setup.daemons[i].name)) which.push_back(i);
  }
  if (which.empty()) return CommandReply{false, "this node runs no " + c.daemon + "; it runs " + names};
  std::string done;
  for (std::size_t i : which) {
    Running& r = running[i];
    const std::string& name = setup.daemons[i].name;
    if (c.what == "on") {
      r.off = false;
      if (!r.actor) self->send(self, Timer{static_cast<std::int32_t>(i)});
    } else {
      r.off = c.what == "off";
      r.restart = c.what == "restart";
      if (r.actor)
        stop_daemon(self, setup, i, c.fast);
      else if (r.restart)
        r.restart = false, self->send(self, Timer{static_cast<std::int32_t>(i)});
    }
    done += (done.empty() ? "" : " ") + name;
  }
  setup.context.info(c.what + " " + done + (c.fast ? " (fast)" : "") + " by " +
                     setup.context.requester(self));
  return CommandReply{true, c.what + " " + done};
}

void announce(Self self, const MasterSetup& setup, std::size_t i) {
  self->monitor(self->state.running[i].actor);
  if (setup.gate)
    self->send(setup.gate, net::GateRegister{setup.daemons[i].name, self->state.running[i].actor});
}

master_actor::behavior_type master_behavior(Self self, MasterSetup setup, std::vector<caf::actor> spawned) {
  const std::int64_t now = setup.clock.now(self);
  for (std::size_t i = 0; i < spawned.size(); ++i) {
    self->state.running.push_back(Running{spawned[i], 0, now});
    announce(self, setup, i);
  }
  // Tools reach the master (condor_reconfig) through the gate too.
  if (setup.gate) self->send(setup.gate, net::GateRegister{"MASTER", caf::actor_cast<caf::actor>(self)});
  publish_ad(self, setup);
  if (setup.collectors)
    self->delayed_send(self, std::chrono::seconds(std::max<std::int64_t>(1, setup.update_interval)),
                       Timer{kAdTimer});
  self->set_down_handler([self, setup](caf::down_msg& d) {
    auto& running = self->state.running;
    for (std::size_t i = 0; i < running.size(); ++i) {
      if (caf::actor_cast<caf::actor_addr>(running[i].actor) != d.source) continue;
      running[i].actor = nullptr;
      if (!self->state.stopping) publish_ad(self, setup);  // the pool sees the daemon down now
      if (running[i].restart && !self->state.stopping) {   // condor_restart: up again at once
        running[i].restart = false;
        setup.context.info(setup.daemons[i].name + " stopped; starting it again");
        self->send(self, Timer{static_cast<std::int32_t>(i)});
        return;
      }
      if (running[i].off) {
        setup.context.info(setup.daemons[i].name + " stopped: off until `cara on`");
        return;
      }
      if (self->state.stopping) {
        setup.context.info(setup.daemons[i].name + " stopped");
        if (is_startd(setup, i))
          stop_the_rest(self, setup,
                        *self->state.stopping ? caf::exit_reason::kill : caf::exit_reason::user_shutdown);
        finish_if_stopped(self, setup);
        return;
      }
      if (d.reason == caf::exit_reason::normal || d.reason == caf::exit_reason::user_shutdown) {
        setup.context.info(setup.daemons[i].name + " stopped");
        return;
      }
      const node::RestartBackoff& backoff = setup.daemons[i].backoff;
      const std::int64_t now = setup.clock.now(self);
      // Ran long enough since its last start: recovered (daemon::Recover).
      if (now - running[i].started >= backoff.recover) running[i].restarts = 0;
      const std::int64_t delay = backoff.delay(running[i].restarts);
      ++running[i].restarts;
      setup.context.warning(setup.daemons[i].name + " died (" + caf::to_string(d.reason) +
                            "); restarting in " + std::to_string(delay) + " s");
      self->delayed_send(self, std::chrono::seconds(delay), Timer{static_cast<std::int32_t>(i)});
      return;
    }
  });
  return {
      [self, setup](Timer t) {
        if (!net::from_this_node(self)) return;  // its own timers only: no restart before the backoff
        if (t.what <= kStopTimers) {
          if (t.what == kStopTimers - self->state.stop_timer) stop_deadline(self, setup);
          return;
        }
        if (self->state.stopping) return;  // nothing restarts or advertises while the node stops
        if (t.what == kAdTimer) {
          publish_ad(self, setup);
          self->delayed_send(self, std::chrono::seconds(std::max<std::int64_t>(1, setup.update_interval)), t);
          return;
        }
        if (t.what < 0) return;
        const auto i = static_cast<std::size_t>(t.what);
        auto& running = self->state.running;
        if (i >= running.size() || running[i].actor || running[i].off) return;
        auto a = setup.daemons[i].spawn(self->system());
        if (!a) {
          const std::int64_t delay = setup.daemons[i].backoff.delay(running[i].restarts);
          ++running[i].restarts;
          setup.context.warning(setup.daemons[i].name + " cannot restart: " + a.error() + "; again in " +
                                std::to_string(delay) + " s");
          self->delayed_send(self, std::chrono::seconds(delay), t);
          return;
        }
        running[i].actor = *a;
        running[i].started = setup.clock.now(self);
        announce(self, setup, i);
        publish_ad(self, setup);  // and up again
        // The node's other daemons report to the local collector: they
        // learn where the new one is (HTCondor's daemons find it by address).
        if (setup.daemons[i].name == "COLLECTOR") tell_collectors(self, setup);
        setup.context.info(setup.daemons[i].name + " restarted (restart " +
                           std::to_string(running[i].restarts) + ")");
      },
      [self, setup](ReconfigRequest&) { return reconfigure(self, setup); },
      [self, setup](NodeStop& n) {
        if (net::from_this_node(self)) stop_node(self, setup, n.fast);
      },
      [self, setup](OffRequest& o) {
        if (auto no = setup.context.refused(self, net::Permission::Administrator, "master"))
          return CommandReply{false, *no};
        setup.context.info(std::string("off (") + (o.fast ? "fast" : "graceful") + ") by " +
                           setup.context.requester(self));
        if (setup.request_stop)
          setup.request_stop(o.fast);
        else
          self->send(self, NodeStop{o.fast});
        return CommandReply{true, o.fast ? "stopping fast" : "stopping gracefully"};
      },
      [self, setup](DaemonControl& c) -> CommandReply {
        if (auto no = setup.context.refused(self, net::Permission::Administrator, "master"))
          return CommandReply{false, *no};
        return control(self, setup, c);
      },
      [self, setup](PingRequest&) {
        PingReply r;
        for (const DaemonSpawn& d : setup.daemons) r.daemons.push_back(d.name);
        const net::Permission levels[] = {net::Permission::Read, net::Permission::Write,
                                          net::Permission::Administrator, net::Permission::Daemon,
                                          net::Permission::Negotiator};
        // This node's own process (and an embedded pool) may do anything.
        auto sender = self->current_sender();
        const bool local = !setup.context.guard || (sender && sender->node() == self->system().node());
        std::optional<net::Identity> who;
        if (!local && sender) who = setup.context.guard->identity(sender->node());
        r.identity = local ? "this node" : who ? who->text() : "unknown";
        const auto rules = setup.context.guard ? setup.context.guard->authorization() : nullptr;
        for (net::Permission p : levels) {
          // Asked of the rules, not the guard: a ping's "no" is an answer, not a refusal to log.
          const bool ok = local || (who && rules && !rules->refuse(p, *who));
          (ok ? r.allowed : r.refused).push_back(net::permission_name(p));
        }
        return r;
      },
      [self, setup](Collectors&) {
        if (!net::from_this_node(self)) return;
        publish_ad(self, setup);  // it reads them from `collectors`
        tell_collectors(self, setup);
      },
      [self, setup](MasterStatusQuery) {
        MasterStatus s;
        if (!net::from_this_node(self)) return s;  // the node's daemons are for the node
        for (std::size_t i = 0; i < self->state.running.size(); ++i) {
          s.names.push_back(setup.daemons[i].name);
          s.restarts.push_back(self->state.running[i].restarts);
          s.daemons.push_back(self->state.running[i].actor);
        }
        return s;
      },
  };
}

}  // namespace

Result<master_actor> spawn_master(caf::actor_system& sys, MasterSetup setup) {
  std::vector<caf::actor> spawned;
  for (const DaemonSpawn& d : setup.daemons) {
    auto a = d.spawn(sys);
    if (!a) {
      for (const caf::actor& s : spawned) caf::anon_send_exit(s, caf::exit_reason::user_shutdown);
      return Error{d.name + ": " + a.error()};
    }
    spawned.push_back(*a);
  }
  return sys.spawn(master_behavior, std::move(setup), std::move(spawned));
}

}  // namespace cara::actors
