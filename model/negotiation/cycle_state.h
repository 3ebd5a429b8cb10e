// What one negotiation cycle knows of each submitter and each of its
// requests while it negotiates (negotiation_cycle.cpp): its usage and
// slice, where its turn is, what each request matched and why one stopped.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/negotiation/family_matches.h"

namespace cara::negotiation {

struct RequestState {
  std::int64_t matched = 0;
  bool rejected = false;
  std::string reason;  // why it was rejected, or the last limit that stopped it
  double job_weight = 1;
  FamilyMatches matches;             // what its job gave each family's match in earlier spins
  signed char reads_submitter = -1;  // its match may read the Submitter* attributes; -1: not known yet
};

struct SubmitterState {
  std::size_t input = 0;
  std::string name, key, group;
  int node = -1;  // the group's node in the tree
  double rup = 0, eup = 0;
  double usage = 0, initial_usage = 0;
  std::optional<double> floor, ceiling;
  std::vector<RequestState> requests;
  std::size_t cursor = 0;
  bool exhausted = false;
  double pie_slice = 0;
  std::int64_t matched = 0;
  double matched_weight = 0;
};

}  // namespace cara::negotiation
