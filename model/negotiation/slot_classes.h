// Slot equivalence classes (DESIGN.md, "Performance shape"): slots that
// no expression of the cycle can tell apart are one class, so a request is
// assessed once per class instead of once per slot. Two slots are alike
// when they are used alike (idle, or running the same submitter's job at
// the same CurrentRank), weigh the same, and agree on every attribute the
// cycle's expressions read: the slot's own Requirements and Rank and what
// they refer to, the attributes the requests' Requirements, Rank and
// ConcurrencyLimitsExpr read, and those of the negotiator's expressions,
// followed transitively through the slot ad.
//
// Classes that agree on what the match itself reads — both Requirements,
// both Ranks, the requests' resource attributes, the SlotWeight — form a
// family: one symmetric match per family and request decides for all of
// its classes, idle and busy, which then differ only in the negotiator's
// rank and preemption expressions (class_ranks.h).
//
// With grouping off every slot is a class and a family of its own: the
// plain algorithm, kept to check the classes against
// (tests/unit/negotiation).
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/classad/references.h"
#include "model/classad/symbol.h"
#include "model/negotiation/cycle_types.h"
#include "model/negotiation/request_prefilter.h"
#include "model/negotiation/slot_key.h"
#include "model/negotiation/slot_pool.h"

namespace cara::negotiation {

class SlotClasses {
 public:
  // Classes of the slots of `pool` that are offered this cycle. `names`
  // are the attribute names the requests and negotiator expressions read;
  // `match_names` those the requests alone read (a subset).
  // The slots are keyed on `threads` (merged in slot order: the same
  // classes, numbered alike, whatever their count).
  // With a `memo` (slot_memo.h), the part of a key its ad decides is
  // written once while the ad is unchanged, and the memo's key writer
  // serves (its reads() cover every slot it followed since).
  SlotClasses(const SlotPool& pool, classad::NameSet names, classad::NameSet match_names, bool grouping,
              Threads threads = {}, SlotMemo* memo = nullptr);

  std::size_t size() const { return classes_.size(); }
  // Slots are grouped (not one class per slot, the plain algorithm).
  bool grouping() const { return grouping_; }
  // Whether an expression of a slot that the classes followed (its
  // Requirements and Rank, what they and the cycle's expressions read)
  // refers to `name`.
  bool reads(classad::Symbol name) const;
  // Whether one of them refers to a name `pred` accepts. Without grouping
  // no expression is followed: false.
  bool reads_any(const std::function<bool(classad::Symbol)>& pred) const { return keys_.reads_any(pred); }
  // Classes with slots left, in no particular order.
  const std::vector<int>& live() const { return live_; }
  // The class's first slot left (an index into pool.slots()), which
  // stands for the class.
  std::size_t head(int c) const { return heads_[static_cast<std::size_t>(c)]; }
  bool empty(int c) const { return heads_[static_cast<std::size_t>(c)] == kNoHead; }
  int class_of(std::size_t slot) const { return class_of_[slot]; }

  std::size_t families() const { return families_.size(); }
  int family_of(int c) const { return family_of_[static_cast<std::size_t>(c)]; }
  // Its slots run a job (SlotUse::Busy; a class's slots are used alike).
  bool busy(int c) const { return busy_[static_cast<std::size_t>(c)] != 0; }
  // Families with slots left, in no particular order.
  const std::vector<int>& live_families() const { return live_families_; }
  bool family_live(int f) const { return families_[static_cast<std::size_t>(f)].live > 0; }
  // Every class ever placed in family `f` (some may be empty by now).
  const std::vector<int>& members(int f) const { return families_[static_cast<std::size_t>(f)].classes; }
  // A class of family `f` with slots left (any: a family's slots are alike
  // to the match and weigh alike), or -1. Read packed, by family: the pool
  // walk asks it of hundreds of families per request.
  int live_member(int f) const { return live_member_[static_cast<std::size_t>(f)]; }

  // The values of what the match reads of a slot (the family key's
  // names), by family: every slot of a family agrees on them, so the
  // request prefilter reads them here, one row per family, instead of in
  // each family's ads. column_of(): -1 for a name that is not one of them.
  int column_of(classad::Symbol name) const;
  const SlotValue& cell(int family, int column) const {
    return cells_[static_cast<std::size_t>(family) * match_symbols_.size() +
                  static_cast<std::size_t>(column)];
  }
  // The family is a partitionable slot whose busy dynamic slots a match
  // may preempt (ALLOW_PSLOT_PREEMPTION): what it offers is more than its
  // own ad says.
  bool with_children(int family) const { return with_children_[static_cast<std::size_t>(family)] != 0; }
  // The family's PoolSlot::weight_signature (SlotWeight and the
  // Consumption<R> expressions are in the family key, so its slots share
  // it), -1 when none.
  int weight_signature(int family) const { return signatures_[static_cast<std::size_t>(family)]; }
  // With a memo (and grouping), the family's key, which names what the
  // match reads of its slots in any cycle of the same family_generation()
  // (match_memo.h); else null.
  const std::string* family_key(int family) const { return family_keys_[static_cast<std::size_t>(family)]; }
  std::uint32_t family_generation() const { return generation_[1]; }
  SlotMemo* memo() const { return memo_; }
  // What a match to one of the family's slots charges whatever the job
  // (a slot that is not partitionable: its SlotWeight), else NaN.
  double fixed_weight(int family) const { return fixed_weights_[static_cast<std::size_t>(family)]; }

  // Live classes made after construction (a partitionable slot that gave
  // resources away, into a class no slot had before): the cycle's rank
  // orders (class_ranks.h), made at the start, do not hold them.
  const std::vector<int>& late_live() const { return late_live_; }
  bool late(int c) const { return c >= late_from_; }

  // Busy slots no request can take (PoolSlot::untakeable): on offer to
  // none, so no request walks them, but one slot of each class they would
  // form is kept, for the reason of a request that matches only them.
  const std::vector<std::size_t>& untakeable() const { return untakeable_; }

  // Slot `slot` is matched: it leaves its class.
  void take(std::size_t slot);
  // Slot `slot`'s ad changed in its Consumption<R> resources (a
  // partitionable slot gave some of them away) and SlotWeight: it moves to
  // the class its ad now belongs to, which is returned.
  int reclassify(std::size_t slot);

 private:
  // Only a class's first slot left is ever asked for, and slots leave a
  // class far more often than they join one: its slots in index order, in
  // a vector filled in order as the classes form (a tree node per slot and
  // cycle cost a simulated cycle a tenth of its time), those that left
  // skipped when the first one leaves.
  struct Class {
    std::vector<std::size_t> slots;  // in index order; some may have left (class_of_ tells)
    std::size_t first = 0;           // position of the first slot left: all before it have left
    std::size_t left = 0;            // slots left
  };
  // Slot `slot` (class_of_ already `c`) joins class `c`.
  void join_class(int c, std::size_t slot);
  struct Family {
    std::vector<int> classes;
    int live = 0;  // classes with slots left
  };
  // The keys of `slots` (pool indices), written on `threads`; empty ones
  // without grouping.
  // With a memo, `numbers` (if not null) gets the numbers of their
  // attribute parts, by position in `slots`.
  std::vector<std::string> write_keys(const std::vector<std::size_t>& slots, int kind, Threads threads,
                                      std::vector<std::uint32_t>* numbers = nullptr);
  // The class key (`kind` 0) or family key (1) of pool slot `slot`; with a
  // memo, its attribute part as the memo numbers it (`remembered`: as the
  // memo may remember it for the slot's input ad), that number in `number`.
  std::string key_of(SlotKeyWriter& writer, std::size_t slot, int kind, bool remembered,
                     std::uint32_t* number = nullptr);
  // The key of kind `kind` of a slot whose resources changed since the
  // start (reclassify()): with a memo, the number of the part it was keyed
  // with then and its resources' values now, instead of a whole new part
  // (some 65 attributes followed through the ad, per match). Two slots
  // with the same such key agree on everything their whole keys would
  // hold; two that agree may still differ here (say, one carved down to
  // what another had from the start): classes finer than they need be,
  // which changes no match (the plain algorithm is the finest).
  std::string rekey(std::size_t slot, int kind);
  const std::vector<classad::Symbol>& resources_of(const PoolSlot& slot);
  // The class of `key`, made (without a family yet) if new: (class, made).
  std::pair<int, bool> class_for(std::size_t slot, std::string key);
  // Class `c`, made for `slot`, joins the family of `key`; `part` (with
  // a memo) the number of the key's attribute part, else kNoPart.
  void join_family(int c, std::size_t slot, std::string key, std::uint32_t part);
  int place(std::size_t slot);
  int family_for(std::size_t slot, std::string key, std::uint32_t part);
  void set_live(int c, bool live);

  const SlotPool& pool_;
  std::vector<classad::Symbol> name_symbols_, match_symbols_;
  SlotMemo* memo_;
  SlotKeyWriter own_keys_;
  SlotKeyWriter& keys_;                   // own_keys_, or the memo's writer
  std::uint32_t generation_[2] = {0, 0};  // with a memo: its generation of each kind's names
  bool grouping_;
  std::vector<Family> families_;
  std::vector<int> live_families_;
  std::vector<int> live_family_pos_;  // by family: its position in live_families_, or -1
  std::vector<int> live_member_;      // by family: live_member()
  std::unordered_map<std::string, int> family_by_key_;
  std::vector<const std::string*> family_keys_;  // by family: family_key()
  std::vector<Class> classes_;
  // By class, beside classes_ so that the walks over many classes read
  // them packed: its first slot (kNoHead when it has none left) and its
  // family.
  static constexpr std::size_t kNoHead = static_cast<std::size_t>(-1);
  std::vector<std::size_t> heads_;
  std::vector<int> family_of_;
  std::vector<unsigned char> busy_;
  std::vector<int> live_;
  std::vector<int> live_pos_;  // by class: its position in live_, or -1
  int late_from_ = std::numeric_limits<int>::max();
  std::vector<int> late_live_;
  std::vector<int> late_pos_;  // by class - late_from_: its position in late_live_, or -1
  std::vector<int> class_of_;  // by slot, -1 when not offered
  std::vector<std::size_t> untakeable_;
  std::vector<SlotValue> cells_;              // by family, then column (match_symbols_)
  std::vector<unsigned char> with_children_;  // by family
  std::vector<int> signatures_;               // by family
  std::vector<double> fixed_weights_;         // by family
  std::unordered_map<std::string, int> by_key_;
  // With a memo: by slot, the numbers of the attribute parts of the class
  // key (0) and family key (1) it was keyed with at the start, or kNoPart.
  static constexpr std::uint32_t kNoPart = 0xffffffffu;
  std::vector<std::uint32_t> start_parts_[2];
  // The Consumption<R> resource names of each set of expressions, sorted.
  std::unordered_map<const PoolSlot::ConsumptionExprs*, std::vector<classad::Symbol>> resources_;
};

}  // namespace cara::negotiation
