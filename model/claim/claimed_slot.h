// Where a restarted schedd finds the slot a stored claim is on (job
// leases, model/schedd/job_claim.h), from the collector's Machine ads of
// that slot's machine. A startd advertises all its slots at once when it
// starts and withdraws a dynamic slot's ad when the slot goes, so a
// machine whose ads are there without the slot no longer has the claim;
// an ad of the slot older than the startd that advertises the machine now
// (DaemonStartTime) is one a crashed startd left behind.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "model/classad/classad.h"

namespace cara::claim {

enum class SlotSearch {
  Found,    // ask the slot at `index`
  Gone,     // the claim cannot be there any more
  Unknown,  // the collector knows nothing of the machine (yet): ask again later
};

struct ClaimedSlot {
  SlotSearch result = SlotSearch::Unknown;
  std::size_t index = 0;
  std::string why;  // for Gone and Unknown
};

// The machine part of a slot's name: what follows its '@' (all of it
// when there is none).
std::string machine_of(const std::string& slot_name);

// `ads`: the collector's Machine ads whose Name is `slot_name` or whose
// Machine is machine_of(slot_name).
ClaimedSlot find_claimed_slot(const std::string& slot_name, const std::vector<classad::ClassAd>& ads);

}  // namespace cara::claim
