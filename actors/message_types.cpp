#include "actors/message_types.h"

#include <algorithm>
#include <caf/actor_system_config.hpp>
#include <thread>

#include "actors/interfaces.h"
#include "actors/introducer.h"

namespace cara::actors {

std::size_t scheduler_workers() {
  return std::max(2U, std::thread::hardware_concurrency());
}

void configure_actor_system(caf::actor_system_config& cfg) {
  cfg.set("scheduler.policy", caf::atom("sharing"));
  // One worker per core: CAF starts at least four, and on two cores the
  // extra workers only take turns through the shared queue's futex (the
  // durable end-to-end run: 5 % more jobs per second with two; STACK-NOTES.md).
  cfg.set("scheduler.max-threads", scheduler_workers());
  cfg.set("logger.verbosity", caf::atom("quiet"));
  add_message_types(cfg);
}

void add_message_types(caf::actor_system_config& cfg) {
  cfg.add_message_type<WireAd>("cara::WireAd")
      .add_message_type<AdUpdate>("cara::AdUpdate")
      .add_message_type<AdInvalidate>("cara::AdInvalidate")
      .add_message_type<AdQueryRequest>("cara::AdQueryRequest")
      .add_message_type<AdQueryReply>("cara::AdQueryReply")
      .add_message_type<RequestsQuery>("cara::RequestsQuery")
      .add_message_type<JoinNodes>("cara::JoinNodes")
      .add_message_type<NodesJoined>("cara::NodesJoined")
      .add_message_type<WireRequest>("cara::WireRequest")
      .add_message_type<RequestsReply>("cara::RequestsReply")
      .add_message_type<SlotMatched>("cara::SlotMatched")
      .add_message_type<MatchInfo>("cara::MatchInfo")
      .add_message_type<MatchBatch>("cara::MatchBatch")
      .add_message_type<Reschedule>("cara::Reschedule")
      .add_message_type<ClaimSlot>("cara::ClaimSlot")
      .add_message_type<ClaimReply>("cara::ClaimReply")
      .add_message_type<ActivateClaim>("cara::ActivateClaim")
      .add_message_type<ActivateReply>("cara::ActivateReply")
      .add_message_type<ReleaseSlot>("cara::ReleaseSlot")
      .add_message_type<ClaimEnded>("cara::ClaimEnded")
      .add_message_type<JobFinished>("cara::JobFinished")
      .add_message_type<PoolHistoryQuery>("cara::PoolHistoryQuery")
      .add_message_type<ReconnectJob>("cara::ReconnectJob")
      .add_message_type<ReconnectReply>("cara::ReconnectReply")
      .add_message_type<JobSuspension>("cara::JobSuspension")
      .add_message_type<SubmitRequest>("cara::SubmitRequest")
      .add_message_type<SubmitReply>("cara::SubmitReply")
      .add_message_type<SubmitProgress>("cara::SubmitProgress")
      .add_message_type<QueueQuery>("cara::QueueQuery")
      .add_message_type<HistoryQuery>("cara::HistoryQuery")
      .add_message_type<QueueReply>("cara::QueueReply")
      .add_message_type<JobActionRequest>("cara::JobActionRequest")
      .add_message_type<JobActionReply>("cara::JobActionReply")
      .add_message_type<UserprioQuery>("cara::UserprioQuery")
      .add_message_type<UserprioReply>("cara::UserprioReply")
      .add_message_type<UserprioCommand>("cara::UserprioCommand")
      .add_message_type<CommandReply>("cara::CommandReply")
      .add_message_type<DrainRequest>("cara::DrainRequest")
      .add_message_type<VacateRequest>("cara::VacateRequest")
      .add_message_type<ReconfigRequest>("cara::ReconfigRequest")
      .add_message_type<OffRequest>("cara::OffRequest")
      .add_message_type<PingRequest>("cara::PingRequest")
      .add_message_type<DaemonControl>("cara::DaemonControl")
      .add_message_type<PingReply>("cara::PingReply")
      .add_message_type<NodeStop>("cara::NodeStop")
      .add_message_type<Reconfigure>("cara::Reconfigure")
      .add_message_type<GroupTurn>("cara::GroupTurn")
      .add_message_type<GroupQuery>("cara::GroupQuery")
      .add_message_type<SlotCall>("cara::SlotCall")
      .add_message_type<SlotOrder>("cara::SlotOrder")
      .add_message_type<StarterExit>("cara::StarterExit")
      .add_message_type<StarterSignal>("cara::StarterSignal")
      .add_message_type<Timer>("cara::Timer")
      .add_message_type<ViewHosts>("cara::ViewHosts")
      .add_message_type<CollectorPeers>("cara::CollectorPeers")
      .add_message_type<Collectors>("cara::Collectors")
      .add_message_type<HadHeartbeat>("cara::HadHeartbeat")
      .add_message_type<HadPeers>("cara::HadPeers")
      .add_message_type<NegotiatorRole>("cara::NegotiatorRole")
      .add_message_type<AccountantVersion>("cara::AccountantVersion")
      .add_message_type<ReplicaBatch>("cara::ReplicaBatch")
      .add_message_type<ReplicaFetch>("cara::ReplicaFetch")
      .add_message_type<HadStatusQuery>("cara::HadStatusQuery")
      .add_message_type<HadStatus>("cara::HadStatus")
      .add_message_type<had_actor>("cara::had_actor")
      .add_message_type<collector_actor>("cara::collector_actor")
      .add_message_type<negotiator_actor>("cara::negotiator_actor")
      .add_message_type<group_actor>("cara::group_actor")
      .add_message_type<schedd_actor>("cara::schedd_actor")
      .add_message_type<slot_actor>("cara::slot_actor")
      .add_message_type<startd_actor>("cara::startd_actor");
}

}  // namespace cara::actors
