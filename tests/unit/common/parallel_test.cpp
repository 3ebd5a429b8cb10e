// parallel_chunks: every index once, in chunks of at least min_chunk, and a
// chunk's exception rethrown after every thread has ended.
#include "model/common/parallel.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <stdexcept>
#include <thread>
#include <vector>

using cara::parallel_chunks;

TEST_CASE("parallel_chunks covers every index once, in contiguous chunks", "[parallel]") {
  for (std::size_t n : {0u, 1u, 7u, 100u, 1001u}) {
    for (int threads : {1, 2, 3, 8}) {
      std::vector<int> hits(n, 0);
      std::atomic<int> calls{0};
      parallel_chunks(n, threads, 1, [&](std::size_t begin, std::size_t end) {
        REQUIRE(begin < end);
        ++calls;
        for (std::size_t i = begin; i < end; ++i) ++hits[i];  // disjoint: no race
      });
      for (int h : hits) CHECK(h == 1);
      CHECK(calls == static_cast<int>(std::min<std::size_t>(n, static_cast<std::size_t>(threads))));
    }
  }
}

TEST_CASE("parallel_chunks starts no thread for chunks below min_chunk", "[parallel]") {
  std::vector<std::thread::id> who;
  parallel_chunks(1000, 4, 600, [&](std::size_t begin, std::size_t end) {
    CHECK(begin == 0);
    CHECK(end == 1000);
    who.push_back(std::this_thread::get_id());
  });
  REQUIRE(who.size() == 1);
  CHECK(who[0] == std::this_thread::get_id());
  std::atomic<int> calls{0};
  parallel_chunks(1000, 4, 300, [&](std::size_t, std::size_t) { ++calls; });
  CHECK(calls == 3);  // 1000 / 300: three chunks are worth it, not four
}

TEST_CASE("parallel_chunks rethrows the first chunk's exception after all have ended", "[parallel]") {
  std::atomic<int> finished{0};
  auto body = [&](std::size_t begin, std::size_t) {
    if (begin > 0) {
      ++finished;
      throw std::runtime_error("chunk at " + std::to_string(begin));
    }
    ++finished;
  };
  try {
    parallel_chunks(40, 4, 1, body);
    FAIL("no exception");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()) == "chunk at 10");
  }
  CHECK(finished == 4);
}
