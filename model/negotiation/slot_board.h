// The slot ads a negotiator keeps from one cycle to the next, told what
// changed (issues 29 and 30: a cycle whose cost follows what changed, not
// the size of the pool). Between two cycles a pool changes a few slots —
// those matched, claimed, released or carved since — and most of a busy
// pool's slots run jobs that no request of the next cycle can take: with
// PREEMPTION_REQUIREMENTS False (the default) a claimed slot whose Rank
// reads nothing of the job is never matched away (slot_pool.h,
// PoolSlot::untakeable). A cycle over the whole pool still described,
// keyed and summed every one of them.
//
// The board describes each ad once, when it is set (describe_slot(), the
// same as a cycle's), and sorts the slots into four parts:
//  - quiet: left out by NEGOTIATOR_SLOT_CONSTRAINT, or not offered (claimed
//    and idle, matched, draining, busy without NEGOTIATOR_CONSIDER_PREEMPTION):
//    a cycle only counts them and sums their SlotWeight, their jobs'
//    submitters' holdings and concurrency limits (PoolDigest);
//  - bundled: offered, running a job no request can take: summed as the
//    quiet ones, and grouped by what the cycle's class key sees of them
//    (its names, for the last few name lists, slot_classes.h) so that one
//    slot of each bundle enters the cycle — the one a request that
//    matches only such slots is told its reason by ("insufficient
//    priority", "PREEMPTION_REQUIREMENTS == False"). A cycle that tells
//    no such reason needs none of them: after one that read none, the
//    next goes without them, and again with them if it reads them after
//    all (a busy pool whose cycles match every job: 360 of a simulated
//    cycle's 400 slots);
//  - idle: offered and idle, summed and grouped as the bundled ones are.
//    A cycle matches each job once at most, always to the first slot left
//    of a class (in the cycle's slot order), so a cycle of J jobs takes
//    the first J + 1 slots of each such bundle: those it could match, and
//    one that stays to tell it that the class is not used up. A pool of
//    alike idle machines (a simulated one: 625 partitionable slots in
//    some 20 classes) then enters a cycle of one new job as some 40
//    slots;
//  - active: every other slot (takeable busy ones, within its job's
//    MaxJobRetirementTime, a dynamic slot ALLOW_PSLOT_PREEMPTION may take,
//    an idle one where that policy lets partitionable slots adopt busy
//    dynamic slots, or one whose description read the clock, the random
//    source or the user maps, or that has no Name): in every cycle, as a
//    cycle without the board would have it.
// A change of what the parts depend on in the policy describes every slot
// again. When a cycle's expressions read what the slots left out would
// add to the others (Slot<N>_RemoteUserPrio, or a slot expression reading
// a Remote* attribute), the cycle takes every slot (all_slots()).
//
// A cycle over the board gives the matches, order, reasons and totals of a
// cycle over board.ads() without it (tests/unit/negotiation/
// slot_board_test.cpp): a bundle is never coarser than the cycle's classes
// (it holds slots of one submitter, CurrentRank, SlotWeight and class-key
// part), and sums of SlotWeights are exact while weights are whole
// numbers, as Cpus are. One exception: a slot without a Name is named by
// its place among the slots the cycle takes ("slot#N").
//
// One board serves one negotiator, one cycle at a time; not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/eval_env.h"
#include "model/classad/references.h"
#include "model/classad/symbol.h"
#include "model/common/change_log.h"
#include "model/negotiation/negotiator_policy.h"
#include "model/negotiation/slot_pool.h"

namespace cara::negotiation {

class SlotMemo;

class SlotBoard {
 public:
  // A slot's name on the board, the caller's choice: cycles take the
  // slots in key order (the simulator: machine, SlotID, dynamic slot).
  using Key = std::uint64_t;

  SlotBoard();
  ~SlotBoard();
  SlotBoard(const SlotBoard&) = delete;
  SlotBoard& operator=(const SlotBoard&) = delete;

  // Slot `key`'s ad is now `ad`: a new slot, or its ad replaced. The very
  // same ad again (the same ClassAd::identity) changes nothing.
  void set(Key key, const classad::ClassAd& ad);
  // Slot `key` is gone; nothing when it is not on the board.
  void erase(Key key);
  // Slot `key`'s ad, or null.
  const classad::ClassAd* find(Key key) const;
  // The ad of the slot with the lowest key, or null.
  const classad::ClassAd* first() const;
  std::size_t size() const;
  // The keys in [first, last), in order.
  std::vector<Key> keys_in(Key first, Key last) const;
  // Every key and every ad, in key order.
  std::vector<Key> keys() const;
  std::vector<classad::ClassAd> ads() const;

  // ---- What cycles read (negotiation_cycle.h, significant_attributes.h,
  // claim_charges.h).

  // Describes the ads set since the last call under `policy` and `env`
  // (every ad, when what the parts depend on in the policy changed). A
  // cycle calls it first; calling it again without a change does nothing.
  void prepare(const NegotiatorPolicy& policy, const classad::EvalEnv& env);
  // How many ads prepare() described since the last call of this.
  std::int64_t take_described();

  // The slots one cycle takes, in key order: their keys (by input slot)
  // and the pool's input (their ads and descriptions: null for an active
  // slot a cycle describes itself; the digest of the rest, the board's
  // own, valid until the board next changes).
  struct CycleSlots {
    std::vector<Key> keys;
    PoolInput input;
  };
  // The active slots, the first `jobs` + 1 of each bundle of idle slots
  // and, when `busy`, one of each bundle of busy ones, for class keys over
  // `names` (class_key_names().names) and a cycle that matches at most
  // `jobs` jobs (its requests' counts). Without `busy` the pool's input
  // says that bundles were left out (PoolInput::busy_left_out). After
  // prepare().
  void cycle_slots(const std::vector<classad::Symbol>& names, std::int64_t jobs, bool busy, CycleSlots& out);
  // Whether the last cycle over the board read the slots of its busy
  // bundles, or would have (a request's rejection reason, a cycle with no
  // other slot left): the next cycle takes them from the start. True on a
  // new board.
  bool busy_read() const;
  void set_busy_read(bool read);
  // Every slot, none left out. After prepare().
  void all_slots(CycleSlots& out);
  // What numbers the key parts of the cycles over this board
  // (SlotClasses' memo).
  SlotMemo& numbering();
  // How many slots are active, bundled (in how many bundles, for the
  // last cycle_slots() names), idle and grouped (in how many bundles),
  // quiet; whether the last cycle_slots() took one slot of each busy
  // bundle; how many new ads the last prepare() found to place their
  // slots where they were: for tests and statistics.
  struct Parts {
    std::size_t active = 0, bundled = 0, bundles = 0, idle = 0, idle_bundles = 0, quiet = 0;
    bool busy_taken = false;
    std::size_t in_place = 0;
  };
  Parts parts() const;

  // The job attributes the slots' START, Requirements and Rank read
  // (significant_attributes.h), each ad's worked out once. After prepare().
  classad::NameSet significant_reads();

  // The slots whose State is Claimed, and those whose State is Matched,
  // as claim::reconcile reads them: by Name, in name order, each with its
  // slots (key and ad) in key order.
  using Named = std::map<std::string, std::vector<std::pair<Key, const classad::ClassAd*>>>;
  const Named& claimed() const;
  const Named& matched() const;
  // The names whose slots entered or left claimed() or matched(), as they
  // did (claim/claim_tracker.h).
  const ChangeLog& claim_log() const;
  // Whether this negotiator negotiates for slot `key` under `policy`
  // (NEGOTIATOR_SLOT_CONSTRAINT), as described by the last prepare()
  // (evaluated at `env` when its description read the clock).
  bool in_shard(Key key, const NegotiatorPolicy& policy, const classad::EvalEnv& env) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cara::negotiation
