// The attribute names a cycle's slot classes must tell apart (phase 3,
// HTCondor's "sorting and trimming"; slot_classes.h): what the
// negotiator's expressions read, and what the requests' own expressions
// read of a slot — the names the match itself reads, which key the
// families.
#pragma once

#include <vector>

#include "model/classad/references.h"
#include "model/negotiation/cycle_types.h"
#include "model/negotiation/negotiator_policy.h"

namespace cara::negotiation {

struct ClassNames {
  classad::NameSet names;        // the negotiator's expressions
  classad::NameSet match_names;  // the requests' Requirements, Rank, limits and resource requests
};

ClassNames class_names(const NegotiatorPolicy& policy, const std::vector<SubmitterRequests>& submitters);

}  // namespace cara::negotiation
