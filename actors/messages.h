// The messages daemons exchange (DESIGN.md, "Actors and the flow of one
// job"). Plain structs with `inspect` overloads so they cross nodes; every
// one is registered in message_types.cpp. They are coarse on purpose: a
// batch of ads, one autocluster, one claim — never one message per job in
// a negotiation. Replies carry ok/reason instead of a CAF error so that a
// refusal reads the same in every process. What tools ask of a schedd
// (submit, queue, history, job actions) is in queue_messages.h.
#pragma once

#include <caf/actor.hpp>
#include <caf/actor_cast.hpp>
#include <caf/error.hpp>
#include <caf/meta/load_callback.hpp>
#include <caf/meta/type_name.hpp>
#include <caf/sec.hpp>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "actors/handles.h"
#include "actors/wire_ad.h"
#include "model/collector/ad_store.h"
#include "model/schedd/job_status.h"

namespace cara::schedd {

// A job id crosses nodes as its two numbers, typed: nothing parses "C.P"
// text on either side. One that names no job (a cluster below 1, a proc
// below 0) does not load, with this error; CAF 0.17 then delivers the
// message empty, and no handler ever sees the id.
template <class I>
typename I::result_type inspect(I& f, JobId& x) {
  auto check = [&x]() -> caf::error {
    if (x.cluster >= 1 && x.proc >= 0) return caf::none;
    return caf::make_error(
        caf::sec::invalid_argument,
        "malformed job id " + x.str() + ": expected a cluster of 1 or more and a proc of 0 or more");
  };
  return f(caf::meta::type_name("JobId"), x.cluster, x.proc, caf::meta::load_callback(check));
}

}  // namespace cara::schedd

namespace cara::actors {

// ---- Collector ------------------------------------------------------------

// Ads of one type (collector::AdType), each with the actor that speaks for
// it (a slot, a submitter, a schedd; may be null), so the negotiator can
// reach what it matches.
struct AdUpdate {
  std::int32_t type = 0;
  std::vector<WireAd> ads;
  std::vector<caf::actor> endpoints;  // empty, or one per ad
};
template <class I>
typename I::result_type inspect(I& f, AdUpdate& x) {
  return f(caf::meta::type_name("AdUpdate"), x.type, x.ads, x.endpoints);
}

struct AdInvalidate {
  std::int32_t type = 0;
  std::vector<std::string> keys;
};
template <class I>
typename I::result_type inspect(I& f, AdInvalidate& x) {
  return f(caf::meta::type_name("AdInvalidate"), x.type, x.keys);
}

struct AdQueryRequest {
  std::int32_t type = 0;
  std::string constraint;  // a ClassAd expression; empty: every ad
  std::vector<std::string> projection;
  bool absent = false;
};
template <class I>
typename I::result_type inspect(I& f, AdQueryRequest& x) {
  return f(caf::meta::type_name("AdQueryRequest"), x.type, x.constraint, x.projection, x.absent);
}

struct AdQueryReply {
  bool ok = true;
  std::string error;
  std::vector<WireAd> ads;
  std::vector<caf::actor> endpoints;  // one per ad
};
template <class I>
typename I::result_type inspect(I& f, AdQueryReply& x) {
  return f(caf::meta::type_name("AdQueryReply"), x.ok, x.error, x.ads, x.endpoints);
}

// condor_stats: the collector's pool history (KEEP_POOL_HISTORY), the
// rows sampled from `from` to `to` (seconds since the epoch, inclusive)
// that `constraint` selects, oldest first. Answered with ads and no
// endpoints.
struct PoolHistoryQuery {
  std::int64_t from = 0, to = 0;
  std::string constraint;
  std::vector<std::string> projection;
};
template <class I>
typename I::result_type inspect(I& f, PoolHistoryQuery& x) {
  return f(caf::meta::type_name("PoolHistoryQuery"), x.from, x.to, x.constraint, x.projection);
}

// The actor that speaks for an ad has the interface its ad type names:
// a Machine ad's is a slot, a Submitter ad's and a Scheduler ad's the
// schedd (it answers for its submitters' requests itself), a Negotiator ad's the negotiator, a Collector ad's
// a collector. The collector keeps endpoints of every type side by side, so AdUpdate and AdQueryReply hold
// them untyped; they become typed here and nowhere else.
template <collector::AdType T>
constexpr auto endpoint_interface() {
  using collector::AdType;
  static_assert(T == AdType::Machine || T == AdType::Submitter || T == AdType::Scheduler ||
                    T == AdType::Negotiator || T == AdType::Collector,
                "no interface speaks for this ad type");
  if constexpr (T == AdType::Machine) return std::type_identity<slot_actor>{};
  if constexpr (T == AdType::Submitter) return std::type_identity<schedd_actor>{};
  if constexpr (T == AdType::Scheduler) return std::type_identity<schedd_actor>{};
  if constexpr (T == AdType::Negotiator) return std::type_identity<negotiator_actor>{};
  if constexpr (T == AdType::Collector) return std::type_identity<collector_actor>{};
}
template <collector::AdType T>
struct EndpointOf {
  using type = typename decltype(endpoint_interface<T>())::type;
};
template <collector::AdType T>
typename EndpointOf<T>::type endpoint(const caf::actor& a) {
  return caf::actor_cast<typename EndpointOf<T>::type>(a);
}
// An actor (`self` in its handlers) as the endpoint of the ads of type T
// it sends; it must have the interface T names.
template <collector::AdType T, class Self>
caf::actor as_endpoint(Self* self) {
  static_assert(std::is_same_v<typename Self::signatures, typename EndpointOf<T>::type::signatures>,
                "an ad's endpoint must have the interface its ad type names");
  return caf::actor_cast<caf::actor>(self);
}
template <collector::AdType T>
caf::actor as_endpoint(const typename EndpointOf<T>::type& handle) {
  return caf::actor_cast<caf::actor>(handle);
}
template <collector::AdType T>
std::vector<typename EndpointOf<T>::type> endpoints(const std::vector<caf::actor>& all) {
  std::vector<typename EndpointOf<T>::type> out;
  out.reserve(all.size());
  for (const caf::actor& a : all) out.push_back(endpoint<T>(a));
  return out;
}

// ---- Negotiation ----------------------------------------------------------

// The negotiator asks a submitter for its idle resource requests.
struct RequestsQuery {
  std::int64_t cycle = 0;
  std::string submitter;
  // The job attributes slot and negotiator expressions read (the
  // negotiator knows the slots), for autoclustering.
  std::vector<std::string> significant;
  // NEGOTIATOR_JOB_CONSTRAINT as text (empty: every job): the schedd
  // offers this negotiator only the jobs it is true of.
  std::string job_constraint;
};
template <class I>
typename I::result_type inspect(I& f, RequestsQuery& x) {
  return f(caf::meta::type_name("RequestsQuery"), x.cycle, x.submitter, x.significant, x.job_constraint);
}

struct WireRequest {
  WireAd job;  // the first job of the autocluster
  std::int64_t count = 0;
  std::vector<schedd::JobId> job_ids;  // in offer order
};
template <class I>
typename I::result_type inspect(I& f, WireRequest& x) {
  return f(caf::meta::type_name("WireRequest"), x.job, x.count, x.job_ids);
}

struct RequestsReply {
  std::string submitter;
  std::vector<WireRequest> requests;
};
template <class I>
typename I::result_type inspect(I& f, RequestsReply& x) {
  return f(caf::meta::type_name("RequestsReply"), x.submitter, x.requests);
}

// To a slot: the negotiator matched it (MATCH_TIMEOUT starts). Asked as a
// request, its (empty) answer says the slot has taken the announcement:
// the negotiator tells the schedd of a match on another node's slot only
// then, so no claim overtakes it. A slot in the negotiator's own process
// has it in its mailbox as soon as it is sent.
// `term`: the election term of the negotiator (0 without high
// availability); a slot refuses a term older than one it has seen.
struct SlotMatched {
  std::string claim_id;
  std::int64_t term = 0;
};
template <class I>
typename I::result_type inspect(I& f, SlotMatched& x) {
  return f(caf::meta::type_name("SlotMatched"), x.claim_id, x.term);
}

// To a schedd: its matches of one cycle.
struct MatchInfo {
  std::string claim_id;  // the secret only this schedd and the slot know
  std::string submitter;
  std::string slot_name;
  WireAd slot_ad;
  slot_actor slot;
  std::vector<schedd::JobId> job_ids;  // the jobs the match was made for
  bool preempting = false;
  // ALLOW_PSLOT_PREEMPTION: the dynamic slots of the matched partitionable
  // slot whose jobs make room for this one.
  std::vector<std::string> preempt_dslots;
};
template <class I>
typename I::result_type inspect(I& f, MatchInfo& x) {
  return f(caf::meta::type_name("MatchInfo"), x.claim_id, x.submitter, x.slot_name, x.slot_ad, x.slot,
           x.job_ids, x.preempting, x.preempt_dslots);
}
struct MatchBatch {
  std::vector<MatchInfo> matches;
  std::int64_t term = 0;  // as SlotMatched's: a schedd refuses older terms too
};
template <class I>
typename I::result_type inspect(I& f, MatchBatch& x) {
  return f(caf::meta::type_name("MatchBatch"), x.matches, x.term);
}

// A schedd with idle jobs asks for a cycle soon (slots freed or jobs came).
struct Reschedule {
  std::string schedd;
};
template <class I>
typename I::result_type inspect(I& f, Reschedule& x) {
  return f(caf::meta::type_name("Reschedule"), x.schedd);
}

// ---- Claiming (schedd <-> slot) --------------------------------------------

struct ClaimSlot {
  std::string claim_id;
  WireAd job;
  bool preempting = false;
  schedd_actor schedd;                      // told when the claim ends or its job exits
  std::vector<std::string> preempt_dslots;  // MatchInfo::preempt_dslots
  // CLAIM_PARTITIONABLE_LEFTOVERS: a claim on a partitionable slot asks for
  // a claim on what is left of it once the job's dynamic slot is carved.
  bool leftovers = false;
};
template <class I>
typename I::result_type inspect(I& f, ClaimSlot& x) {
  return f(caf::meta::type_name("ClaimSlot"), x.claim_id, x.job, x.preempting, x.schedd, x.preempt_dslots,
           x.leftovers);
}
struct ClaimReply {
  bool ok = false;
  std::string reason;
  std::string slot_name;  // the slot that holds the claim (a dynamic one for a p-slot)
  slot_actor slot;
  WireAd slot_ad;
  // ClaimSlot::leftovers: a claim id for the rest of the partitionable
  // slot (empty when none is left) and its ad, for the schedd's own
  // matchmaking of its next jobs ("scheduler matchmaking").
  std::string leftover_claim_id;
  WireAd leftover_ad;
};
template <class I>
typename I::result_type inspect(I& f, ClaimReply& x) {
  return f(caf::meta::type_name("ClaimReply"), x.ok, x.reason, x.slot_name, x.slot, x.slot_ad,
           x.leftover_claim_id, x.leftover_ad);
}
struct ActivateClaim {
  std::string claim_id;
  WireAd job;
  // The owner's uid and gid at the access point, or -1 when it has no
  // such user: an execution point with SOFT_UID_DOMAIN runs an owner it
  // does not know with them (model/startd/run_as.h).
  std::int64_t owner_uid = -1, owner_gid = -1;
};
template <class I>
typename I::result_type inspect(I& f, ActivateClaim& x) {
  return f(caf::meta::type_name("ActivateClaim"), x.claim_id, x.job, x.owner_uid, x.owner_gid);
}

struct ActivateReply {
  bool ok = false;
  std::string reason;
};
template <class I>
typename I::result_type inspect(I& f, ActivateReply& x) {
  return f(caf::meta::type_name("ActivateReply"), x.ok, x.reason);
}

// `at_once`: the claim's job was held or removed; it leaves the slot now
// rather than retiring (model/startd/slot_state.h ReleaseClaim).
struct ReleaseSlot {
  std::string claim_id;
  bool at_once = false;
};
template <class I>
typename I::result_type inspect(I& f, ReleaseSlot& x) {
  return f(caf::meta::type_name("ReleaseSlot"), x.claim_id, x.at_once);
}

// Slot -> schedd.
struct ClaimEnded {
  std::string claim_id;
  std::string reason;
};
template <class I>
typename I::result_type inspect(I& f, ClaimEnded& x) {
  return f(caf::meta::type_name("ClaimEnded"), x.claim_id, x.reason);
}

// Asked as a request: the schedd answers once the job's end is stored,
// and until then the slot keeps it (for the job's lease, when the schedd
// is gone) to tell a schedd that reconnects.
struct JobFinished {
  std::string claim_id;
  schedd::JobId job_id;
  bool by_signal = false;
  std::int32_t code = 0;       // exit code, or the signal
  std::string error;           // the job could not be started: it goes on hold
  bool evicted = false;        // killed because the slot vacated it: it runs again
  std::int32_t hold_code = 0;  // with `error`: HTCondor's HoldReasonCode (0: FailedToCreateProcess)
};
template <class I>
typename I::result_type inspect(I& f, JobFinished& x) {
  return f(caf::meta::type_name("JobFinished"), x.claim_id, x.job_id, x.by_signal, x.code, x.error, x.evicted,
           x.hold_code);
}
struct JobSuspension {
  std::string claim_id;
  schedd::JobId job_id;
  bool suspended = false;
};
template <class I>
typename I::result_type inspect(I& f, JobSuspension& x) {
  return f(caf::meta::type_name("JobSuspension"), x.claim_id, x.job_id, x.suspended);
}

// A restarted schedd to the slot its stored job was activated on (job
// leases, model/schedd/job_claim.h): does the slot still hold the claim,
// and what of the job? The claim passes to `schedd` when it does.
struct ReconnectJob {
  std::string claim_id;
  schedd::JobId job_id;
  schedd_actor schedd;
};
template <class I>
typename I::result_type inspect(I& f, ReconnectJob& x) {
  return f(caf::meta::type_name("ReconnectJob"), x.claim_id, x.job_id, x.schedd);
}
// `state` is a claim::Reconnection (0 Gone .. 4 Idle).
struct ReconnectReply {
  std::int32_t state = 0;
  std::string reason;
};
template <class I>
typename I::result_type inspect(I& f, ReconnectReply& x) {
  return f(caf::meta::type_name("ReconnectReply"), x.state, x.reason);
}

// ---- The accountant (condor_userprio) ---------------------------------------

struct UserprioQuery {};
template <class I>
typename I::result_type inspect(I& f, UserprioQuery&) {
  return f(caf::meta::type_name("UserprioQuery"));
}

struct UserprioReply {
  std::vector<WireAd> records;     // Name, Priority, PriorityFactor, ResourcesUsed, ...
  std::vector<WireAd> groups;      // each group actor's report (ConfigQuota, EffectiveQuota, ...)
  std::int64_t last_update = 0;    // when the priorities were last updated
  std::vector<WireAd> claims;      // the claims charged: Name (slot), Submitter, SlotWeight, StartTime
  std::vector<WireAd> last_cycle;  // per submitter: Name, CycleTime, Matched, Rejections (reasons)
};
template <class I>
typename I::result_type inspect(I& f, UserprioReply& x) {
  return f(caf::meta::type_name("UserprioReply"), x.records, x.groups, x.last_update, x.claims, x.last_cycle);
}

// ---- Execution points -----------------------------------------------------

// condor_drain: stop a machine's slots taking new jobs, its running jobs
// leaving as `how` says (startd::DrainSchedule: 0 graceful, 1 quick,
// 2 fast), or take the drain back. `reason`: the DrainReason (empty: "by
// command"); `start`: START while draining (a ClassAd expression; empty:
// False); `resume_on_completion`: back to work once drained (the defrag
// daemon's drains). Needs ADMINISTRATOR. A slot actor takes it too and
// hands it to its startd (the defrag daemon reaches a machine through its
// slot ads, as HTCondor's reaches the startd an ad names).
struct DrainRequest {
  std::int32_t how = 0;
  bool cancel = false;
  std::string reason;
  std::string start;
  bool resume_on_completion = false;
};
template <class I>
typename I::result_type inspect(I& f, DrainRequest& x) {
  return f(caf::meta::type_name("DrainRequest"), x.how, x.cancel, x.reason, x.start, x.resume_on_completion);
}

// condor_vacate: the claims of `slot` (its short name, slot1_2), or of
// every slot when empty, end; their jobs go back to their queues. `fast`:
// hard-killed at once. Needs ADMINISTRATOR.
struct VacateRequest {
  std::string slot;
  bool fast = false;
};
template <class I>
typename I::result_type inspect(I& f, VacateRequest& x) {
  return f(caf::meta::type_name("VacateRequest"), x.slot, x.fast);
}

// ---- Nodes ----------------------------------------------------------------

// condor_reconfig: the node's master reads its configuration again and
// has its daemons apply it. Needs ADMINISTRATOR. Answered with a
// CommandReply saying what was applied.
struct ReconfigRequest {};
template <class I>
typename I::result_type inspect(I& f, ReconfigRequest&) {
  return f(caf::meta::type_name("ReconfigRequest"));
}

// condor_off: the node stops — gracefully (jobs retire and vacate, within
// SHUTDOWN_GRACEFUL_TIMEOUT) or fast (jobs are killed). Needs
// ADMINISTRATOR. Answered with a CommandReply before the node stops.
struct OffRequest {
  bool fast = false;
};
template <class I>
typename I::result_type inspect(I& f, OffRequest& x) {
  return f(caf::meta::type_name("OffRequest"), x.fast);
}

// condor_off -daemon NAME, condor_on -daemon NAME, condor_restart
// [-daemon NAME]: `what` is "off", "on" or "restart"; `daemon` as in
// DAEMON_LIST, or empty for every daemon of the node (the master stays).
// An off daemon stays off (its master does not restart it) until "on".
// `fast`: killed at once (a startd's jobs too), else stopped gracefully.
// Needs ADMINISTRATOR; answered with a CommandReply.
struct DaemonControl {
  std::string what;
  std::string daemon;
  bool fast = false;
};
template <class I>
typename I::result_type inspect(I& f, DaemonControl& x) {
  return f(caf::meta::type_name("DaemonControl"), x.what, x.daemon, x.fast);
}

// condor_ping: what the asker may do on the node. `identity` is what its
// certificate proved; `allowed` and `refused` name the permission levels
// (READ, WRITE, ADMINISTRATOR, DAEMON, NEGOTIATOR); `daemons` the node's.
struct PingRequest {};
template <class I>
typename I::result_type inspect(I& f, PingRequest&) {
  return f(caf::meta::type_name("PingRequest"));
}
struct PingReply {
  std::string identity;
  std::vector<std::string> allowed, refused, daemons;
};
template <class I>
typename I::result_type inspect(I& f, PingReply& x) {
  return f(caf::meta::type_name("PingReply"), x.identity, x.allowed, x.refused, x.daemons);
}

// ---- Groups ---------------------------------------------------------------

// A group's turn in a cycle: what the cycle made of its quota (group_ad).
struct GroupTurn {
  std::int64_t cycle = 0;
  WireAd report;
};
template <class I>
typename I::result_type inspect(I& f, GroupTurn& x) {
  return f(caf::meta::type_name("GroupTurn"), x.cycle, x.report);
}

struct GroupQuery {};
template <class I>
typename I::result_type inspect(I& f, GroupQuery&) {
  return f(caf::meta::type_name("GroupQuery"));
}

struct UserprioCommand {
  std::string command;  // setfactor, setprio, setaccum, setfloor, setceil, resetusage, delete
  std::string name;
  double value = 0;
  std::int64_t duration = 0;  // setfloor/setceil; 0: none
};
template <class I>
typename I::result_type inspect(I& f, UserprioCommand& x) {
  return f(caf::meta::type_name("UserprioCommand"), x.command, x.name, x.value, x.duration);
}

struct CommandReply {
  bool ok = false;
  std::string error;
};
template <class I>
typename I::result_type inspect(I& f, CommandReply& x) {
  return f(caf::meta::type_name("CommandReply"), x.ok, x.error);
}

}  // namespace cara::actors
