// Pins a single-threaded bench to the fastest CPU it may run on.
//
// On the 2-vCPU VM the benches run on, one vCPU at times runs everything at
// about 60 % of the other's speed for minutes (its host core is shared with
// a neighbour; no steal time is reported): `classad_bench eval` gave 13 M/s
// on one and 21 M/s on the other in the same minute, with the same binary.
// That, not the code, was most of the swing of `match_per_s` between runs
// (bench/RESULTS.md, 2026-11-29). A short fixed loop times each allowed CPU
// and the bench stays on the fastest; the JSON says which, and the loop's
// times, so that a slow machine shows as such.
#pragma once

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>

namespace cara::bench {

// Milliseconds a fixed chain of dependent integer steps takes here (the
// best of three: an interrupt must not make a CPU look slow).
inline double calibration_ms() {
  double best = 1e9;
  for (int round = 0; round < 3; ++round) {
    const auto start = std::chrono::steady_clock::now();
    volatile std::uint64_t sink;
    std::uint64_t x = 88172645463325252ull;
    for (int i = 0; i < 5'000'000; ++i) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
    }
    sink = x;
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
