// Why an idle job does not run (condor_q -better-analyze): its
// Requirements clause by clause against the pool's slots, the slots whose
// START refuses it and the clause that refuses, the slots that match but
// are claimed (by its own submitter, by users of better priority, by
// others), and the ones that could take it now. Pure: the tool brings the
// job, the slot ads, the priorities and the last cycle's reasons.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/classad/classad.h"

namespace cara::negotiation {

// The top-level && clauses of `expr` as text, parentheses around the
// whole and around each clause dropped: "A && (B || C)" → {"A", "B || C"}.
std::vector<std::string> conjunction_clauses(const std::string& expr);

struct ClauseCount {
  std::string clause;
  std::size_t matched = 0;  // slots for which it alone is true
};

// A slot whose START refuses the job, and the first clause that does.
struct SlotRefusal {
  std::string slot;
  std::string clause;
};

struct JobAnalysis {
  std::size_t slots = 0;
  std::string requirements;           // the job's, as written
  std::vector<ClauseCount> clauses;   // of the job's Requirements
  std::size_t rejected_by_job = 0;    // the job's Requirements are false for these
  std::size_t rejected_by_slot = 0;   // the job fits, the slot's START refuses it
  std::vector<SlotRefusal> refusals;  // the first few of them
  std::size_t running_yours = 0;      // match, claimed by the job's own submitter
  std::size_t serving_better = 0;     // match, claimed by a user of better (lower) effective priority
  std::size_t serving_others = 0;     // match, claimed by a user of worse or unknown priority
  std::size_t available = 0;          // match and unclaimed: could run it now
};

// `priorities`: effective priority by submitter name (the accountant's);
// `submitter` the job's. At most `max_refusals` refusals are listed.
JobAnalysis analyze_job(const classad::ClassAd& job, const std::vector<classad::ClassAd>& slots,
                        const std::map<std::string, double>& priorities, const std::string& submitter,
                        std::int64_t now, std::size_t max_refusals = 5);

// What the negotiator said of the submitter in its last cycle.
struct CycleNote {
  std::int64_t cycle_time = 0;       // 0: the submitter was not negotiated yet
  std::vector<std::string> reasons;  // its rejections' reasons ("no match found", "group quota reached", ...)
  std::int64_t matched = 0;
};

// An estimate of when an idle job may start: the jobs ahead of it in its
// submitter's queue over the rate at which the submitter's jobs started
// of late (per hour). Nullopt without a rate to go by.
std::optional<std::int64_t> estimated_wait(std::int64_t jobs_ahead, double starts_per_hour);

// The report, in the words of condor_q -better-analyze.
std::string format_analysis(const std::string& job_id, const JobAnalysis& a, const CycleNote& cycle,
                            std::optional<std::int64_t> wait);

}  // namespace cara::negotiation
