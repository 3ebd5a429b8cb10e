// The slot's side of the claim protocol: a claim counts only with an id the
// negotiator announced to the slot (SlotMatched, NEGOTIATOR level), so a
// schedd cannot claim a slot it was never matched with, and a guessed id
// gets nowhere. The negotiator sends a schedd its matches only once their
// slots have acknowledged the announcement, and a startd announces a
// leftover claim to its partitionable slot before it hands the id out: a
// claim never arrives before its announcement, so one with an unknown id
// is refused at once. Each decision is a function of (this state, an
// event, now).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/claim/term_fence.h"

namespace cara::claim {

struct GateLimits {
  std::int64_t announced_for = 300;  // s an announced id stays good (a p-slot takes many per cycle)
  std::size_t max_announced = 1024;  // bounds on what strangers can make a slot keep
};

class ClaimGate {
 public:
  explicit ClaimGate(GateLimits limits = {}) : limits_(limits) {}

  // The startd announced a leftover claim `claim_id` at `now`.
  void announce(const std::string& claim_id, std::int64_t now);
  // The negotiator announced a match `claim_id` of election term `term` at
  // `now`; false (and nothing kept) when a newer term was seen before.
  bool announce_match(const std::string& claim_id, std::int64_t term, std::int64_t now);
  // A claim with `claim_id` arrived: whether its id was announced and is
  // still fresh (it is used up either way).
  bool admit(const std::string& claim_id, std::int64_t now);

  std::size_t announced() const { return announced_.size(); }
  std::int64_t newest_term() const { return terms_.newest(); }

 private:
  GateLimits limits_;
  std::vector<std::pair<std::string, std::int64_t>> announced_;  // id, when
  TermFence terms_;
};

}  // namespace cara::claim
