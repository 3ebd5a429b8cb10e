// The submitter actor: one per submitter per schedd (DESIGN.md). It is the
// address of the submitter's Submitter ad in the collector, so the
// negotiator asks it for the submitter's resource requests (one per
// autocluster); it gets them from its schedd, which owns the queue. The
// schedd sends it the current Submitter ad (idle and running counts) when
// they change, and it advertises the ad to the collectors.
#pragma once

#include <caf/fwd.hpp>
#include <vector>

#include "actors/interfaces.h"

namespace cara::actors {

submitter_actor spawn_submitter(caf::actor_system& sys, schedd_actor schedd,
                                std::vector<collector_actor> collectors);

}  // namespace cara::actors
