#include "actors/node_messages.h"

namespace cara::actors {

// Switches without a default: a new kind that is not named here does not
// compile (-Wswitch).
std::string to_string(SlotCallKind kind) {
  switch (kind) {
    case SlotCallKind::Match: return "match";
    case SlotCallKind::Claim: return "claim";
    case SlotCallKind::Activate: return "activation";
    case SlotCallKind::Release: return "release";
    case SlotCallKind::JobExited: return "job exit";
    case SlotCallKind::Vacate: return "vacate";
    case SlotCallKind::ReleaseAtOnce: return "release (its job stopped)";
  }
  return "slot call " + std::to_string(static_cast<std::int32_t>(kind));  // not one of ours (from the wire)
}

std::string to_string(JobSignal signal) {
  switch (signal) {
    case JobSignal::Suspend: return "suspend";
    case JobSignal::Continue: return "continue";
    case JobSignal::SoftKill: return "soft kill";
    case JobSignal::HardKill: return "hard kill";
  }
  return "signal " + std::to_string(static_cast<std::int32_t>(signal));
}

}  // namespace cara::actors
