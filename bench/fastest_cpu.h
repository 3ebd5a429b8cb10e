// Pins a single-threaded bench to the allowed CPU whose memory answers
// fastest.
//
// On the 2-vCPU VM the benches run on, the host's other tenants slow one
// vCPU or both for minutes at a time, and what they slow is memory, not
// arithmetic: `classad_bench eval` gave 13 M/s on one vCPU and 21 M/s on
// the other in the same minute (same binary, no steal time reported), and
// later 12-13 M/s on both, while an arithmetic loop ran at the same speed
// throughout. Landing on the slowed vCPU was most of the swing of
// `match_per_s` between runs (bench/RESULTS.md, 2026-11-29). A short chase
// of dependent loads times each allowed CPU and the bench stays on the
// fastest; the JSON gives the times, so that a run on a contended machine
// shows as such (about 4-13 ms quiet, 15-25 ms contended, here).
#pragma once

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

namespace cara::bench {

// Milliseconds a fixed chase of dependent loads through 8 MiB takes here
// (past L2, within L3: what a neighbour's use of the shared cache slows;
// an arithmetic loop ran at the same speed on both vCPUs while matching
// ran at 60 %). The best of three: an interrupt must not make a CPU look
// slow.
inline double calibration_ms() {
  constexpr std::size_t kWords = std::size_t{8} << 20 >> 3;
  static const std::vector<std::uint32_t> next = [] {
    // One cycle through every word, in a scrambled order (a fixed LCG
    // shuffle), so that the prefetcher cannot guess the next load.
    std::vector<std::uint32_t> order(kWords), out(kWords);
    for (std::size_t i = 0; i < kWords; ++i) order[i] = static_cast<std::uint32_t>(i);
    std::uint64_t x = 88172645463325252ull;
    for (std::size_t i = kWords - 1; i > 0; --i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      std::swap(order[i], order[(x >> 33) % (i + 1)]);
    }
    for (std::size_t i = 0; i < kWords; ++i) out[order[i]] = order[(i + 1) % kWords];
    return out;
  }();
  double best = 1e9;
  for (int round = 0; round < 3; ++round) {
    const auto start = std::chrono::steady_clock::now();
    std::uint32_t at = 0;
    for (int i = 0; i < 200'000; ++i) at = next[at];
    volatile std::uint32_t sink = at;
    (void)sink;
    best = std::min(
        best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

// Moves this thread to the fastest allowed CPU; returns what it measured:
// {"cpu": n, "calibration_ms": {"0": ms, "1": ms, ...}}.
inline nlohmann::json pin_to_fastest_cpu() {
  nlohmann::json out;
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return out;
  int best_cpu = -1;
  double best_ms = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &allowed)) continue;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0) continue;
    const double ms = calibration_ms();
    out["calibration_ms"][std::to_string(cpu)] = ms;
    if (best_cpu < 0 || ms < best_ms) {
      best_cpu = cpu;
      best_ms = ms;
    }
  }
  if (best_cpu < 0) return out;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(best_cpu, &one);
  sched_setaffinity(0, sizeof one, &one);
  out["cpu"] = best_cpu;
  return out;
}

}  // namespace cara::bench
