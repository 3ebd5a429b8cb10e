// The job attributes the negotiator asks schedds to group idle jobs by
// (central-manager-configuration, "Significant attributes"; autocluster.h):
// those that the slots' START, Requirements and Rank and the negotiator's
// own rank and preemption expressions read. The negotiator actor and the
// simulator both ask schedds with this list.
#pragma once

#include <string>
#include <vector>

#include "model/classad/classad.h"
#include "model/negotiation/negotiator_policy.h"

namespace cara::negotiation {

class SlotBoard;
class SlotMemo;

// With a `memo` (slot_memo.h), what an ad it remembers reads is worked out
// once while the ad is unchanged.
std::vector<std::string> significant_attributes(const NegotiatorPolicy& policy,
                                                const std::vector<classad::ClassAd>& slots,
                                                SlotMemo* memo = nullptr);
// The same over the slots of `board` (slot_board.h), prepared for `policy`:
// what each of its ads reads is worked out once, when it is set.
std::vector<std::string> significant_attributes(const NegotiatorPolicy& policy, SlotBoard& board);

}  // namespace cara::negotiation
