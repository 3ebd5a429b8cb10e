// The Remote* attributes a cycle adds to the slot ads it negotiates for
// (user-priorities-and-negotiation, "Priorities in Negotiation and
// Preemption": RemoteUserPrio, RemoteUserResourcesInUse, RemoteGroup, ...,
// on a slot running a job, and Slot<N>_RemoteUserPrio on every slot of
// its machine), and which of them a cycle's expressions can read.
//
// They exist for the cycle's own expressions alone (the negotiator sends
// the collector's ads, not these copies), so an ad no expression can read
// them from is left as it is: a pool of slots running jobs that no request
// may take (PREEMPTION_REQUIREMENTS = False, a Rank that reads nothing of
// the job) then costs the cycle no copy of those ads (issue 29: the
// simulator's cycles; issue 30: phase 2 of a site's pool).
#pragma once

#include <string_view>

#include "model/classad/references.h"

namespace cara::negotiation {

struct ClassNames;
class SlotClasses;

// RemoteUserPrio, RemoteUserResourcesInUse, RemoteGroup,
// RemoteNegotiatingGroup, RemoteAutoregroup, RemoteGroupQuota or
// RemoteGroupResourcesInUse (any case).
bool is_remote_attribute(std::string_view name);
// Slot<N>_RemoteUserPrio, N a number (any case).
bool is_machine_remote_prio(std::string_view name);

// Which annotations a cycle writes.
struct RemoteReads {
  // On a busy slot a request may take (its preemption rules and the
  // negotiator's ranks read it): the negotiator's expressions, the
  // requests' or the slots' own read a Remote* attribute.
  bool takeable = true;
  // On a busy slot no request can take: only its match with a request is
  // evaluated (for the rejection reason), so only the requests' and the
  // slots' expressions count.
  bool untakeable = true;
  // Slot<N>_RemoteUserPrio on the slots of a machine with busy slots.
  bool machine = true;

  static RemoteReads all() { return {}; }
};

// What the negotiator's and the requests' expressions read (the slots'
// own are known once their classes are keyed: below).
RemoteReads remote_reads(const ClassNames& read);

// Whether an expression of a slot that `classes` followed refers to a
// Remote* attribute or a Slot<N>_RemoteUserPrio.
bool slots_read_remote_attributes(const SlotClasses& classes);

}  // namespace cara::negotiation
