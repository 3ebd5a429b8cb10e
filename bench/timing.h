// What every bench program measures with: the median of several runs, and
// the rate of one timed run.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

namespace cara::bench {

using Clock = std::chrono::steady_clock;

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Operations per second of one call of `body`, which performs `ops`.
template <class F>
double rate(std::int64_t ops, F&& body) {
  const auto start = Clock::now();
  body();
  return static_cast<double>(ops) / std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace cara::bench
