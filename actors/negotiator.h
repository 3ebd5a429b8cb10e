// The negotiator actor: a shell around accounting::Accountant, the group
// tree and negotiation::NegotiationCycle. A cycle starts every
// NEGOTIATOR_INTERVAL, or early when a schedd asks (Reschedule), but never
// sooner than NEGOTIATOR_MIN_INTERVAL after the last one began nor
// NEGOTIATOR_CYCLE_DELAY after it ended (central-manager-configuration,
// "The Negotiation Cycle"). A cycle fetches the slots, submitters and
// schedds from the collector and each submitter's requests from its
// submitter actor (every remote request with a timeout), runs the model's
// cycle, charges the matches to the accountant, and sends each match to its
// slot and its schedd with a fresh claim id. Between cycles it answers
// userprio queries and commands and publishes its ad with the cycle's
// statistics. A durable negotiator (a node's) stores its accountant
// (ACCOUNTANT_STORE) after each cycle, before the cycle's matches go out,
// and with each userprio change, before it answers; it starts from what
// was stored.
//
// Under high availability (DESIGN.md "High availability") the node's had
// (actors/had.h) says whether the negotiator is active or stands by
// (NegotiatorRole). Only an active one negotiates, takes userprio changes
// and publishes its ad (with its election's term); every match carries the
// term. The active one sends each committed accountant to the standbys
// (ReplicaBatch) and, unless HAD_REPLICATION_SYNC is False, waits for
// their acknowledgement (or request_timeout) before the cycle's matches
// go out or a userprio change is answered. A standby stores what it is
// sent as its own; a newly active one first fetches a newer state from a
// peer when its had names one.
#pragma once

#include <caf/fwd.hpp>
#include <chrono>
#include <memory>
#include <vector>

#include "actors/daemon_context.h"
#include "actors/ha_link.h"
#include "actors/interfaces.h"
#include "actors/introducer.h"
#include "actors/pool_clock.h"
#include "model/config/config.h"

namespace cara::actors {

struct NegotiatorSetup {
  std::shared_ptr<const config::Config> config;
  PoolClock clock;
  std::vector<collector_actor> collectors;  // the first one is queried
  std::chrono::milliseconds request_timeout{std::chrono::seconds(5)};
  std::uint64_t seed = 0;  // claim ids: 0 draws from the system's entropy
  DaemonContext context;
  bool durable = false;  // the accountant is stored and read back at start
  std::string address;   // "<host:port>" of this node, published as MyAddress (cara userprio -name)
  // The node's link to its had: set when the node runs one (HAD in
  // DAEMON_LIST); the negotiator then starts standing by.
  std::shared_ptr<HaLink> ha;
  // Joins the nodes of schedds and slots this negotiator's node has not
  // met (it runs apart from the central manager); null: none.
  introducer_actor introducer;
};

Result<negotiator_actor> spawn_negotiator(caf::actor_system& sys, NegotiatorSetup setup);

}  // namespace cara::actors
