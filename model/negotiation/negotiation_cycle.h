// One negotiation cycle (central-manager-configuration, "The Negotiation
// Cycle"; user-priorities-and-negotiation, "The Layperson's Description of
// the Pie Spin and Pie Slice", "Group Accounting"), as a pure function of
// its inputs:
//
//  1. the slots that pass NEGOTIATOR_SLOT_CONSTRAINT (slot_pool.h); busy
//     ones only with NEGOTIATOR_CONSIDER_PREEMPTION;
//  2. the submitters and their resource requests, by EUP;
//  3. with GROUP_NAMES, the group quotas for the pool's SlotWeight, the
//     groups' demands shared out with surplus (group_tree.h), and the
//     groups negotiated one at a time in GROUP_SORT_EXPR order, up to
//     GROUP_QUOTA_MAX_ALLOCATION_ROUNDS rounds while quota freed by groups
//     that could not use it finds takers; then GROUP_AUTOREGROUP
//     submitters once more under <none>;
//  4. in each pie (a group, or the whole pool): submitters below their
//     floor first, then pie spins — each submitter's slice is its 1/EUP
//     share of the pie less what it already holds, capped by its ceiling
//     and by what its group has left — until slots or requests run out.
//     When slices are left that are smaller than any slot, the largest
//     remainders get one slot each (the spec's spin "continues until it
//     runs out of machines or all the condor_schedd daemons say they have
//     no more jobs");
//  5. each request is matched job by job to the best candidate slot
//     (slot_assessment.h), skipping slots its submitter's slice, its
//     group's quota or a concurrency limit cannot afford; a request no
//     slot takes is rejected for the rest of the cycle (cluster
//     skipping, by autocluster).
//
// Slots are assessed per equivalence class (slot_classes.h).
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "model/accounting/group_tree.h"
#include "model/classad/eval_env.h"
#include "model/negotiation/cycle_types.h"
#include "model/negotiation/negotiator_policy.h"

namespace cara::accounting {
class Accountant;
}

namespace cara::negotiation {

struct ClassNames;
class SlotBoard;
class SlotMemo;
struct PoolInput;

class NegotiationCycle {
 public:
  // `groups` is null without GROUP_NAMES. The accountant is read, not
  // charged: the caller begins claims for the matches it acts on.
  NegotiationCycle(const NegotiatorPolicy& policy, const accounting::Accountant& accountant,
                   std::optional<accounting::GroupTree> groups, classad::EvalEnv env);

  // A monotonic clock in seconds, for the statistics' durations only
  // (none: durations are 0, and the cycle stays deterministic).
  void set_clock(std::function<double()> clock) { clock_ = std::move(clock); }
  // Off: assess every slot one by one (the plain algorithm).
  void set_slot_classes(bool on) { classes_on_ = on; }
  // Off: no request prefilter (request_prefilter.h); every family is
  // evaluated. For tests that check the prefilter changes nothing.
  void set_prefilter(bool on) { prefilter_on_ = on; }

  // How many threads the per-slot work of phases 1 and 2 may use (by
  // default the policy's NEGOTIATOR_THREADS)
  // (model/common/parallel.h), each given at least `min_slots` slots: the
  // result is the same for any number (but for random() in a slot's
  // SlotWeight, Rank or the like without an EvalEnv random source, which
  // draws from a generator per thread; with a source, one thread is used).
  void set_threads(int threads, std::size_t min_slots = kMinSlotsPerThread) {
    threads_ = threads;
    min_slots_per_thread_ = min_slots;
  }

  // What this negotiator's earlier cycles learnt of slot ads that have
  // not changed since (slot_memo.h); null: none. It must outlive run().
  void set_memo(SlotMemo* memo) { memo_ = memo; }

  CycleResult run(const std::vector<classad::ClassAd>& slots,
                  const std::vector<SubmitterRequests>& submitters);
  // The same over the slots of `board` (slot_board.h), which it prepares:
  // the matches, order and reasons of a cycle over board.ads(), from the
  // slots a match may use and a digest of the rest. A Match's slot and
  // victims are board keys. The memo (set_memo) is not used: the board
  // remembers.
  CycleResult run(SlotBoard& board, const std::vector<SubmitterRequests>& submitters);

 private:
  // Phases 1 to 4 over `input`, with `memo` (the board's numbering, when
  // the input is a board's). With `whole` false (a board's slots, some
  // left out), none when the slots' own expressions read a Remote*
  // attribute that the left-out slots would add to the others: the caller
  // takes every slot then. None too when the input's busy bundles were
  // left out (PoolInput::busy_left_out) and the cycle would read them:
  // the caller gives them then. `read_busy` (if not null) is told whether
  // the cycle read them, or would have.
  // `read`: class_names() of `submitters`.
  std::optional<CycleResult> run_input(const PoolInput& input, const ClassNames& read,
                                       const std::vector<SubmitterRequests>& submitters, SlotMemo* memo,
                                       bool whole, bool* read_busy = nullptr);

  const NegotiatorPolicy& policy_;
  const accounting::Accountant& accountant_;
  std::optional<accounting::GroupTree> groups_;
  classad::EvalEnv env_;
  std::function<double()> clock_;
  bool classes_on_ = true;
  bool prefilter_on_ = true;
  int threads_ = 1;
  std::size_t min_slots_per_thread_ = kMinSlotsPerThread;
  SlotMemo* memo_ = nullptr;
};

}  // namespace cara::negotiation
