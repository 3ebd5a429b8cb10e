// Whether a request's job matched each slot family, kept across the pie
// spins of a cycle (issue 30; HTCondor keeps each autocluster's match list
// for the cycle: NEGOTIATOR_MATCHLIST_CACHING). The match is
// idle_candidate(): both Requirements and, for a partitionable slot, the
// consumption policy. A family's slots agree on everything the match reads
// of a slot (slot_classes.h), and from spin to spin the job differs only
// in the Submitter* attributes the negotiator adds to it
// (user-priorities-and-negotiation, "Priorities in Negotiation and
// Preemption"), so an answer holds while those of them the match reads
// keep their values. Across cycles: match_memo.h.
#pragma once

#include <cstddef>
#include <vector>

#include "model/classad/value.h"

namespace cara::negotiation {

class FamilyMatches {
 public:
  static constexpr signed char kUnknown = -1, kNo = 0, kYes = 1;

  // `stamp`: the values, in the job about to be matched, of the Submitter*
  // attributes the match reads. Answers given under another stamp are
  // forgotten.
  void renew(std::vector<classad::Value> stamp);
  signed char get(int family) const {
    const auto f = static_cast<std::size_t>(family);
    return f < known_.size() ? known_[f] : kUnknown;
  }
  void set(int family, bool matched);

 private:
  std::vector<signed char> known_;  // by family
  std::vector<classad::Value> stamp_;
  bool stamped_ = false;
};

}  // namespace cara::negotiation
