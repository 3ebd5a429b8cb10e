#include "model/startd/slot_state.h"

namespace cara::startd {

const char* state_name(State s) {
  switch (s) {
    case State::Owner: return "Owner";
    case State::Unclaimed: return "Unclaimed";
    case State::Matched: return "Matched";
    case State::Claimed: return "Claimed";
    case State::Preempting: return "Preempting";
    case State::Backfill: return "Backfill";
    case State::Drained: return "Drained";
  }
  return "?";
}

const char* activity_name(Activity a) {
  switch (a) {
    case Activity::Idle: return "Idle";
    case Activity::Benchmarking: return "Benchmarking";
    case Activity::Busy: return "Busy";
    case Activity::Suspended: return "Suspended";
    case Activity::Retiring: return "Retiring";
    case Activity::Vacating: return "Vacating";
    case Activity::Killing: return "Killing";
  }
  return "?";
}

const char* action_name(ActionKind k) {
  switch (k) {
    case ActionKind::AcceptClaim: return "AcceptClaim";
    case ActionKind::ClaimPending: return "ClaimPending";
    case ActionKind::RefuseClaim: return "RefuseClaim";
    case ActionKind::StartJob: return "StartJob";
    case ActionKind::SuspendJob: return "SuspendJob";
    case ActionKind::ContinueJob: return "ContinueJob";
    case ActionKind::SoftKill: return "SoftKill";
    case ActionKind::HardKill: return "HardKill";
    case ActionKind::ClaimEnded: return "ClaimEnded";
    case ActionKind::RunBenchmarks: return "RunBenchmarks";
    case ActionKind::StartBackfill: return "StartBackfill";
    case ActionKind::KillBackfill: return "KillBackfill";
    case ActionKind::Advertise: return "Advertise";
  }
  return "?";
}

}  // namespace cara::startd
