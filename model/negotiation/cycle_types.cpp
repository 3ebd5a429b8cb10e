// The outcome of a negotiation cycle: reason names, HTCondor's
// LastNegotiationCycle* statistics and the groups' turn order
// (central-manager-configuration, "The Negotiation Cycle").
#include "model/negotiation/cycle_types.h"

#include <algorithm>
#include <climits>

namespace cara::negotiation {

const char* reason_name(MatchReason r) {
  switch (r) {
    case MatchReason::NoPreemption: return "NoPreemption";
    case MatchReason::Rank: return "Rank";
    case MatchReason::Priority: return "Priority";
  }
  return "NoPreemption";
}

std::vector<std::pair<std::string, double>> CycleStats::attributes() const {
  auto d = [](std::int64_t v) { return static_cast<double>(v); };
  return {
      {"LastNegotiationCycleTime0", d(time)},
      {"LastNegotiationCycleDuration0", duration},
      {"LastNegotiationCyclePhase1Duration0", duration_phase1},
      {"LastNegotiationCyclePhase2Duration0", duration_phase2},
      {"LastNegotiationCyclePhase3Duration0", duration_phase3},
      {"LastNegotiationCyclePhase4Duration0", duration_phase4},
      {"LastNegotiationCycleMatches0", d(matches)},
      {"LastNegotiationCycleRejections0", d(rejections)},
      {"LastNegotiationCycleMatchRate0", match_rate},
      {"LastNegotiationCycleNumIdleJobs0", d(num_idle_jobs)},
      {"LastNegotiationCycleNumJobsConsidered0", d(num_jobs_considered)},
      {"LastNegotiationCycleTotalSlots0", d(total_slots)},
      {"LastNegotiationCycleTrimmedSlots0", d(trimmed_slots)},
      {"LastNegotiationCycleCandidateSlots0", d(candidate_slots)},
      {"LastNegotiationCycleDescribedSlots0", d(described_slots)},
      {"LastNegotiationCycleSummedSlots0", d(summed_slots)},
      {"LastNegotiationCycleActiveSubmitterCount0", d(active_submitter_count)},
      {"LastNegotiationCyclePies0", d(pies)},
      {"LastNegotiationCyclePieSpins0", d(pie_spins)},
  };
}

std::vector<const GroupOutcome*> groups_in_turn_order(const CycleResult& result) {
  std::vector<const GroupOutcome*> turns;
  for (const GroupOutcome& o : result.groups) turns.push_back(&o);
  std::stable_sort(turns.begin(), turns.end(), [](const GroupOutcome* a, const GroupOutcome* b) {
    return (a->turn < 0 ? INT32_MAX : a->turn) < (b->turn < 0 ? INT32_MAX : b->turn);
  });
  return turns;
}

}  // namespace cara::negotiation
