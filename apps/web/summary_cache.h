// Many web requests, few questions to the pool: a summary younger than
// WEB_REFRESH_INTERVAL is served as it is; an older one is fetched again
// once, however many requests wait for it (they all get the same answer).
// So a scraper, a dashboard and a load test together cost the collector at
// most one round of queries per interval.
#pragma once

#include <chrono>
#include <functional>
#include <memory>

#include "model/common/result.h"
#include "model/monitor/pool_summary.h"

namespace cara::web {

using SharedSummary = std::shared_ptr<const monitor::PoolSummary>;

class SummaryCache {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  // Starts one fetch; calls its argument once, from any thread.
  using Fetch = std::function<void(std::function<void(Result<monitor::PoolSummary>)>)>;
  using Done = std::function<void(const Result<SharedSummary>&)>;

  SummaryCache(Fetch fetch, std::chrono::milliseconds max_age, Clock clock = std::chrono::steady_clock::now);

  // Calls `done` with a summary no older than max_age (or the failure of
  // the fetch made for it), now or when the fetch in flight ends.
  void get(Done done);

 private:
  struct State;
  std::shared_ptr<State> state_;  // shared with the fetch in flight
};

}  // namespace cara::web
