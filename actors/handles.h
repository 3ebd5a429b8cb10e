// The typed interface of every daemon actor, declared once (DESIGN.md:
// "the typed interface of an actor declared once, in its own small
// header"), over forward-declared messages so that the messages themselves
// can carry typed handles: a ClaimSlot names the schedd to tell, and a
// ClaimReply the slot to activate, as interfaces, so sending one the wrong
// message is a compile error. A handler's reply type is part of the
// interface. The messages are in messages.h and node_messages.h;
// interfaces.h brings all three together.
#pragma once

#include <caf/actor_cast.hpp>
#include <caf/detail/type_list.hpp>
#include <caf/replies_to.hpp>
#include <caf/typed_actor.hpp>

namespace cara::actors {

struct WireAd;
// messages.h
struct AdUpdate;
struct AdInvalidate;
struct AdQueryRequest;
struct AdQueryReply;
struct PoolHistoryQuery;
struct RequestsQuery;
struct RequestsReply;
struct SlotMatched;
struct MatchBatch;
struct Reschedule;
struct ClaimSlot;
struct ClaimReply;
struct ActivateClaim;
struct ActivateReply;
struct ReleaseSlot;
struct ClaimEnded;
struct JobFinished;
struct JobSuspension;
struct ReconnectJob;
struct ReconnectReply;
struct SubmitRequest;
struct SubmitReply;
struct SubmitProgress;
struct QueueQuery;
struct HistoryQuery;
struct QueueReply;
struct JobActionRequest;
struct JobActionReply;
struct UserprioQuery;
struct UserprioReply;
struct UserprioCommand;
struct DrainRequest;
struct PingRequest;
struct DaemonControl;
struct PingReply;
struct VacateRequest;
struct GroupTurn;
struct GroupQuery;
struct CommandReply;
// node_messages.h
struct SlotCall;
struct SlotOrder;
struct StarterExit;
struct StarterSignal;
struct Timer;
struct Collectors;
struct ViewHosts;
struct CollectorPeers;
struct Reconfigure;
struct NodeStop;
// ha_messages.h
struct HadHeartbeat;
struct HadPeers;
struct NegotiatorRole;
struct AccountantVersion;
struct ReplicaBatch;
struct ReplicaFetch;
struct HadStatusQuery;
struct HadStatus;

using collector_actor =
    caf::typed_actor<caf::reacts_to<AdUpdate>, caf::reacts_to<AdInvalidate>,
                     caf::replies_to<AdQueryRequest>::with<AdQueryReply>,
                     caf::replies_to<PoolHistoryQuery>::with<AdQueryReply>, caf::reacts_to<Timer>,
                     caf::reacts_to<ViewHosts>, caf::reacts_to<CollectorPeers>,
                     caf::replies_to<Reconfigure>::with<CommandReply>>;

// Under high availability a negotiator is active or stands by as its had
// says (NegotiatorRole); the active one replicates its accountant to the
// standbys (ReplicaBatch) and a newly active one may fetch a newer one.
using negotiator_actor =
    caf::typed_actor<caf::reacts_to<Reschedule>, caf::replies_to<UserprioQuery>::with<UserprioReply>,
                     caf::replies_to<UserprioCommand>::with<CommandReply>, caf::reacts_to<Timer>,
                     caf::reacts_to<Collectors>, caf::replies_to<Reconfigure>::with<CommandReply>,
                     caf::reacts_to<NegotiatorRole>, caf::replies_to<ReplicaBatch>::with<CommandReply>,
                     caf::replies_to<ReplicaFetch>::with<ReplicaBatch>>;

// A central manager's high-availability daemon (actors/had.h).
using had_actor = caf::typed_actor<caf::reacts_to<HadHeartbeat>, caf::reacts_to<HadPeers>,
                                   caf::reacts_to<AccountantVersion>, caf::reacts_to<Timer>,
                                   caf::replies_to<HadStatusQuery>::with<HadStatus>,
                                   caf::replies_to<Reconfigure>::with<CommandReply>>;

// One per accounting group of the negotiator (GROUP_NAMES and <none>): the
// group's quota and what each cycle made of it; its report between cycles.
using group_actor = caf::typed_actor<caf::reacts_to<GroupTurn>, caf::replies_to<GroupQuery>::with<WireAd>>;

using schedd_actor = caf::typed_actor<
    caf::replies_to<SubmitRequest>::with<SubmitReply>, caf::replies_to<RequestsQuery>::with<RequestsReply>,
    caf::replies_to<QueueQuery>::with<QueueReply>, caf::replies_to<HistoryQuery>::with<QueueReply>,
    caf::replies_to<JobActionRequest>::with<JobActionReply>, caf::reacts_to<MatchBatch>,
    caf::reacts_to<ClaimEnded>, caf::replies_to<JobFinished>::with<CommandReply>,
    caf::reacts_to<JobSuspension>, caf::reacts_to<Timer>, caf::reacts_to<Collectors>,
    caf::replies_to<Reconfigure>::with<CommandReply>>;

using slot_actor =
    caf::typed_actor<caf::reacts_to<SlotMatched>, caf::replies_to<ClaimSlot>::with<ClaimReply>,
                     caf::replies_to<ActivateClaim>::with<ActivateReply>, caf::reacts_to<ReleaseSlot>,
                     caf::replies_to<ReconnectJob>::with<ReconnectReply>, caf::reacts_to<SlotOrder>,
                     caf::reacts_to<StarterExit>, caf::reacts_to<Timer>,
                     caf::replies_to<DrainRequest>::with<CommandReply>>;

using startd_actor =
    caf::typed_actor<caf::replies_to<SlotCall>::with<ClaimReply>, caf::reacts_to<Timer>,
                     caf::reacts_to<Collectors>, caf::replies_to<DrainRequest>::with<CommandReply>,
                     caf::replies_to<VacateRequest>::with<CommandReply>,
                     caf::replies_to<Reconfigure>::with<CommandReply>, caf::reacts_to<NodeStop>>;

// The defrag daemon (actors/defrag.h): it only acts on its own timers.
using defrag_actor = caf::typed_actor<caf::reacts_to<Timer>, caf::reacts_to<Collectors>,
                                      caf::replies_to<Reconfigure>::with<CommandReply>>;

// Who hears how a submission's building goes (the local socket's server
// for `cara submit`'s progress bar).
using submit_progress_actor = caf::typed_actor<caf::reacts_to<SubmitProgress>>;

using starter_actor = caf::typed_actor<caf::reacts_to<StarterSignal>, caf::reacts_to<StarterExit>>;

// `self` (in its handlers) as a handle of its own interface: passing it
// where another interface is expected does not compile.
template <class Self>
auto handle_of(Self* self) {
  using Handle = typename caf::detail::tl_apply<typename Self::signatures, caf::typed_actor>::type;
  return caf::actor_cast<Handle>(self);
}

}  // namespace cara::actors
