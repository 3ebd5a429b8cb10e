// What a negotiator learnt of slot ads in earlier cycles, kept while the
// ads do not change (issues 29 and 30: a cycle whose cost follows what
// changed). Between two cycles a pool changes a few slots: the ones
// matched, claimed, released or carved since. The rest are the same ads —
// the same attributes, shared with the last cycle's copies
// (ClassAd::shares_with) — and what phase 1 reads of them (slot_pool.h:
// name, use, weight, Rank, consumption policy), the attribute part of
// their class and family keys (slot_key.h), their weight signature
// (carved_weight.h) and the job attributes their expressions read
// (significant_attributes.h) are what they were.
//
// Not kept: a description whose evaluation read the clock, the random
// source or the user maps (a NEGOTIATOR_SLOT_CONSTRAINT or SlotWeight
// reading time()); what depends on the cycle rather than the ad (the
// running submitter's group and EUP, whether the job is still within its
// MaxJobRetirementTime, whether the slot is offered or can be taken) is
// worked out again each cycle from the kept facts. A change of the
// policy's slot constraint or of NEGOTIATOR_USE_SLOT_WEIGHTS forgets
// everything. The memo holds a copy of every ad it remembers, so an
// identity is never reused for another ad while remembered, and it forgets
// the ads a cycle no longer offers.
//
// One memo serves one negotiator, one cycle at a time. A cycle with a memo
// gives the matches, order and reasons of one without (tests/unit/
// negotiation/differential_test.cpp and slot_memo_test.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/symbol.h"
#include "model/negotiation/match_memo.h"
#include "model/negotiation/negotiator_policy.h"
#include "model/negotiation/request_prefilter.h"
#include "model/negotiation/slot_key.h"
#include "model/negotiation/slot_pool.h"

namespace cara::negotiation {

// One slot ad remembered, and what was learnt of it.
struct RememberedSlot {
  classad::ClassAd ad;  // a copy: keeps the identity taken
  bool kept = false;    // passes NEGOTIATOR_SLOT_CONSTRAINT
  PoolSlot slot;        // as described, before the cycle's own parts
  SlotClaimFacts claim;
  // A partitionable slot's weight signature as text (WeightSignatures::
  // key_of), once known.
  bool signature_known = false;
  std::optional<std::string> signature;
  std::uint64_t seen = 0;  // the last cycle that offered the ad
  // The job attributes the ad's START, Requirements and Rank read
  // (significant_attributes.h), as a list number of SlotMemo::
  // significant_list(); -1: not known yet.
  int significant = -1;
  // The negotiator's rank expressions against no job, as a class headed by
  // this slot is ranked (class_ranks.h, ClassRanks::rank_of), and the job
  // attributes they look up: the same while the ad and the expressions
  // are (a class whose slot's Rank is ranked at a group's value, or whose
  // evaluation read the clock, is not kept). A simulated cycle ranks some
  // forty classes of unchanged idle slots (issue 29).
  struct KeptRanks {
    classad::ExprPtr pre_expr, post_expr, preemption_expr;  // what they were for
    bool busy = false;                                      // PREEMPTION_RANK was read too
    double pre = 0, post = 0, preemption = 0;
    std::vector<classad::Symbol> external;  // the job's names they read, each once
  };
  std::optional<KeptRanks> ranks;

  // The number (SlotMemo::part_number) of the attribute part of the
  // slot's class key (`kind` 0) or family key (1) for the names of
  // `generation` (SlotMemo::generation), or -1.
  std::int64_t key_part(int kind, std::uint32_t generation) const;
  // Keeps it, in place of the part of the oldest generation.
  void keep_key_part(int kind, std::uint32_t generation, std::uint32_t number);

 private:
  // The last two name lists' parts of each kind: a pool whose requests
  // read one list in some cycles and another in the rest (jobs whose
  // Requirements name OpSys and Arch, and jobs whose do not) keys every
  // slot once per list, not once per cycle.
  struct KeyPart {
    std::uint32_t generation = 0;  // 0: none
    std::uint32_t number = 0;
  };
  KeyPart parts_[2][2];
};

class SlotMemo {
 public:
  // Starts a cycle under `policy`: forgets everything when what the
  // descriptions depend on changed, or when the key writer's caches
  // outgrew what the remembered ads can need.
  void begin(const NegotiatorPolicy& policy);
  // The entry of an ad with `ad`'s identity, or null. Safe on several
  // threads at once (nothing is added meanwhile).
  RememberedSlot* find(const classad::ClassAd& ad);
  // Whether `ad` can be remembered (an ad without attributes has no
  // identity of its own).
  static bool rememberable(const classad::ClassAd& ad);
  // A new entry for `ad` (rememberable, not found this cycle).
  RememberedSlot& remember(const classad::ClassAd& ad);
  // Marks `e` as offered this cycle; false when it already was (one ad
  // given twice: the second must not share the first one's entry).
  bool see(RememberedSlot& e);
  // Forgets the ads this cycle did not see.
  void end_pool();

  // The generation of a list of key names of `kind` (0: the class key's,
  // 1: the family key's): the same for the same list while it is among the
  // last few of its kind.
  std::uint32_t generation(const std::vector<classad::Symbol>& names, int kind);
  // The number of a key part's text among those written for the names of
  // `generation` (of `kind`): the same for the same text, so that a key
  // holds the number instead of the text (some 500 bytes for a slot ad
  // whose 65 attributes are read). Safe on several threads at once.
  std::uint32_t part_number(int kind, std::uint32_t generation, const std::string& text);
  // The values of what the match reads of a family's slots (SlotClasses::
  // cell), by the number of the family key's attribute part for the names
  // of `generation` (of kind 1), which they are a function of: kept, a
  // cycle need not look each name up again in the family's first slot (a
  // simulated cycle's forty families, issue 29). Null when not kept.
  const std::vector<SlotValue>* family_cells(std::uint32_t generation, std::uint32_t part) const;
  void keep_family_cells(std::uint32_t generation, std::uint32_t part, std::vector<SlotValue> cells);
  // The writer of the keys of the cycles that use this memo: its caches of
  // what slot expressions read are kept with the keys they wrote.
  SlotKeyWriter& writer() { return writer_; }

  // class_key_names(names, match_names), kept while cycles ask for the
  // same names: a board's cycle asks twice (its bundles', its classes'),
  // and the cycles of a simulated pool ask for the same, one after the
  // other (issue 29: interning the names was a fortieth of a cycle).
  const ClassKeyNames& key_names(const classad::NameSet& names, const classad::NameSet& match_names);

  // The number of a list of significant attributes, the same for lists
  // alike; and the list of a number.
  int significant_id(const std::vector<std::string>& names);
  const std::vector<std::string>& significant_list(int id) const {
    return significant_lists_[static_cast<std::size_t>(id)];
  }
  // Forgets the lists (and every ad's number) when there are more than
  // the remembered ads can need.
  void trim_significant();

  std::size_t size() const { return entries_.size(); }
  void clear();

  // Whether the jobs of earlier cycles matched the slot families keyed
  // over this memo's numbers (match_memo.h): forgotten with them.
  MatchMemo& matches() { return matches_; }

  // A board (slot_board.h) keeps the entries itself and uses the memo only
  // to number key parts and significant lists: `n` is how many it keeps,
  // for the bounds that size() gives otherwise.
  void set_kept_elsewhere(std::size_t n) { kept_elsewhere_ = n; }
  // Changes whenever the memo forgets what it numbered (clear(),
  // trim_significant()): numbers kept elsewhere are stale then.
  std::uint64_t epoch() const { return epoch_; }
  // Forgets the significant lists when there are more than the entries
  // can need (trim_significant() for a board's entries, which the memo
  // cannot reset itself): true when it did.
  bool trim_significant_lists();

 private:
  std::unordered_map<std::pair<const void*, const void*>, RememberedSlot, AdIdentityHash> entries_;
  MatchMemo matches_;
  std::uint64_t cycle_ = 0;
  std::size_t kept_elsewhere_ = 0;
  std::uint64_t epoch_ = 0;
  std::size_t entries() const { return entries_.size() + kept_elsewhere_; }
  // What the descriptions depend on in the policy.
  classad::ExprPtr slot_constraint_;
  bool use_slot_weights_ = true, begun_ = false;
  // The last name lists of each kind, with their generations.
  struct Names {
    std::vector<classad::Symbol> names;
    std::uint32_t generation = 0;
    std::unordered_map<std::string, std::uint32_t> parts;             // part_number()
    std::unordered_map<std::uint32_t, std::vector<SlotValue>> cells;  // family_cells(), by part
  };
  static constexpr std::size_t kLists = 4;
  std::vector<Names> lists_[2];
  std::uint32_t next_generation_ = 0;
  SlotKeyWriter writer_;
  std::mutex numbering_;
  // key_names(): what it was last asked, and the answer.
  classad::NameSet key_names_in_[2];
  std::optional<ClassKeyNames> key_names_;
  std::map<std::vector<std::string>, int> significant_ids_;
  std::vector<std::vector<std::string>> significant_lists_;
};

}  // namespace cara::negotiation
