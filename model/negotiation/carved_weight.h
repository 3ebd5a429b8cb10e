// How a partitionable slot weighs the dynamic slot it would carve for a
// job (match_weight in slot_assessment.h; issue 30 section 3): which
// resources the carving sets, how SlotWeight reads them, and which slots
// carve the same weight for the same job (weight signatures).
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/classad/classad.h"
#include "model/negotiation/slot_pool.h"

namespace cara::negotiation {

// Sets s.consumption_exprs (the Consumption<R> expressions of `ad`, by
// resource name R) and s.consumption_keyed (what a class key reads because
// of them), in one pass over the ad's attributes; each null when none.
void read_consumption(PoolSlot& s, const classad::ClassAd& ad);

// Sets s.carved_weight and s.weight_resource from the slot's SlotWeight
// and its consumption_exprs (set first).
void classify_carved_weight(PoolSlot& s);

// Numbers the weight signatures of a pool's partitionable slots: slots
// with the same number carve the same weight for a job whose Request*
// read nothing of the slot.
class WeightSignatures {
 public:
  // The slot's signature, or -1 when its weight reads the slot beyond the
  // carved resources (each such slot is weighed on its own).
  int of(const PoolSlot& s);
  // What of() numbers: the slot's signature as text, or nothing (-1). It
  // depends on the slot's ad alone (a memo keeps it: slot_memo.h).
  std::optional<std::string> key_of(const PoolSlot& s);
  // The number of signature `key` (of a slot with a consumption policy or
  // not), given in the order keys are first seen.
  int number(const std::string& key, bool consumption);
  // By signature: whether its slots split by a consumption policy.
  const std::vector<unsigned char>& consumption() const { return consumption_; }

 private:
  const std::string& text(const classad::ExprPtr& e);

  std::unordered_map<std::string, int> numbers_;
  std::unordered_map<const classad::ExprTree*, std::string> texts_;  // ads share trees
  std::vector<unsigned char> consumption_;
  const std::string* last_ = nullptr;  // the key number() gave last (nodes of numbers_ stay put)
  int last_number_ = -1;
};

}  // namespace cara::negotiation
