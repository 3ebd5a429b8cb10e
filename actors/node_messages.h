// Messages between the actors of one node: the startd and its slot
// actors, a slot and its starter, and the timers actors send themselves.
// They never leave the process, but have `inspect` overloads like every
// other message so they print in logs and a misrouted one fails cleanly.
#pragma once

#include <caf/actor.hpp>
#include <caf/meta/type_name.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "actors/handles.h"
#include "actors/wire_ad.h"
#include "model/startd/run_as.h"
#include "model/startd/slot_state.h"

namespace cara::actors {

// A slot actor hands an event to the startd, which owns the machine's
// state machines (model/startd/startd.h).
enum class SlotCallKind : std::int32_t { Match, Claim, Activate, Release, JobExited, Vacate, ReleaseAtOnce };
// For logs and printed messages ("claim", "job exit").
std::string to_string(SlotCallKind kind);

struct SlotCall {
  std::string slot;
  SlotCallKind kind = SlotCallKind::Match;
  std::string claim_id;
  WireAd job;
  bool preempting = false;
  schedd_actor schedd;                          // Claim: who holds the claim
  std::vector<std::string> preempt_dslots;      // Claim: ClaimSlot::preempt_dslots
  bool leftovers = false;                       // Claim: ClaimSlot::leftovers
  std::int64_t owner_uid = -1, owner_gid = -1;  // Activate: ActivateClaim's
};
template <class I>
typename I::result_type inspect(I& f, SlotCall& x) {
  return f(caf::meta::type_name("SlotCall"), x.slot, x.kind, x.claim_id, x.job, x.preempting, x.schedd,
           x.preempt_dslots, x.leftovers, x.owner_uid, x.owner_gid);
}
// The startd answers every slot call as it answers a claim (ClaimReply,
// messages.h): whether it was taken, why not, and for a claim the slot
// that holds it.
// The startd tells a slot actor to carry out an action of its state
// machine (startd::ActionKind).
struct SlotOrder {
  startd::ActionKind action = startd::ActionKind::AcceptClaim;
  std::string claim_id;
  std::string reason;
  schedd_actor schedd;    // AcceptClaim: the claim's holder
  startd::RunAs account;  // StartJob: whom the job runs as (the startd decides)
};
template <class I>
typename I::result_type inspect(I& f, SlotOrder& x) {
  return f(caf::meta::type_name("SlotOrder"), x.action, x.claim_id, x.reason, x.schedd, x.account);
}

// A starter's job process ended.
struct StarterExit {
  bool by_signal = false;
  std::int32_t code = 0;
  std::string error;           // the process could not be started (then no exit code)
  std::int32_t hold_code = 0;  // with `error`: JobFinished::hold_code
};
template <class I>
typename I::result_type inspect(I& f, StarterExit& x) {
  return f(caf::meta::type_name("StarterExit"), x.by_signal, x.code, x.error, x.hold_code);
}

// The slot tells its starter to signal the job: SIGSTOP, SIGCONT, the
// job's kill signal, SIGKILL (startd::ActionKind's SuspendJob, ContinueJob,
// SoftKill and HardKill; nothing else can be asked of a starter).
enum class JobSignal : std::int32_t { Suspend, Continue, SoftKill, HardKill };
std::string to_string(JobSignal signal);
struct StarterSignal {
  JobSignal signal = JobSignal::Suspend;
};
template <class I>
typename I::result_type inspect(I& f, StarterSignal& x) {
  return f(caf::meta::type_name("StarterSignal"), x.signal);
}

// A timer an actor set for itself; `what` is the actor's own code.
struct Timer {
  std::int32_t what = 0;
};
template <class I>
typename I::result_type inspect(I& f, Timer& x) {
  return f(caf::meta::type_name("Timer"), x.what);
}

// Where a daemon's collectors are now (its node's master after restarting
// the local collector, or the node after the central manager's collector
// came back): they replace the ones it was given.
struct Collectors {
  std::vector<collector_actor> collectors;
};
template <class I>
typename I::result_type inspect(I& f, Collectors& x) {
  return f(caf::meta::type_name("Collectors"), x.collectors);
}

// The node tells its collector where to forward updates (CONDOR_VIEW_HOST),
// as it reaches each view collector.
struct ViewHosts {
  std::vector<collector_actor> collectors;
};
template <class I>
typename I::result_type inspect(I& f, ViewHosts& x) {
  return f(caf::meta::type_name("ViewHosts"), x.collectors);
}

// A central manager's had tells its collector of the other central
// managers' collectors (from their heartbeats): one it had not known, or
// that came back, is asked for what it holds, so that a collector that
// (re)started is at once as full as its peers (issue 22).
struct CollectorPeers {
  std::vector<collector_actor> collectors;
};
template <class I>
typename I::result_type inspect(I& f, CollectorPeers& x) {
  return f(caf::meta::type_name("CollectorPeers"), x.collectors);
}

// The node's master tells a daemon that the node's configuration changed
// (DaemonContext::current_config): it applies what it can in place and
// answers with a CommandReply. Only this node's master may send it.
struct Reconfigure {};
template <class I>
typename I::result_type inspect(I& f, Reconfigure&) {
  return f(caf::meta::type_name("Reconfigure"));
}

// The node is stopping (its master tells its daemons): a startd lets its
// jobs leave — retiring and vacating, or killed when `fast` — and ends
// when none is left. Only this node's master may send it.
struct NodeStop {
  bool fast = false;
};
template <class I>
typename I::result_type inspect(I& f, NodeStop& x) {
  return f(caf::meta::type_name("NodeStop"), x.fast);
}

}  // namespace cara::actors

// The run-as decision travels in SlotOrder: its inspect overloads live in
// the model's namespaces (where argument-dependent lookup finds them) but
// here, as model/ knows nothing of CAF.
namespace cara {
template <class I>
typename I::result_type inspect(I& f, Account& x) {
  return f(caf::meta::type_name("Account"), x.name, x.uid, x.gid, x.groups);
}
}  // namespace cara

namespace cara::startd {
template <class I>
typename I::result_type inspect(I& f, RunAs& x) {
  return f(caf::meta::type_name("RunAs"), x.ok, x.account, x.switch_user, x.how, x.not_owner, x.hold_reason);
}
}  // namespace cara::startd
