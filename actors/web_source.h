// What the web endpoint (issue 24) asks the pool, from outside the actor
// system: the collector's live ads, the groups' reports (from the
// negotiator of the newest term, as `cara userprio -quotas` asks) and this
// central manager's had, gathered into a monitor::PoolView; or a range of
// the pool history. Each fetch is a short-lived actor that asks in
// parallel and answers once, through a callback, from an actor's thread:
// the HTTP server's thread never waits on the pool.
#pragma once

#include <caf/fwd.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "actors/interfaces.h"
#include "actors/pool_clock.h"
#include "model/common/result.h"
#include "model/monitor/pool_summary.h"

namespace cara::actors {

class HaLink;

struct WebSourceSetup {
  // The collectors to ask, the node's own first (the first that is set is asked).
  std::function<std::vector<collector_actor>()> collectors;
  std::shared_ptr<HaLink> ha;  // null: this node runs no had
  PoolClock clock;
  std::chrono::milliseconds timeout{5000};  // per question
};

// Gathers the pool's view; `done` is called once with it, or with why it
// could not be had (no collector, the collector did not answer).
void fetch_pool_view(caf::actor_system& sys, const WebSourceSetup& setup,
                     std::function<void(Result<monitor::PoolView>)> done);

// The history rows from `from` to `to` that `constraint` selects.
void fetch_pool_history(caf::actor_system& sys, const WebSourceSetup& setup, std::int64_t from,
                        std::int64_t to, std::string constraint,
                        std::function<void(Result<std::vector<classad::ClassAd>>)> done);

}  // namespace cara::actors
