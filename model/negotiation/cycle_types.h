// What a negotiation cycle takes and gives (central-manager-configuration,
// "The Negotiation Cycle").
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/classad/classad.h"
#include "model/negotiation/concurrency_limits.h"
#include "model/schedd/job_status.h"

namespace cara::negotiation {

// Threads a cycle's per-slot work may use (model/common/parallel.h), and
// the fewest slots worth a thread: below some hundreds, starting one costs
// more than it saves.
inline constexpr std::size_t kMinSlotsPerThread = 512;
struct Threads {
  int count = 1;
  std::size_t min_slots = kMinSlotsPerThread;
};

// One resource request: an autocluster of idle jobs alike to the
// negotiator (schedd/autocluster.h), in the schedd's offer order.
struct Request {
  const classad::ClassAd* job = nullptr;  // the first job; the others are alike
  std::int64_t count = 1;
  std::vector<schedd::JobId> job_ids;  // the idle jobs, in offer order (may be empty)
};

struct SubmitterRequests {
  std::string name;  // the accounting principal: group.user@domain or user@domain
  std::vector<Request> requests;
};

enum class MatchReason { NoPreemption, Rank, Priority };
const char* reason_name(MatchReason r);

struct Match {
  std::string submitter;
  std::string group;              // the submitter's accounting group ("<none>" when none)
  std::string negotiating_group;  // the group it negotiated under (differs with autoregroup)
  std::size_t submitter_index = 0, request = 0;
  std::int64_t job = 0;                 // index of the job within the request
  std::optional<schedd::JobId> job_id;  // from Request::job_ids, when it names the job
  std::size_t slot = 0;                 // index into the input slots
  std::string slot_name;
  MatchReason reason = MatchReason::NoPreemption;
  std::optional<std::string>
      preempts;  // the submitter of the job it evicts (the first, with pslot preemption)
  // ALLOW_PSLOT_PREEMPTION: the dynamic slots (input indices and names)
  // whose jobs a match to their partitionable slot evicts.
  std::vector<std::size_t> victims;
  std::vector<std::string> victim_names;
  double weight = 1;  // SlotWeight charged
  std::vector<LimitUse> concurrency_limits;
};

struct Rejection {
  std::string submitter;
  std::size_t request = 0;
  std::optional<schedd::JobId> job_id;  // the first job of the request that was not matched
  std::string reason;                   // "no match found", "submitter limit exceeded", ...
};

struct SubmitterOutcome {
  std::string name, group;
  double rup = 0, eup = 0;
  double pie_slice = 0;  // the last share computed for it
  double usage = 0;      // SlotWeight held before the cycle
  std::int64_t matched = 0;
  double matched_weight = 0;
  // Why requests it still had were not even tried: "submitter limit
  // exceeded" (at its ceiling) or "group quota exceeded" (its group had no
  // room left); empty when none waited for that (condor_q -better-analyze
  // names it).
  std::string held_back;
};

struct GroupOutcome {
  std::string name;
  double configured_quota = 0, effective_quota = 0, subtree_quota = 0;
  double allocated = 0, requested = 0, usage = 0;
  bool accept_surplus = false, oversubscribed = false;
  std::int64_t matched = 0;
  // The group's turn: its place in the order groups negotiated in (the
  // first round's GROUP_SORT_EXPR values, ascending), -1 when it had none.
  std::int32_t turn = -1;
  double sort_key = 0;
};

// HTCondor's LastNegotiationCycle* statistics, by the same names.
struct CycleStats {
  std::int64_t time = 0;  // Now
  double duration = 0, duration_phase1 = 0, duration_phase2 = 0, duration_phase3 = 0, duration_phase4 = 0;
  std::int64_t matches = 0, rejections = 0;
  double match_rate = 0;  // matches per second of the cycle
  std::int64_t num_idle_jobs = 0, num_jobs_considered = 0;
  std::int64_t total_slots = 0, trimmed_slots = 0, candidate_slots = 0;
  std::int64_t active_submitter_count = 0, pies = 0, pie_spins = 0;
  std::int64_t slot_classes = 0;  // equivalence classes of candidate slots
  std::int64_t slot_evaluations = 0;
  // (request, family) matches an earlier cycle answered (match_memo.h).
  std::int64_t kept_matches = 0;
  std::int64_t presorted_walks = 0;  // (request, family) pairs served in presorted order (class_ranks.h)
  std::int64_t prefiltered = 0;      // (request, family) pairs ruled out unevaluated (request_prefilter.h)
  std::int64_t candidate_lists = 0;  // potential match lists built (one per request and spin it is tried in)
  std::int64_t rank_views = 0;       // pool-wide orders made (rank_views.h), the base included
  std::int64_t annotated_slots = 0;  // slot ads given Remote* attributes (remote_attributes.h)
  // Slot ads described anew, not remembered from a cycle before (slot_memo.h).
  std::int64_t described_slots = 0;
  // Slots a cycle over a slot board only counted and summed (slot_board.h:
  // quiet, or bundled behind one slot of their bundle).
  std::int64_t summed_slots = 0;

  // Name/value pairs under HTCondor's attribute names
  // (LastNegotiationCycleDuration0, ...), for the negotiator ad.
  std::vector<std::pair<std::string, double>> attributes() const;
};

struct CycleResult {
  std::vector<Match> matches;
  std::vector<Rejection> rejections;
  std::vector<SubmitterOutcome> submitters;
  std::vector<GroupOutcome> groups;
  CycleStats stats;
};

// The groups of a cycle in the order they negotiated in (their turns);
// groups that had no turn come last, in their order in `result`. Each
// group actor hears of the cycle in this order.
std::vector<const GroupOutcome*> groups_in_turn_order(const CycleResult& result);

}  // namespace cara::negotiation
