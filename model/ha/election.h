// Which central manager runs the negotiator (central-manager-configuration,
// "High Availability of the Central Manager"; DESIGN.md "High
// availability"). Each central manager's had keeps one Election: it hears
// the others' heartbeats, notices who went quiet, and decides, as a
// function of (this state, now), whether its own negotiator becomes active
// or stands by. Every member decides from the same rule, so they agree:
//
// - The winner is the first member of HAD_LIST that is reachable; without
//   HAD_USE_PRIMARY a member that is already active keeps its role (of
//   several after a partition heals, the one of the newest term).
// - With three or more members only a side that reaches a majority of
//   HAD_LIST may have an active member, so a partition never yields two
//   accountants that diverge (caracara's addition to HTCondor's rule).
// - A member takes the role only when no reachable member still has it,
//   and in a new term of its own (no other member ever takes it), above
//   every term it has heard of; an active member that hears of a newer
//   term takes a newer one still. Slots and schedds refuse matches of a
//   term older than the newest they have seen (model/claim/term_fence.h),
//   so two negotiators never hand out one slot.
// - A member that starts listens before it decides, until it heard an
//   active member or every other one, or at most two timeouts and two join
//   timeouts (HadConfig::startup_listen_ms), so that the others reach it and it
//   learns who is active first.
// - A member does not take the role while a member it hears hears an
//   active one (MemberView::sees_active_term) that it does not hear yet:
//   a member whose partition heals hears the others one by one, and must
//   not take the role from the active one only because that one's
//   heartbeat came last. In a part where not every member hears every
//   other, there is thus still at most one active member.
// - A member does not take the role with an accountant older than one a
//   member it lost holds, until that member has been silent for
//   HAD_CONNECTION_TIMEOUT: a link that dropped while the member lives
//   (a paused process, a connection timed out) is joined again within
//   that time, and nothing it committed is lost. A member killed with
//   kill -9 had replicated what it committed: the standby takes over at
//   once.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cara::ha {

// The accountant state a central manager holds: the term it was committed
// in and the commit's number. A newer state has the greater version.
struct StateVersion {
  std::int64_t term = 0;
  std::int64_t seq = 0;
  friend auto operator<=>(const StateVersion&, const StateVersion&) = default;
};

// What a member says of itself in each heartbeat.
struct MemberView {
  std::int64_t term = 0;  // the newest term it knows of
  bool active = false;    // whether its negotiator is active (in `term`)
  StateVersion version;   // the accountant state it holds
  // The term of an active member it hears (another one; 0: none), as of
  // its last decision.
  std::int64_t sees_active_term = 0;
};

struct RoleChange {
  enum Kind { None, Activate, StepDown };
  Kind kind = None;
  std::int64_t term = 0;  // Activate: the new term
  std::string reason;     // for the logs
  // Activate: a reachable member whose state is newer than this one's;
  // the negotiator takes that state before it negotiates.
  std::optional<std::size_t> catch_up_from;
};

class Election {
 public:
  // `self` is this member's index in HAD_LIST (of `members`); times in ms.
  // For `listen_ms` after it starts (default: one timeout) a member with
  // peers only listens (HadConfig::startup_listen_ms).
  Election(std::size_t members, std::size_t self, bool use_primary, std::int64_t timeout_ms,
           std::int64_t now_ms, std::optional<std::int64_t> listen_ms = std::nullopt);

  // This member's stored state (its version's term is a term it knew of).
  void set_version(StateVersion v);
  void heard(std::size_t from, const MemberView& view, std::int64_t now_ms);
  // Its link went down (a monitor's word): not reachable from now on.
  void lost(std::size_t from);
  // The role this member should have now; a change is taken at once.
  RoleChange decide(std::int64_t now_ms);

  // An active member tells the term it is active in.
  MemberView view() const {
    return MemberView{active_ ? active_term_ : newest_term_, active_, version_, sees_active_term_};
  }
  bool active() const { return active_; }
  std::int64_t term() const { return newest_term_; }  // the newest it knows of
  std::int64_t active_term() const { return active_term_; }
  std::size_t self() const { return self_; }
  bool reachable(std::size_t member, std::int64_t now_ms) const;
  // Reachable members other than this one, in HAD_LIST order.
  std::vector<std::size_t> reachable_peers(std::int64_t now_ms) const;

 private:
  std::int64_t next_term() const;

  struct Peer {
    std::optional<std::int64_t> heard_at;
    bool link_down = false;  // lost(): not reachable until heard again
    MemberView view;
  };
  std::size_t self_;
  bool use_primary_;
  std::int64_t timeout_ms_;
  std::int64_t started_ms_;
  std::int64_t listen_ms_;
  bool listening_ = true;    // until it heard an active member or every other one
  std::vector<Peer> peers_;  // by member index; this member's entry unused
  std::int64_t newest_term_ = 0;
  std::int64_t active_term_ = 0;       // the term it was made active in
  std::int64_t sees_active_term_ = 0;  // view(): an active member it heard at its last decision
  bool active_ = false;
  StateVersion version_;
};

}  // namespace cara::ha
