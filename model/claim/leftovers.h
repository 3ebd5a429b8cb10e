// CLAIM_PARTITIONABLE_LEFTOVERS ("scheduler matchmaking"): a claim that
// carved a dynamic slot from a partitionable slot may get a claim id for
// what is left of it, so its schedd can start more of its jobs there
// without waiting for the next negotiation cycle.
#pragma once

#include "model/classad/classad.h"

namespace cara::claim {

struct LeftoverCase {
  bool asked = false;    // the schedd asked for leftovers (its CLAIM_PARTITIONABLE_LEFTOVERS)
  bool granted = false;  // the claim was granted at once (not pending, not refused)
  bool carved = false;   // it holds a dynamic slot carved from the partitionable one
};

// Whether the rest of `pslot` (the partitionable slot's ad after the
// carving) is offered: only for a claim asked, granted and carved; never
// when a consumption policy lets the negotiator split the slot itself
// (ConsumptionCpus), nor when too little is left (no whole CPU or no
// memory).
bool offers_leftovers(const LeftoverCase& c, const classad::ClassAd& pslot);

}  // namespace cara::claim
