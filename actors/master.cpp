#include "actors/master.h"

#include <caf/actor_system.hpp>
#include <caf/send.hpp>
#include <caf/typed_event_based_actor.hpp>

#include "net/gate_messages.h"

namespace cara::actors {
namespace {

struct Running {
  caf::actor actor;
  std::int32_t restarts = 0;
  std::int64_t started = 0;
};

struct MasterState {
  std::vector<Running> running;  // as setup.daemons
  static inline const char* name = "master";
};

using Self = master_actor::stateful_pointer<MasterState>;

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
  self->set_down_handler([self, setup](caf::down_msg& d) {
    auto& running = self->state.running;
    for (std::size_t i = 0; i < running.size(); ++i) {
      if (caf::actor_cast<caf::actor_addr>(running[i].actor) != d.source) continue;
      running[i].actor = nullptr;
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
        const auto i = static_cast<std::size_t>(t.what);
        auto& running = self->state.running;
        if (i >= running.size() || running[i].actor) return;
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
        // The node's other daemons report to the local collector: they
        // learn where the new one is (HTCondor's daemons find it by address).
        if (setup.daemons[i].name == "COLLECTOR")
          for (std::size_t j = 0; j < running.size(); ++j)
            if (j != i && running[j].actor)
              caf::send_as(caf::actor_cast<caf::actor>(self), running[j].actor, Collectors{{*a}});
        setup.context.info(setup.daemons[i].name + " restarted (restart " +
                           std::to_string(running[i].restarts) + ")");
      },
      [self, setup](MasterStatusQuery) {
        MasterStatus s;
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
