// The access point's side of the claim protocol (policy-configuration,
// "condor_schedd and condor_startd interaction"; DESIGN.md "Actors and the
// flow of one job"): the claims a schedd holds, the claims it is asking
// for, and what each event of the exchange does to them and to its queue.
//
// Every decision is a function from (this state, an event, now) to a new
// state and the Actions the schedd actor carries out: claim a slot,
// activate a claim with a job, release a claim, watch or stop watching a
// slot, write a log line. The actor only sends and receives; the tables of
// tests/unit/claim/schedd_claims_test.cpp say what each event does.
//
// Slots are named by SlotRef, a number the actor gives each slot handle,
// so that the model knows nothing of actors.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "model/classad/classad.h"
#include "model/schedd/job_queue.h"
#include "model/schedd/job_status.h"

namespace cara::claim {

using schedd::JobId;
using SlotRef = std::uint64_t;  // 0: no slot

// A match of the negotiator's, or a leftover of a partitionable slot the
// startd offered with a claim (CLAIM_PARTITIONABLE_LEFTOVERS).
struct Offer {
  std::string claim_id;
  std::string submitter;
  std::string slot_name;
  classad::ClassAd slot_ad;
  SlotRef slot = 0;
  std::vector<JobId> job_ids;  // the jobs the match was made for, in offer order
  bool preempting = false;
  std::vector<std::string> preempt_dslots;  // ALLOW_PSLOT_PREEMPTION: the dynamic slots it evicts
};

// The slot's yes to a claim: the one answer to RequestClaim. A claim that
// preempts comes once the slot's jobs have left (the slot answers late,
// not twice); with pslot preemption the slot is the dynamic one carved
// for it.
struct Grant {
  SlotRef slot = 0;               // the slot that holds the claim (a dynamic one for a p-slot)
  std::string slot_name;          // its short name; the ad's Name wins when it has one
  classad::ClassAd slot_ad;       // empty: the offer's ad stands
  std::string leftover_claim_id;  // the rest of the partitionable slot, when any is left
  classad::ClassAd leftover_ad;
};

// How the job of a claim ended (JobFinished).
struct JobEnd {
  bool by_signal = false;
  std::int32_t code = 0;  // exit code or signal
  std::string error;      // it could not be started: held
  bool evicted = false;   // the slot vacated it: it runs again, and the slot ends the claim
  std::int32_t hold_code = 0;
  // The job the slot reports on; an end of another job than the claim's
  // (told twice, the claim having moved on) is ignored. Unset: the claim's.
  std::optional<JobId> job;
};

// ---- Actions ---------------------------------------------------------------

// Ask the slot for the claim, for `job` (ClaimSlot).
struct RequestClaim {
  std::string claim_id;
  SlotRef slot = 0;
  JobId job;
  bool preempting = false;
  std::vector<std::string> preempt_dslots;
};
// Run `job` on the claim (ActivateClaim).
struct Activate {
  std::string claim_id;
  SlotRef slot = 0;
  JobId job;
};
// Give the claim back (ReleaseSlot). `at_once`: its job was held or
// removed, and leaves the slot now rather than retiring (condor_rm).
struct Release {
  std::string claim_id;
  SlotRef slot = 0;
  bool at_once = false;
};
// Be told when the slot dies (its node is gone), or stop being told.
struct Watch {
  SlotRef slot = 0;
};
struct Unwatch {
  SlotRef slot = 0;
};
// Find the slot named `slot_name` and ask it whether it still holds the
// claim and runs `job` (ReconnectJob): a restarted schedd's claims
// (restored). A retry comes after a failed attempt: the actor waits a
// little before it.
struct Reconnect {
  std::string claim_id;
  std::string slot_name;
  JobId job;
  bool retry = false;
};
// A line for the schedd's log.
struct Note {
  bool warning = false;
  std::string text;
};
using Action = std::variant<RequestClaim, Activate, Release, Watch, Unwatch, Reconnect, Note>;

// A slot's answer to Reconnect: what it holds of the claim.
enum class Reconnection {
  Gone,       // no such claim (the slot restarted, or its lease ran out)
  Running,    // the claim runs the job
  Suspended,  // ... suspended
  Exited,     // the job exited while the schedd was away: its JobFinished follows
  Idle,       // the claim is held but runs no job (the activation never started it)
};

struct Outcome {
  std::vector<Action> actions;
  bool queue_changed = false;   // the queue changed: write its events, advertise
  bool claims_changed = false;  // a claim was given back: advertise
  bool reschedule = false;      // idle jobs may need a negotiation cycle
};

// A claim the schedd holds.
struct HeldClaim {
  std::string id;
  SlotRef slot = 0;
  std::string slot_name;  // as the pool names it (slot1_1@host): the job's RemoteHost
  classad::ClassAd slot_ad;
  std::string submitter;
  std::vector<JobId> job_ids;
  std::optional<JobId> job;  // the job activated on it
  bool ending = false;       // its job was evicted: the slot ends the claim
};

class ScheddClaims {
 public:
  // The queue the claims run jobs of; it outlives this.
  explicit ScheddClaims(schedd::JobQueue& queue) : queue_(&queue) {}

  // A match (or a leftover): claim the slot for the next job it is for,
  // unless none is left (the match then times out at the slot). The slot
  // is watched from the request on: its answer may take as long as its
  // preempted jobs take to leave, and a slot that dies gives none.
  Outcome offered(Offer offer);
  // The slot's answer to RequestClaim: a grant, or a refusal (also an
  // unreachable slot).
  Outcome granted(const std::string& claim_id, Grant grant);
  Outcome refused(const std::string& claim_id);
  // The slot ended the claim (vacated, preempted, CLAIM_WORKLIFE, drained).
  // News of a claim not granted yet is not kept: the grant's activation
  // then fails, and the job waits for the next match.
  Outcome ended(const std::string& claim_id, const std::string& reason, std::int64_t now);
  // The slot's actor is gone (its node died): its claims and their jobs
  // are lost, and the claims asked of it are refused.
  Outcome slot_lost(SlotRef slot, const std::string& reason, std::int64_t now);
  // The slot's answer to Activate.
  Outcome activated(const std::string& claim_id, JobId job, bool ok, std::int64_t now);
  // The job of a claim ended; the claim runs the next job or is released.
  Outcome job_ended(const std::string& claim_id, const JobEnd& end, std::int64_t now);
  // The slot suspended or continued the claim's job (SUSPEND, CONTINUE).
  Outcome suspended(const std::string& claim_id, bool suspended, std::int64_t now);
  // Jobs the queue no longer wants run (held or removed by a user or the
  // periodic policy) that a claim runs or is starting: each such claim is
  // given back at once, its job leaving the slot without retirement.
  Outcome stop_unwanted();

  // A schedd restarted from its store: every job stored with a claim
  // (schedd::job_claim) is being reconnected (Reconnect) and busy until
  // the slot answers or the job's lease (JobLeaseDuration from now) runs
  // out. A job whose lease is 0 lost its run with the old schedd.
  Outcome restored(std::int64_t now);
  // The slot's answer to Reconnect; `slot_ad` its ad as the collector has it.
  Outcome reconnected(const std::string& claim_id, SlotRef slot, Reconnection answer,
                      classad::ClassAd slot_ad, std::int64_t now);
  // The slot could not be found or did not answer: tried again until the
  // lease runs out, then the job runs again (by then the execution point
  // has given up the job: its lease began before ours).
  Outcome reconnect_failed(const std::string& claim_id, const std::string& reason, std::int64_t now);
  // Claims of a restarted schedd not reconnected yet.
  std::size_t reconnecting() const { return reconnecting_.size(); }

  // Whether `job` is being claimed for, activated or running.
  bool busy(JobId job) const { return busy_.count(job) > 0; }
  const std::map<std::string, HeldClaim>& held() const { return held_; }
  // Claims asked for and not answered yet.
  std::size_t asking() const { return asking_.size(); }

 private:
  struct Asking {
    Offer offer;
    JobId job;
  };
  struct Reconnecting {
    JobId job;
    std::string slot_name;
    std::string submitter;
    std::int64_t deadline = 0;  // when the job's lease runs out
  };

  std::optional<JobId> next_job(const std::string& submitter, const std::vector<JobId>& job_ids,
                                const classad::ClassAd& slot_ad) const;
  void activate(HeldClaim& c, JobId job, Outcome& out);
  void release(const std::string& claim_id, Outcome& out, bool at_once = false);
  void reuse_or_release(const std::string& claim_id, Outcome& out);
  void lose(const std::string& claim_id, const std::string& why, std::int64_t now, Outcome& out);
  // The job lost its claim: it runs again (evicted when it ran).
  void requeue(JobId job, const std::string& why, std::int64_t now, Outcome& out);
  // One more (fewer) claim on or asked of `slot`: watched from the first,
  // unwatched after the last.
  void watch(SlotRef slot, Outcome& out);
  void unwatch_if_unused(SlotRef slot, Outcome& out);
  bool is_idle(JobId job) const;
  // A queue transition that failed: said in the log, with what it means
  // (`what()`, only worded when it failed).
  template <class What>
  static void check(const Status& s, Outcome& out, What&& what) {
    if (!s) out.actions.push_back(Note{true, what() + ": " + s.error()});
  }

  schedd::JobQueue* queue_;
  std::map<std::string, HeldClaim> held_;             // by claim id
  std::map<std::string, Asking> asking_;              // by claim id
  std::map<std::string, Reconnecting> reconnecting_;  // by claim id
  std::set<JobId> busy_;
  std::map<SlotRef, std::size_t> watched_;  // claims on or asked of each slot
};

}  // namespace cara::claim
