// A whole startd (model/startd/startd.h) driven through simulated time for
// tests: one machine of known size, its slots by short name.
#pragma once

#include <memory>
#include <string>

#include "model/startd/startd.h"
#include "tests/unit/startd/slot_harness.h"

namespace cara::startd::test {

class Machine {
 public:
  Machine(const std::string& text, std::int64_t cpus = 4, std::int64_t memory = 8192,
          std::int64_t now = kTuesday10am)
      : now_(now) {
    config::Config c = startd_config(text, machine_host(cpus, memory, 1000000));
    auto s = Startd::create(c, now_);
    if (!s) FAIL(s.error());
    startd_ = std::move(*s);
    idle();
  }
  // Nobody at the keyboard, no load.
  const StartdResult& idle(std::int64_t after = 0) {
    return readings("KeyboardIdle = 100000\nConsoleIdle = 100000\n", 0, after);
  }
  const StartdResult& readings(const std::string& machine, double load = 0, std::int64_t after = 0) {
    now_ += after;
    MachineReadings r;
    r.machine = *classad::parse_long_form(machine + "CpuBusyTime = 0\n");
    r.total_load = load;
    last_ = startd_->sensors(r, now_);
    return last_;
  }
  const StartdResult& tick(std::int64_t after) {
    now_ += after;
    last_ = startd_->tick(now_);
    return last_;
  }
  const StartdResult& send(const std::string& slot, const SlotEvent& e, std::int64_t after = 0) {
    now_ += after;
    last_ = startd_->deliver(slot, e, now_);
    return last_;
  }
  // Claims `slot` for `job`; returns the slot holding the claim, or about
  // to once its job has left ("" if refused).
  std::string claim(const std::string& slot, const std::string& job, const std::string& id) {
    send(slot, ClaimRequest{id, *classad::parse_classad(job), false, {}});
    for (const auto& a : last_.actions) {
      if (a.action.kind == ActionKind::AcceptClaim || a.action.kind == ActionKind::ClaimPending)
        return a.slot;
    }
    return "";
  }
  std::string run(const std::string& slot, const std::string& job, const std::string& id) {
    std::string where = claim(slot, job, id);
    REQUIRE(!where.empty());
    send(where, Activate{id, *classad::parse_classad(job)});
    REQUIRE(state(where) == "Claimed/Busy");
    return where;
  }
  std::string state(const std::string& slot) const {
    const Slot* s = startd_->slot(slot);
    if (!s) return "<gone>";
    return std::string(state_name(s->state())) + "/" + activity_name(s->activity());
  }
  std::string attr(const std::string& slot, const std::string& name) const {
    const Slot* s = startd_->slot(slot);
    const classad::Attribute* a = s ? s->ad().find(name) : nullptr;
    return a ? classad::unparse(*a->expr) : "<none>";
  }
  bool did(const std::string& slot, ActionKind k) const {
    for (const auto& a : last_.actions) {
      if (a.slot == slot && a.action.kind == k) return true;
    }
    return false;
  }
  Startd& startd() { return *startd_; }
  std::int64_t now() const { return now_; }

 private:
  std::int64_t now_;
  std::unique_ptr<Startd> startd_;
  StartdResult last_;
};

}  // namespace cara::startd::test
