// What a slot board (slot_board.h) sorts its slots by, for its own
// implementation (slot_board.cpp): the parts, what a change of policy
// describes every slot again for, the bundles and their tables, and the
// sorted lists behind claimed() and matched().
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "model/classad/symbol.h"
#include "model/negotiation/negotiator_policy.h"
#include "model/negotiation/slot_board.h"

namespace cara::negotiation::board_parts {

// Idle: offered and idle, grouped as the bundled slots are (slot_board.h).
enum class Part { Active, Quiet, Bundled, Idle };

// What the parts depend on in the policy: a change describes every slot
// again.
struct Fingerprint {
  classad::ExprPtr slot_constraint;
  bool use_slot_weights = true, consider_preemption = true, consider_early_preemption = false;
  bool pslot_children = false;       // ALLOW_PSLOT_PREEMPTION with preemption considered
  bool priority_preemption = false;  // PREEMPTION_REQUIREMENTS may let a user take a busy slot
  static Fingerprint of(const NegotiatorPolicy& p) {
    return {p.slot_constraint,
            p.use_slot_weights,
            p.consider_preemption,
            p.consider_early_preemption,
            p.allow_pslot_preemption && p.consider_preemption,
            p.priority_preemption_possible()};
  }
  bool operator==(const Fingerprint& o) const {
    return slot_constraint == o.slot_constraint && use_slot_weights == o.use_slot_weights &&
           consider_preemption == o.consider_preemption &&
           consider_early_preemption == o.consider_early_preemption && pslot_children == o.pslot_children &&
           priority_preemption == o.priority_preemption;
  }
};

// A bundle: idle slots, or slots of one submitter's jobs, at one
// CurrentRank and SlotWeight, alike to the class key's names (the number
// of their key part, slot_memo.h) — every field of the class key
// (slot_key.h) that can differ among bundled slots, the submitter's EUP a
// function of its name.
struct BundleKey {
  bool idle = false;
  std::string submitter;
  double current_rank = 0, weight = 0;
  bool consumption = false;
  std::uint32_t part = 0;
  auto tie() const { return std::tie(idle, submitter, current_rank, weight, consumption, part); }
  bool operator<(const BundleKey& o) const { return tie() < o.tie(); }
};

// The bundles of the class key names of one generation (SlotMemo::generation),
// each with its slots by key (their entries, SlotBoard::Impl::Entry).
template <class Entry>
struct Table {
  std::uint32_t generation = 0;
  std::vector<classad::Symbol> names;
  // [0] the bundles of busy slots, [1] those of idle ones: a cycle that
  // goes without the busy ones passes over none of them (a busy pool's
  // hundreds).
  std::map<BundleKey, std::map<SlotBoard::Key, Entry*>> bundles[2];
  std::uint64_t used = 0;  // the last cycle_slots() call that read it
};
constexpr std::size_t kTables = 4;  // as the memo keeps name lists (slot_memo.h)

using Slots = std::vector<std::pair<SlotBoard::Key, const classad::ClassAd*>>;

// The first of `slots` (sorted by key) at or past key `k`.
template <class Sorted>
typename Sorted::iterator at_key(Sorted& slots, SlotBoard::Key k) {
  return std::lower_bound(slots.begin(), slots.end(), k,
                          [](const auto& e, SlotBoard::Key x) { return e.first < x; });
}

inline void insert_sorted(Slots& slots, SlotBoard::Key k, const classad::ClassAd* ad) {
  slots.insert(at_key(slots, k), {k, ad});
}

inline void erase_sorted(SlotBoard::Named& index, const std::string& name, SlotBoard::Key k) {
  auto it = index.find(name);
  if (it == index.end()) return;
  Slots& slots = it->second;
  auto at = at_key(slots, k);
  if (at != slots.end() && at->first == k) slots.erase(at);
  if (slots.empty()) index.erase(it);
}

}  // namespace cara::negotiation::board_parts
