// The schedd actor: owns the schedd::JobQueue model. It takes submissions
// (built from the submit description with the pool's configuration),
// answers the negotiator's request queries (one request per autocluster),
// claims the slots it is matched with, activates each claim with a job,
// reuses a claim for the next job the slot accepts until the slot ends it
// (CLAIM_WORKLIFE is the slot's rule), and releases it when no job is left.
// Job events go to the jobs' user logs. A claim whose slot dies or ends it
// sends its job back to Idle, to run again; no job runs twice at once.
//
// When it has idle jobs and slots were freed or jobs arrived, it asks the
// negotiator for a cycle (Reschedule), so a freed slot is rematched within
// about a second (TARGETS.md, fair share).
#pragma once

#include <caf/fwd.hpp>
#include <chrono>
#include <memory>
#include <vector>

#include "actors/daemon_context.h"
#include "actors/interfaces.h"
#include "actors/pool_clock.h"
#include "model/common/account.h"
#include "model/config/config.h"
#include "model/config/config_host.h"

namespace cara::actors {

// A durable schedd's least time from one synced commit to the next
// (ScheddSetup::commit_gap).
inline constexpr std::chrono::microseconds kCommitGap{1000};

struct ScheddSetup {
  std::shared_ptr<const config::Config> config;
  PoolClock clock;
  std::vector<collector_actor> collectors;
  negotiator_actor negotiator;                // null: found through the collector's Negotiator ad
  std::shared_ptr<config::ConfigHost> files;  // what submit files read (`queue from`)
  std::chrono::milliseconds tick_every{std::chrono::milliseconds(250)};
  DaemonContext context;
  // A networked node's TLS middleman: before claiming a slot on another
  // node the schedd connects to that node directly (the slot ad's
  // MyAddress), so the claim does not travel through the central manager
  // and the slot's death is seen at once. Null in an embedded pool.
  caf::actor middleman;
  // The access point's users: user logs are written with the owner's
  // rights, and an execution point with SOFT_UID_DOMAIN learns the
  // owner's ids from here. Null: the system's.
  std::shared_ptr<const AccountBook> accounts;
  // Whether the queue is stored (JOB_QUEUE_LOG) and read back at start: a
  // node's schedd is; an embedded pool's (a simulation, a test) may keep
  // its queue in memory.
  bool durable = false;
  // The least time from one synced commit to the next: changes made in
  // between wait for it and share it. On a disk whose sync takes tens of
  // microseconds a busy schedd would otherwise sync about once per change
  // (a job's start, its end); spaced, it syncs fewer times and a change
  // waits at most this long. A change after a quiet spell is committed at
  // once. Zero: commit as soon as the mailbox is read. 1 ms: measured
  // (bench/RESULTS.md) between 16 clients each waiting for its answer,
  // which a longer gap slows (2 ms: a third fewer submits per second), and
  // the jobs' own starts and ends, which a shorter one syncs one by one.
  std::chrono::microseconds commit_gap = kCommitGap;
};

Result<schedd_actor> spawn_schedd(caf::actor_system& sys, ScheddSetup setup);

}  // namespace cara::actors
