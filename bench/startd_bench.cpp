// Startd benchmark (issue 3): prints one JSON object with
//   policy_evals_per_s     slot policy evaluations (one Tick of one busy slot:
//                          WANT_SUSPEND, SUSPEND/PREEMPT, the ad refreshed)
//                          on a 128-slot machine with the desktop policy
//   carve_release_per_s    dynamic slots carved from a partitionable slot and
//                          given back (the PartitionableSlot model)
//   dslot_claims_per_s     claim -> dynamic slot -> activate -> exit -> release
//                          through the whole Startd model
// each the median of several runs on one core.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <vector>

#include "bench/timing.h"
#include "model/classad/parser.h"
#include "model/config/config.h"
#include "model/startd/startd.h"

using namespace cara;
using namespace cara::startd;
using cara::bench::median;
using cara::bench::rate;

namespace {

constexpr int kRuns = 7;

std::shared_ptr<config::MemoryHost> host(std::int64_t cpus, std::int64_t memory) {
  auto h = std::make_shared<config::MemoryHost>();
  config::MachineFacts f;
  f.detected_cpus = f.detected_physical_cpus = cpus;
  f.detected_memory_mib = memory;
  f.detected_disk_kib = 100000000;
  h->set_machine(f);
  return h;
}

std::unique_ptr<Startd> machine(const std::string& text, std::int64_t cpus, std::int64_t memory,
                                std::int64_t now) {
  auto c = config::config_from_text(text, {"STARTD", ""}, host(cpus, memory));
  if (!c) {
    std::fprintf(stderr, "%s\n", c.error().c_str());
    std::exit(1);
  }
  auto s = Startd::create(*c, now);
  if (!s) {
    std::fprintf(stderr, "%s\n", s.error().c_str());
    std::exit(1);
  }
  return std::move(*s);
}

}  // namespace

int main() {
  const std::int64_t t0 = 1794909600;
  const classad::ClassAd job = *classad::parse_classad(
      "[ Owner = \"alice\"; JobUniverse = 5; ImageSize = 100000; RequestCpus = 1; "
      "RequestMemory = 1000; RequestDisk = 1000 ]");

  // 128 static slots, all running a job under the desktop policy.
  auto busy = machine("use POLICY : Desktop\nNUM_SLOTS = 128\nCLAIM_WORKLIFE = -1\n", 128, 256000, t0);
  MachineReadings idle;
  idle.machine = *classad::parse_long_form("KeyboardIdle = 100000\nConsoleIdle = 100000\nCpuBusyTime = 0\n");
  busy->sensors(idle, t0);
  for (int i = 1; i <= 128; ++i) {
    std::string slot = "slot" + std::to_string(i), claim = "c" + std::to_string(i);
    busy->deliver(slot, ClaimRequest{claim, job, false, {}}, t0);
    busy->deliver(slot, Activate{claim, job}, t0);
  }
  std::int64_t now = t0;
  std::vector<double> evals, carves, claims;
  for (int run = 0; run < kRuns; ++run) {
    constexpr int kTicks = 200;
    evals.push_back(rate(std::int64_t{128} * kTicks, [&] {
      for (int i = 0; i < kTicks; ++i) busy->tick(++now);
    }));

    // The partitionable slot alone: carve 64 one-core slots, give them back.
    auto pslot_config = config::config_from_text("", {"STARTD", ""}, host(64, 256000));
    auto m = machine_resources(*pslot_config);
    PartitionableSlot pslot(1, *m, m->total, {});
    Resources want;
    want.cpus = 1;
    want.memory = 2048;
    want.disk = 1000;
    constexpr int kRounds = 2000;
    std::vector<DynamicSlot> live;
    live.reserve(64);
    carves.push_back(rate(std::int64_t{64} * kRounds, [&] {
      for (int r = 0; r < kRounds; ++r) {
        while (auto d = pslot.carve(want)) live.push_back(std::move(*d));
        for (const DynamicSlot& d : live) pslot.release(d);
        live.clear();
      }
    }));

    // Through the Startd: the full life of a dynamic slot.
    auto p = machine("CLAIM_WORKLIFE = 0\n", 64, 256000, t0);
    constexpr int kClaims = 2000;
    claims.push_back(rate(kClaims, [&] {
      for (int i = 0; i < kClaims; ++i) {
        std::string id = "c" + std::to_string(i);
        auto r = p->deliver("slot1", ClaimRequest{id, job, false, {}}, t0 + i);
        const std::string& dslot = r.actions.front().slot;
        p->deliver(dslot, Activate{id, job}, t0 + i);
        p->deliver(dslot, JobExited{id}, t0 + i);  // CLAIM_WORKLIFE 0: the claim ends
      }
    }));
  }
  nlohmann::json out;
  out["policy_evals_per_s"] = median(evals);
  out["carve_release_per_s"] = median(carves);
  out["dslot_claims_per_s"] = median(claims);
  out["slots"] = 128;
  out["runs"] = kRuns;
  std::printf("%s\n", out.dump().c_str());
  return 0;
}
