// The slot's side of the claim protocol: a claim counts only with an id the
// negotiator announced to the slot (SlotMatched, NEGOTIATOR level), so a
// schedd cannot claim a slot it was never matched with, and a guessed id
// gets nowhere. The matched schedd's claim may overtake the announcement
// (they travel different routes), so a claim with an unknown id waits a
// little for it. Each decision is a function of (this state, an event,
// now); the slot actor keeps the waiting requests and the timers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cara::claim {

struct GateLimits {
  std::int64_t announced_for = 300;  // s an announced id stays good (a p-slot takes many per cycle)
  std::size_t max_announced = 1024;  // bounds on what strangers can make a slot keep
  std::size_t max_waiting = 64;
};

// What becomes of a claim that arrives.
struct Admission {
  enum class Kind { Pass, Wait, Refuse };
  Kind kind = Kind::Refuse;
  std::int32_t token = 0;  // Wait: the claim's number, for let_through() and expire()
};

class ClaimGate {
 public:
  explicit ClaimGate(GateLimits limits = {}) : limits_(limits) {}

  // The negotiator announced `claim_id` at `now`. Returns the token of the
  // claim that waited for it, which may pass now.
  std::optional<std::int32_t> announce(const std::string& claim_id, std::int64_t now);
  // A claim with `claim_id` arrived: it passes with an announced id (used
  // up), waits for its announcement, or is refused when too many wait.
  Admission admit(const std::string& claim_id, std::int64_t now);
  // The wait of `token` is over and no announcement came: whether it was
  // still waiting (it is refused then).
  bool expire(std::int32_t token);

  std::size_t announced() const { return announced_.size(); }
  std::size_t waiting() const { return waiting_.size(); }

 private:
  GateLimits limits_;
  std::vector<std::pair<std::string, std::int64_t>> announced_;  // id, when
  std::vector<std::pair<std::string, std::int32_t>> waiting_;    // id, token
  std::int32_t tokens_ = 0;
};

}  // namespace cara::claim
