// The schedd actor's state and the functions its handlers share, split by
// concept: schedd_claiming.cpp carries out the claim model's actions,
// schedd_queue.cpp serves the queue (submissions, queries, requests, ads),
// schedd.cpp holds the behaviour. Internal to actors/.
#pragma once

#include <caf/actor_addr.hpp>
#include <caf/node_id.hpp>
#include <caf/typed_event_based_actor.hpp>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "actors/commit_queue.h"
#include "actors/schedd.h"
#include "model/claim/schedd_claims.h"
#include "model/claim/term_fence.h"
#include "model/schedd/job_queue.h"
#include "persistence/queue_store.h"

namespace cara::actors {

// The slot handles behind the claim model's SlotRefs: a number per slot
// actor, so the model never holds an actor.
class SlotHandles {
 public:
  // The slot's number, given on first sight; 0 for a null handle.
  claim::SlotRef ref(const slot_actor& slot);
  // The number of the slot behind `addr`, or 0.
  claim::SlotRef find(const caf::actor_addr& addr) const;
  slot_actor get(claim::SlotRef ref) const;
  void forget(claim::SlotRef ref);

 private:
  std::unordered_map<claim::SlotRef, slot_actor> by_ref_;
  std::unordered_map<caf::actor_addr, claim::SlotRef> by_addr_;
  claim::SlotRef next_ = 1;
};

struct ScheddState {
  // What the schedd was spawned with, shared by the answers it awaits (a
  // copy per request would cost a dozen reference counts per claim).
  std::shared_ptr<const ScheddSetup> setup;
  std::shared_ptr<const config::Config> config;  // the queue policy's macros: kept alive with it
  std::optional<schedd::JobQueue> queue;
  std::optional<claim::ScheddClaims> claims;  // over `queue`
  // Where the queue is stored (DESIGN.md "State and durability"); none in
  // an embedded pool that keeps it in memory.
  std::optional<persistence::QueueStore> store;
  // Group commit: the changes and what waits for them to be stored
  // (replies, the claim model's actions); a commit is scheduled at most
  // once at a time.
  std::optional<CommitQueue> commits;
  bool commit_scheduled = false;
  std::optional<caf::actor_clock::time_point> last_commit;  // the last synced commit
  SlotHandles slots;
  std::string schedd_name;
  std::string uid_domain;
  bool claim_leftovers = true;        // CLAIM_PARTITIONABLE_LEFTOVERS
  std::set<std::string> super_users;  // QUEUE_SUPER_USERS
  std::set<std::string> submitters;   // every submitter advertised: it keeps an ad when idle
  std::int64_t completed = 0;         // jobs that completed since the schedd started (JobsCompleted)
  bool dirty = true;                  // counts changed: advertise
  bool reschedule = true;             // ask for a cycle at the next tick
  // The pool's negotiators, all of one election term (several when the
  // pool is sharded among negotiators), each asked for a cycle.
  std::vector<negotiator_actor> negotiators;
  std::int64_t negotiator_term = -1;  // the election term of their ads (0: no high availability)
  // NEGOTIATOR_JOB_CONSTRAINT texts negotiators sent, parsed once each.
  std::map<std::string, classad::ExprPtr> job_constraints;
  claim::TermFence terms;                    // matches of an older election term are refused
  std::vector<collector_actor> collectors;   // setup's, until the node says otherwise
  std::set<caf::node_id> direct;             // nodes this schedd has its own connection to
  std::vector<claim::Reconnect> reconnects;  // to try again at the next kReconnectTimer
  std::int64_t last_periodic = 0, last_advertise = 0, update_interval = 300, periodic_interval = 60;
  // Each submission's seed for its $RANDOM_INTEGER and $RANDOM_CHOICE,
  // drawn from one generator seeded from the system's entropy at spawn:
  // two std::random_device per submission cost a one-job submit some
  // 50 µs (issue 21).
  std::mt19937_64 submit_seeds{(static_cast<std::uint64_t>(std::random_device{}()) << 32) ^
                               std::random_device{}()};
  std::shared_ptr<const AccountBook> accounts;  // this machine's users
  std::map<std::string, Account> owners;        // found so far, by Owner
  static inline const char* name = "schedd";
};

using ScheddSelf = schedd_actor::stateful_pointer<ScheddState>;

// ---- schedd_claiming.cpp ----------------------------------------------------

// A match of the negotiator's: claimed over a connection of the schedd's
// own to the slot's node where it can make one.
void claim_match(ScheddSelf self, MatchInfo m, const ScheddSetup& setup);
// Carries out what the claim model decided.
void carry_out(ScheddSelf self, claim::Outcome out);
// The reconnections that failed, tried again (kReconnectTimer).
void reconnect_again(ScheddSelf self);
// The owner's account at the access point, or null when there is none.
const Account* owner_account(ScheddSelf self, const std::string& owner);

// ---- schedd_commit.cpp -----------------------------------------------------

// Sets up the schedd's CommitQueue (at spawn).
void start_commits(ScheddSelf self);

// The queue changed: it is stored at the next commit (at once without a
// store); then its user log events are written, and the schedd advertises
// and asks for a cycle at its next tick.
void changed(ScheddSelf self);
// Runs `then` once every change made so far is stored: at once when none
// waits, else after the commit, in the order asked.
void after_commit(ScheddSelf self, std::function<void()> then);
// Stores what changed with one synced write, then runs what waited for it.
// A write that fails stops the schedd (false): nothing that waited is
// answered, and the handler answers nothing either.
bool commit(ScheddSelf self);
// The Timer code of the commit the schedd sends itself: the submits
// already in its mailbox are handled before it and share its write.
inline constexpr std::int32_t kCommitTimer = 1;
// The Timer code of the retry of failed reconnections.
inline constexpr std::int32_t kReconnectTimer = 2;

// ---- schedd_queue.cpp ------------------------------------------------------

SubmitReply submit(ScheddSelf self, const ScheddSetup& setup, const SubmitRequest& r);
QueueReply query(ScheddSelf self, const QueueQuery& q, std::int64_t now);
// condor_rm, condor_hold, condor_release: the queue changes, and the jobs
// held or removed leave their slots.
JobActionReply act_on_jobs(ScheddSelf self, const JobActionRequest& r, std::int64_t now);
// The finished jobs in the schedd's store, newest first.
QueueReply history(ScheddSelf self, const HistoryQuery& q, std::int64_t now);
RequestsReply requests_for(ScheddSelf self, const RequestsQuery& q, const ScheddSetup& setup);
void advertise(ScheddSelf self);
bool has_idle(ScheddSelf self);

}  // namespace cara::actors
