// The group actor: one per accounting group of the negotiator's GroupTree
// (GROUP_NAMES, and <none> for everyone else). It holds the group's quota
// and what the last cycle made of it: configured, effective and subtree
// quota, demand, allocation, usage, matches, and its turn (the place
// GROUP_SORT_EXPR gave it among the groups). The cycle itself is one
// model computation over all groups (negotiation_cycle.h: surplus moves
// between groups within it), so the negotiator hands each group its turn
// after the cycle, in turn order; between cycles the group answers for
// itself (`cara userprio` lists the groups from their reports).
#pragma once

#include <caf/fwd.hpp>
#include <string>

#include "actors/interfaces.h"

namespace cara::actors {

// A group with its configured quota (`configured`: the GroupTree's) and no
// cycle yet.
group_actor spawn_group(caf::actor_system& sys, std::string name, double configured);

}  // namespace cara::actors
