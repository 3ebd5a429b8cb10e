// A slot state machine driven through simulated time for tests.
#pragma once

#include <catch2/catch.hpp>
#include <string>

#include "model/classad/parser.h"
#include "model/classad/unparse.h"
#include "model/startd/slot.h"
#include "tests/unit/startd/support.h"

namespace cara::startd::test {

// 2026-11-17 (a Tuesday) 10:00 UTC, when a test does not care.
inline constexpr std::int64_t kTuesday10am = 1794909600;

class SlotHarness {
 public:
  explicit SlotHarness(
      const std::string& config_text, std::int64_t start = kTuesday10am,
      const std::string& base_ad = "[ Name = \"slot1@node1\"; SlotID = 1; Cpus = 1; Memory = 1024 ]")
      : now_(start) {
    config::Config c = startd_config(config_text, machine_host(4, 8192));
    auto policy = SlotPolicy::from_config(c, 1, 1);
    if (!policy) FAIL(policy.error());
    auto base = classad::parse_classad(base_ad);
    REQUIRE(base.ok());
    // An idle machine: nobody at the keyboard, no load.
    for (const char* idle : {"KeyboardIdle", "ConsoleIdle"}) base->set(idle, 100000);
    for (const char* load : {"LoadAvg", "CondorLoadAvg"}) base->set(load, 0.0);
    base->set("CpuBusyTime", 0);
    slot_.emplace(std::move(*base), std::move(*policy), now_);
    last_ = slot_->step(Tick{}, now_);  // the startd's first evaluation
    all_ = last_.transitions;
  }

  Slot& slot() { return *slot_; }
  std::int64_t now() const { return now_; }

  // Sends `e` `after` seconds later.
  const StepResult& send(const SlotEvent& e, std::int64_t after = 0) {
    now_ += after;
    last_ = slot_->step(e, now_);
    all_.insert(all_.end(), last_.transitions.begin(), last_.transitions.end());
    return last_;
  }
  // Every transition taken so far.
  const std::vector<std::string>& history() const { return all_; }
  const StepResult& tick(std::int64_t after) { return send(Tick{}, after); }
  const StepResult& sensors(const std::string& long_form, std::int64_t after = 0) {
    auto ad = classad::parse_long_form(long_form);
    REQUIRE(ad.ok());
    return send(SensorUpdate{std::move(*ad)}, after);
  }
  const StepResult& claim(const std::string& job_ad, const std::string& id = "claim1",
                          bool preempting = false) {
    auto job = classad::parse_classad(job_ad);
    REQUIRE(job.ok());
    return send(ClaimRequest{id, std::move(*job), preempting, {}});
  }
  const StepResult& activate(const std::string& job_ad, const std::string& id = "claim1") {
    auto job = classad::parse_classad(job_ad);
    REQUIRE(job.ok());
    return send(Activate{id, std::move(*job)});
  }
  // Claims and starts `job_ad`.
  void run(const std::string& job_ad, const std::string& id = "claim1") {
    claim(job_ad, id);
    REQUIRE(state() == "Claimed/Idle");
    activate(job_ad, id);
    REQUIRE(state() == "Claimed/Busy");
  }

  std::string state() const {
    return std::string(state_name(slot_->state())) + "/" + activity_name(slot_->activity());
  }
  // The transitions of the last step, joined: "H/13 18 J/22 A/1".
  std::string transitions() const {
    std::string out;
    for (const auto& t : last_.transitions) out += (out.empty() ? "" : " ") + t;
    return out;
  }
  bool did(ActionKind k) const {
    for (const auto& a : last_.actions) {
      if (a.kind == k) return true;
    }
    return false;
  }
  std::string attr(const std::string& name) const {
    const classad::Attribute* a = slot_->ad().find(name);
    return a ? classad::unparse(*a->expr) : "<none>";
  }

 private:
  std::int64_t now_;
  std::optional<Slot> slot_;
  StepResult last_;
  std::vector<std::string> all_;
};

}  // namespace cara::startd::test
