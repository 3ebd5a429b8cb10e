#include "apps/web/summary_cache.h"

#include <mutex>
#include <vector>

namespace cara::web {

struct SummaryCache::State {
  Fetch fetch;
  std::chrono::milliseconds max_age;
  Clock clock;
  std::mutex mutex;
  SharedSummary value;
  std::chrono::steady_clock::time_point fetched_at;
  bool in_flight = false;
  std::vector<Done> waiting;
};

SummaryCache::SummaryCache(Fetch fetch, std::chrono::milliseconds max_age, Clock clock)
    : state_(std::make_shared<State>()) {
  state_->fetch = std::move(fetch);
  state_->max_age = max_age;
  state_->clock = std::move(clock);
}

void SummaryCache::get(Done done) {
  std::shared_ptr<State> s = state_;
  {
    std::unique_lock<std::mutex> lock(s->mutex);
    if (s->value && s->clock() - s->fetched_at <= s->max_age) {
      Result<SharedSummary> fresh = s->value;
      lock.unlock();
      done(fresh);
      return;
    }
    s->waiting.push_back(std::move(done));
    if (s->in_flight) return;
    s->in_flight = true;
  }
  s->fetch([s](Result<monitor::PoolSummary> got) {
    std::vector<Done> waiting;
    Result<SharedSummary> answer = Error{"no summary"};
    {
      std::lock_guard<std::mutex> lock(s->mutex);
      s->in_flight = false;
      if (got) {
        s->value = std::make_shared<const monitor::PoolSummary>(std::move(*got));
        s->fetched_at = s->clock();
        answer = s->value;
      } else {
        answer = Error{got.error()};
      }
      waiting.swap(s->waiting);
    }
    for (Done& d : waiting) d(answer);
  });
}

}  // namespace cara::web
