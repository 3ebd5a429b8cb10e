// The negotiator actor's state and the parts of it that live in more than
// one file: the negotiation cycle, userprio and the behaviour in
// negotiator.cpp; storing the accountant, its replication and the
// high-availability role in negotiator_replication.cpp (DESIGN.md "High
// availability"). Included by those two files only.
#pragma once

#include <caf/typed_event_based_actor.hpp>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "actors/interfaces.h"
#include "actors/negotiator.h"
#include "model/accounting/accountant.h"
#include "model/accounting/group_tree.h"
#include "model/claim/claim_tracker.h"
#include "model/ha/election.h"
#include "model/negotiation/board_feed.h"
#include "model/negotiation/cycle_timing.h"
#include "model/negotiation/negotiation_cycle.h"
#include "model/negotiation/negotiator_policy.h"
#include "model/negotiation/slot_board.h"
#include "persistence/accountant_store.h"

namespace cara::actors {

struct NegotiatorState {
  negotiation::NegotiatorPolicy policy;
  std::optional<accounting::Accountant> accountant;
  std::optional<persistence::AccountantStore> store;  // none: the accountant lives in memory only
  std::optional<accounting::GroupTree> groups;
  negotiation::CycleTimes times;
  // When the running cycle began, on the actor's clock: its duration (from
  // the collector's answer to the last match sent, replication included)
  // is logged.
  caf::actor_clock::time_point cycle_began;
  std::int64_t cycles = 0;
  bool running = false;
  std::optional<std::int64_t> timer_at;  // when the pending cycle timer fires
  std::mt19937_64 random;
  std::uint64_t claim_counter = 0;
  std::int64_t started = 0;  // when this negotiator started: claim ids' public part
  negotiation::CycleStats last_stats;
  // The slot ads as the last cycles saw them (model/negotiation/
  // slot_board.h, board_feed.h), and the claims reconciled from what
  // changed since (model/claim/claim_tracker.h). Used while the collector
  // runs on this node: its ads then reach the negotiator as the very ads
  // it stores, unchanged from cycle to cycle until a startd updates them,
  // and a cycle describes only those that changed and leaves out the
  // slots no match can use. A collector on another node sends copies that
  // are new every cycle: those cycles run over the list.
  negotiation::SlotBoard board;
  negotiation::BoardFeed feed;
  claim::ClaimTracker tracker;
  // What the last cycle did for each submitter (submitter_cycle_ads):
  // condor_q -better-analyze reads it through condor_userprio's query.
  std::vector<classad::ClassAd> last_submitters;
  std::map<std::string, std::string> submitter_schedd;  // submitter -> ScheddName
  std::map<std::string, group_actor> group_actors;      // one per group of `groups`
  std::vector<collector_actor> collectors;              // setup's, until the node says otherwise
  // High availability (NegotiatorSetup::ha): whether this one is active,
  // in which term and since when, the version of its accountant, the
  // standbys it replicates to and how.
  bool active = true;
  std::int64_t term = 0;
  std::int64_t active_since = 0;
  ha::StateVersion version;
  std::vector<negotiator_actor> standbys;
  // The last commit, encoded (persistence::encode_snapshot): what goes to
  // the standbys, and at once to a standby that appears (one that was away
  // or restarted catches up before the next commit).
  std::string committed;
  // Standbys that missed the last commit (refused it, or did not answer):
  // sent it again every second while they are standbys of this one.
  struct Behind {
    negotiator_actor standby;
    bool appeared = false;  // it missed the commit sent when it appeared
  };
  std::vector<Behind> behind;
  bool replicate = false, sync_replication = true;
  std::int64_t wanted_term = -1;  // the term its had last made it active in; -1: standing by
  static inline const char* name = "negotiator";
};

using Self = negotiator_actor::stateful_pointer<NegotiatorState>;

// The negotiator's own timers (Timer::what).
enum TimerKind : std::int32_t { kCycleTimer = 1, kReplicaTimer = 2 };

using NegotiatorSelf = negotiator_actor::stateful_pointer<NegotiatorState>;

namespace negotiator_parts {

using Self = NegotiatorSelf;

// negotiator.cpp: a cycle timer for `at` (unless an earlier one is set),
// and the Negotiator and Accounting ads to the collectors (an active
// negotiator's only).
void schedule(Self self, const NegotiatorSetup& setup, std::int64_t at);
void publish(Self self, const NegotiatorSetup& setup);

// negotiator_replication.cpp:
// Stores the accountant as it is now; false when that failed: the
// negotiator stops (its master restarts it from what was stored), and
// nothing that followed from the change goes out. Under high availability
// the commit is the next of its term.
bool save(Self self, const NegotiatorSetup& setup);

// Stores the accountant, sends it to the standbys and calls `then` once
// they have it on disk (or did not answer within the request timeout; a
// standby that missed it takes the next one whole), at once when the
// replication is asynchronous or there are none. False (and nothing
// called) when the store failed.
bool save_then(Self self, const NegotiatorSetup& setup, std::function<void()> then);

// Takes a state another central manager committed (a standby's
// replication, or a newly active negotiator's catch-up) as its own: an
// older one than it holds is ignored, one that does not decode or restore
// is refused with why.
Status take_replica(Self self, const NegotiatorSetup& setup, const ReplicaBatch& b, const std::string& from);

// Sends the last commit again to the standbys that missed it (Behind),
// those still standbys of this active one: an active one that died before
// its next commit would otherwise leave one of them to take over with less
// than was committed (the kReplicaTimer).
void retry_replication(Self self, const NegotiatorSetup& setup);

// The had's word: stand by, or become active in its term (first taking
// the newer accountant of the peer it names).
void take_role(Self self, const NegotiatorSetup& setup, NegotiatorRole& r);

// ---- negotiator_introductions.cpp ---------------------------------------

// A negotiator apart from the central manager (one of several sharding the
// pool) has not met the nodes of the schedds and slots it is about to
// message: their guards would refuse it. Its node joins them first, found
// by their masters' MyAddress; a node that cannot be joined only sits this
// cycle out (its daemons refuse what they hear from us). Then `then`.
void introduce_then(Self self, const NegotiatorSetup& setup, const std::vector<schedd_actor>& schedds,
                    const std::vector<slot_actor>& slots, std::function<void()> then);

}  // namespace negotiator_parts

}  // namespace cara::actors
