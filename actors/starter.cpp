#include "actors/starter.h"

#include <caf/actor_system.hpp>
#include <caf/send.hpp>
#include <caf/typed_event_based_actor.hpp>
#include <csignal>

#include "model/startd/slot_state.h"

namespace cara::actors {
namespace {

struct StarterState {
  std::int64_t handle = -1;
  int kill_sig = SIGTERM;
  bool exited = false;
  std::shared_ptr<std::int64_t> running;  // the handle while the job runs, else -1
  static inline const char* name = "starter";
};

using Self = starter_actor::stateful_pointer<StarterState>;

starter_actor::behavior_type starter_actions(Self self, slot_actor slot, std::shared_ptr<JobRunner> runner);

starter_actor::behavior_type starter_behavior(Self self, classad::ClassAd job, startd::RunAs account,
                                              slot_actor slot, std::shared_ptr<JobRunner> runner) {
  if (!account.ok) {
    // No account may run it here (its owner is root, or unknown): held.
    self->send(self, StarterExit{false, 0, account.hold_reason, startd::kHoldFailedToAccessUserAccount});
    return starter_actions(self, slot, runner);
  }
  if (auto launch = job_launch(job)) self->state.kill_sig = launch->kill_sig;
  starter_actor me = self;
  auto started = runner->start(job, account, [me](ProcessExit e) {
    caf::anon_send(me, StarterExit{e.by_signal, e.code, e.error, 0});
  });
  // However the starter ends (its slot or startd stopped), the job's
  // process group does not outlive it.
  auto running = std::make_shared<std::int64_t>(started ? *started : -1);
  self->attach_functor([running, runner](const caf::error&) {
    if (*running >= 0) runner->signal(*running, SIGKILL);
  });
  self->state.running = running;
  if (!started) {
    // Reported like an exit, with the reason: the schedd holds the job.
    self->send(self, StarterExit{false, 0, started.error(), 0});
  } else {
    self->state.handle = *started;
  }
  return starter_actions(self, slot, runner);
}

starter_actor::behavior_type starter_actions(Self self, slot_actor slot, std::shared_ptr<JobRunner> runner) {
  return {
      [self, runner](StarterSignal s) {
        if (self->state.exited || self->state.handle < 0) return;
        int sig = 0;
        switch (s.signal) {
          case JobSignal::Suspend: sig = SIGSTOP; break;
          case JobSignal::Continue: sig = SIGCONT; break;
          case JobSignal::SoftKill: sig = self->state.kill_sig; break;
          case JobSignal::HardKill: sig = SIGKILL; break;
        }
        if (sig == 0) return;  // not one of ours
        runner->signal(self->state.handle, sig);
        // A stopped job must run again to act on the soft kill.
        if (sig != SIGSTOP && sig != SIGCONT) runner->signal(self->state.handle, SIGCONT);
      },
      [self, slot](StarterExit& e) {
        if (self->state.exited) return;
        self->state.exited = true;
        if (self->state.running) *self->state.running = -1;
        self->send(slot, std::move(e));
        self->quit();
      },
  };
}

}  // namespace

starter_actor spawn_starter(caf::actor_system& sys, classad::ClassAd job, startd::RunAs account,
                            slot_actor slot, std::shared_ptr<JobRunner> runner) {
  return sys.spawn(starter_behavior, std::move(job), std::move(account), std::move(slot), std::move(runner));
}

}  // namespace cara::actors
