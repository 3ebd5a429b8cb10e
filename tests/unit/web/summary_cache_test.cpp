// The web endpoint's summary cache (apps/web/summary_cache.h): many
// requests share one fetch; a summary is served until it is older than
// the refresh interval; a failed fetch reaches every waiting request.
#include "apps/web/summary_cache.h"

#include <catch2/catch.hpp>
#include <functional>
#include <vector>

using namespace cara;
using namespace std::chrono_literals;

namespace {

struct FakePool {
  std::vector<std::function<void(Result<monitor::PoolSummary>)>> pending;
  int fetches = 0;
  std::chrono::steady_clock::time_point now{};

  web::SummaryCache cache(std::chrono::milliseconds max_age) {
    return web::SummaryCache(
        [this](std::function<void(Result<monitor::PoolSummary>)> done) {
          ++fetches;
          pending.push_back(std::move(done));
        },
        max_age, [this] { return now; });
  }
  void answer(std::int64_t time) {
    auto p = std::move(pending);
    pending.clear();
    monitor::PoolSummary s;
    s.now = time;
    for (auto& d : p) d(s);
  }
};

}  // namespace

TEST_CASE("requests waiting for a summary share one fetch", "[web][cache]") {
  FakePool pool;
  auto cache = pool.cache(2000ms);
  std::vector<std::int64_t> got;
  for (int i = 0; i < 100; ++i)
    cache.get([&](const Result<web::SharedSummary>& s) { got.push_back((*s)->now); });
  CHECK(pool.fetches == 1);
  CHECK(got.empty());
  pool.answer(7);
  REQUIRE(got.size() == 100);
  CHECK(got.front() == 7);
  // Fresh: served at once, no fetch.
  pool.now += 1500ms;
  cache.get([&](const Result<web::SharedSummary>& s) { got.push_back((*s)->now); });
  CHECK(got.size() == 101);
  CHECK(pool.fetches == 1);
  // Older than the interval: fetched again.
  pool.now += 1000ms;
  cache.get([&](const Result<web::SharedSummary>& s) { got.push_back((*s)->now); });
  CHECK(pool.fetches == 2);
  pool.answer(8);
  CHECK(got.back() == 8);
}

TEST_CASE("a failed fetch reaches every waiting request, and the next one asks again", "[web][cache]") {
  FakePool pool;
  auto cache = web::SummaryCache(
      [&](std::function<void(Result<monitor::PoolSummary>)> done) {
        ++pool.fetches;
        done(Error{"the collector did not answer"});
      },
      2000ms, [&] { return pool.now; });
  int failed = 0;
  for (int i = 0; i < 3; ++i)
    cache.get([&](const Result<web::SharedSummary>& s) {
      CHECK_FALSE(s);
      CHECK(s.error() == "the collector did not answer");
      ++failed;
    });
  CHECK(failed == 3);
  CHECK(pool.fetches == 3);  // nothing cached from a failure
}
