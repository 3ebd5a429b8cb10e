#include "apps/node/node_stop.h"

#include <caf/actor_system.hpp>
#include <caf/scoped_actor.hpp>
#include <cstdlib>

#include "actors/interfaces.h"

namespace cara::apps {

namespace {

const char* signal_name(int sig) {
  switch (sig) {
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGQUIT: return "SIGQUIT";
    default: return "signal";
  }
}

}  // namespace

sigset_t block_stop_signals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGQUIT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  return signals;
}

std::string stop_signal_name(int sig) {
  return signal_name(sig);
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

}  // namespace cara::apps
