// A negotiation cycle over a negotiator's slot board (slot_board.h): the
// slots a match may use and one of each bundle, the rest as a digest, or
// every slot when an expression reads what the left-out slots would add.
#include <algorithm>
#include <optional>
#include <utility>

#include "model/negotiation/class_names.h"
#include "model/negotiation/negotiation_cycle.h"
#include "model/negotiation/remote_attributes.h"
#include "model/negotiation/slot_board.h"
#include "model/negotiation/slot_classes.h"
#include "model/negotiation/slot_memo.h"

namespace cara::negotiation {

CycleResult NegotiationCycle::run(SlotBoard& board, const std::vector<SubmitterRequests>& submitters) {
  const double start = clock_ ? clock_() : 0;
  board.prepare(policy_, env_);
  SlotBoard::CycleSlots slots;
  std::optional<CycleResult> result;
  // The slots left out of the cycle add nothing an expression reads but
  // their sums — unless one names Slot<N>_RemoteUserPrio, which every
  // slot of a machine with a busy slot N gets. Without slot classes
  // (the plain algorithm) every slot is a class of its own: all of them.
  const ClassNames read = class_names(policy_, submitters);
  if (classes_on_ && !remote_reads(read).machine) {
    // How many jobs the cycle may match.
    std::int64_t jobs = 0;
    bool requests = false;
    for (const SubmitterRequests& s : submitters)
      for (const Request& r : s.requests) {
        jobs += std::max<std::int64_t>(r.count, 0);
        requests = true;
      }
    const std::vector<classad::Symbol> names =
        board.numbering().key_names(read.names, read.match_names).names;
    // The busy bundles' slots only tell a rejected request its reason: a
    // cycle without a request, or one after a cycle that did not read
    // them, goes without them first, and again with them only if it reads
    // them after all — as a busy pool's cycles that match every job do
    // not. Their sums are in the digest either way. (The group tree needs
    // no copy for the second run: assign_quotas() starts it afresh.)
    const bool busy = requests && board.busy_read();
    bool read_busy = false;
    board.cycle_slots(names, jobs, busy, slots);
    result = run_input(slots.input, read, submitters, &board.numbering(), false, &read_busy);
    if (!result && !busy && read_busy) {
      board.cycle_slots(names, jobs, true, slots);
      result = run_input(slots.input, read, submitters, &board.numbering(), false, &read_busy);
    }
    if (requests) board.set_busy_read(read_busy);
  }
  if (!result) {
    board.all_slots(slots);
    result = run_input(slots.input, read, submitters, classes_on_ ? &board.numbering() : nullptr, true);
  }
  // Slots by their board keys.
  for (Match& m : result->matches) {
    m.slot = slots.keys[m.slot];
    for (std::size_t& v : m.victims) v = slots.keys[v];
  }
  CycleStats& stats = result->stats;
  stats.described_slots += board.take_described();
  stats.summed_slots = stats.total_slots - static_cast<std::int64_t>(slots.input.ads.size());
  if (clock_) {
    // prepare() is phase 1's too.
    const double end = clock_();
    stats.duration_phase1 =
        end - start - (stats.duration_phase2 + stats.duration_phase3 + stats.duration_phase4);
    stats.duration = end - start;
    stats.match_rate = stats.duration > 0 ? static_cast<double>(stats.matches) / stats.duration : 0;
  }
  return std::move(*result);
}

}  // namespace cara::negotiation
