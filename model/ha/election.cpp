#include "model/ha/election.h"

#include <algorithm>

namespace cara::ha {

Election::Election(std::size_t members, std::size_t self, bool use_primary, std::int64_t timeout_ms,
                   std::int64_t now_ms, std::optional<std::int64_t> listen_ms)
    : self_(self),
      use_primary_(use_primary),
      timeout_ms_(timeout_ms),
      started_ms_(now_ms),
      listen_ms_(listen_ms.value_or(timeout_ms)),
      peers_(members) {}

void Election::set_version(StateVersion v) {
  version_ = v;
  newest_term_ = std::max(newest_term_, v.term);
}

void Election::heard(std::size_t from, const MemberView& view, std::int64_t now_ms) {
  if (from >= peers_.size() || from == self_) return;
  peers_[from] = Peer{now_ms, false, view};
  newest_term_ = std::max(newest_term_, view.term);
  // It knows who is active once it heard an active member, or every other.
  if (view.active || std::all_of(peers_.begin(), peers_.end(),
                                 [&](const Peer& p) { return &p == &peers_[self_] || p.heard_at; }))
    listening_ = false;
}

void Election::lost(std::size_t from) {
  if (from < peers_.size()) peers_[from].link_down = true;
}

bool Election::reachable(std::size_t member, std::int64_t now_ms) const {
  if (member == self_) return true;
  if (member >= peers_.size()) return false;
  const Peer& p = peers_[member];
  return p.heard_at && !p.link_down && now_ms - *p.heard_at < timeout_ms_;
}

std::vector<std::size_t> Election::reachable_peers(std::int64_t now_ms) const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < peers_.size(); ++i)
    if (i != self_ && reachable(i, now_ms)) out.push_back(i);
  return out;
}

// Each member has terms of its own: those t with (t - 1) mod members equal
// to its index (member 0 of two: 1, 3, 5...; member 1: 2, 4, 6...). Two
// members that each take a new term without hearing of the other (a
// partition; one restarted alone) never take the same one, so a slot or
// schedd that saw one never takes the other's matches for its.
std::int64_t Election::next_term() const {
  const auto n = static_cast<std::int64_t>(peers_.size());
  const auto self = static_cast<std::int64_t>(self_);
  std::int64_t t = newest_term_ + 1;
  if (n > 1) t += ((self - (t - 1)) % n + n) % n;
  return t;
}

RoleChange Election::decide(std::int64_t now_ms) {
  const std::size_t members = peers_.size();
  std::vector<std::size_t> visible;
  for (std::size_t i = 0; i < members; ++i)
    if (reachable(i, now_ms)) visible.push_back(i);
  sees_active_term_ = 0;
  for (std::size_t i : visible)
    if (i != self_ && peers_[i].view.active)
      sees_active_term_ = std::max(sees_active_term_, peers_[i].view.term);
  auto name = [](std::size_t i) { return "member " + std::to_string(i + 1) + " of HAD_LIST"; };
  auto step_down = [&](std::string reason) {
    if (!active_) return RoleChange{};
    active_ = false;
    return RoleChange{RoleChange::StepDown, newest_term_, std::move(reason), std::nullopt};
  };
  if (members >= 3 && 2 * visible.size() <= members)
    return step_down("only " + std::to_string(visible.size()) + " of the " + std::to_string(members) +
                     " central managers of HAD_LIST are reachable, not a majority");
  if (!active_ && members > 1 && listening_ && now_ms - started_ms_ < listen_ms_)
    return {};  // still listening
  auto is_active = [&](std::size_t i) { return i == self_ ? active_ : peers_[i].view.active; };
  auto term_of = [&](std::size_t i) { return i == self_ ? active_term_ : peers_[i].view.term; };

  std::size_t winner = visible.front();
  if (!use_primary_) {
    std::optional<std::size_t> keeper;
    for (std::size_t i : visible)
      if (is_active(i) && (!keeper || term_of(i) > term_of(*keeper))) keeper = i;
    if (keeper) winner = *keeper;
  }
  if (winner != self_)
    return step_down(use_primary_ ? name(winner) + ", the primary, is reachable (HAD_USE_PRIMARY)"
                                  : name(winner) + " is active in a newer term");
  const bool other_active =
      std::any_of(visible.begin(), visible.end(), [&](std::size_t i) { return i != self_ && is_active(i); });
  // An active member that hears of a newer term (the other side of a
  // partition was active meanwhile) takes a newer one still.
  const bool newer_term_heard = active_ && newest_term_ > active_term_;
  RoleChange change;
  if (!active_) {
    // It waits until every reachable active member has stepped down, and
    // while a member it lost only moments ago holds a newer accountant.
    if (other_active) return {};
    // A member it hears hears an active one it does not hear (yet).
    for (std::size_t i : visible)
      if (i != self_ && peers_[i].view.sees_active_term > 0) return {};
    for (std::size_t i = 0; i < members; ++i)
      if (i != self_ && !reachable(i, now_ms) && peers_[i].heard_at && peers_[i].view.version > version_ &&
          now_ms - *peers_[i].heard_at < timeout_ms_)
        return {};
    change.reason = visible.size() == 1 && members > 1
                        ? "no other central manager of HAD_LIST is reachable"
                        : (winner == 0 ? "it is the first reachable member of HAD_LIST"
                                       : "no member before it in HAD_LIST is reachable");
  } else if (newer_term_heard) {
    change.reason = "another central manager was active in term " + std::to_string(newest_term_);
  } else {
    return {};
  }
  active_ = true;
  change.kind = RoleChange::Activate;
  change.term = active_term_ = newest_term_ = next_term();
  StateVersion best = version_;
  for (std::size_t i : visible)
    if (i != self_ && peers_[i].view.version > best) {
      best = peers_[i].view.version;
      change.catch_up_from = i;
    }
  return change;
}

}  // namespace cara::ha
