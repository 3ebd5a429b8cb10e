// How a node is asked to stop and how long it may take (condor_master's
// rules): SIGTERM or SIGINT gracefully — jobs retire and vacate — within
// SHUTDOWN_GRACEFUL_TIMEOUT, SIGQUIT fast — jobs are killed — within
// SHUTDOWN_FAST_TIMEOUT; `cara off` raises the same signals.
#pragma once

#include <atomic>
#include <caf/fwd.hpp>
#include <chrono>
#include <csignal>
#include <string>

#include "actors/master.h"
#include "apps/node/node_plan.h"
#include "os/daemon_log.h"

namespace cara::apps {

// How long the actor system may take to end after its daemons stopped.
constexpr std::chrono::seconds kTeardownLimit{10};

// Blocks SIGTERM, SIGINT and SIGQUIT in this thread and every thread it
// starts (they are taken by sigwait), and returns that set.
sigset_t block_stop_signals();
std::string stop_signal_name(int sig);

// Waits for a stop signal, has the master stop the node, and returns the
// first signal once `stopped` (see node_stop.cpp for the escalation).
int await_stop(const sigset_t& signals, const actors::master_actor& master, caf::actor_system& sys,
               const NodePlan& plan, os::DaemonLog& log, const std::atomic<bool>& stopped);

}  // namespace cara::apps
