// A machine's startd as a model: its slots (static, partitionable and the
// dynamic slots carved from them), their ads, and the events and actions
// that pass through them. Pure: time and sensor readings come in, actions
// go out; the startd actor and the simulator both drive it.
//
// What the machine adds to the single-slot state machine:
//  - a claim on a partitionable slot carves a dynamic slot sized for the
//    job, which then holds the claim; the dynamic slot goes away (its
//    resources back to the partitionable slot) when its claim ends;
//  - STARTD_SLOT_ATTRS: every slot ad carries slot<N>_<attr> of all slots
//    (the spec's suspension example reads slot1_State from slot 2);
//  - the per-slot load average from the machine's load;
//  - draining the whole machine, and AllSlotsDrained when it is done; the
//    machine-wide draining figures every slot ad shows:
//    TotalMachineDrainingBadput and TotalMachineDrainingUnclaimedTime (cpu-
//    seconds since the startd began), ExpectedMachineGracefulDraining-
//    Completion/Badput and ExpectedMachineQuickDrainingCompletion/Badput
//    (what draining now would take: the defrag daemon ranks by them).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "model/classad/classad.h"
#include "model/common/result.h"
#include "model/config/config.h"
#include "model/startd/partitionable.h"
#include "model/startd/resources.h"
#include "model/startd/slot.h"
#include "model/startd/slot_ad.h"

namespace cara::startd {

struct StartdAction {
  std::string slot;  // short name: slot1, slot1_2
  SlotAction action;
};

struct StartdResult {
  std::vector<StartdAction> actions;
  std::vector<std::pair<std::string, std::string>> transitions;  // slot, label
};

// Whether the slot's ad goes to the collector after an action of this kind
// (actors/startd.cpp, and the simulator's collector, sim/pool_messages.cpp):
// after every action but a refused or a pending claim. When any slot of a
// startd changed, its partitionable slots go too (their ads change silently
// as dynamic slots are carved from them or give their resources back).
// Every slot goes after a reconfiguration, and from the actor every
// UPDATE_INTERVAL; the simulator, which has no such timer, keeps a slot's
// last ad until the slot changes (what it would send is the same but for
// the clock's attributes: MyCurrentTime, the drain forecasts).
inline bool changes_ad(ActionKind k) {
  return k != ActionKind::RefuseClaim && k != ActionKind::ClaimPending;
}

// Machine-wide sensor readings: KeyboardIdle, ConsoleIdle, TotalLoadAvg,
// CpuBusyTime, ... go to every slot; `condor_load` is each slot's
// HTCondor load (from its job), by short name.
struct MachineReadings {
  classad::ClassAd machine;
  double total_load = 0;
  std::map<std::string, double> condor_load;
};

// condor_drain's request, and the defrag daemon's (central-manager-
// configuration, "Defragmenting Dynamic Slots").
struct DrainOrder {
  DrainSchedule schedule = DrainSchedule::Graceful;
  // START while draining (DEFRAG_DRAINING_START_EXPR, condor_drain
  // -start); null: False.
  classad::ExprPtr start_expr;
  // Why (condor_drain -reason): the slot ads' DrainReason while draining;
  // the defrag daemon counts as its own the drains that say "Defrag <name>".
  std::string reason;
  // Back to work once every slot has drained (condor_drain
  // -resume-on-completion; the defrag daemon's drains do).
  bool resume_on_completion = false;
};

class Startd {
 public:
  static Result<std::unique_ptr<Startd>> create(const config::Config& config, std::int64_t now,
                                                std::int32_t local_offset = 0);

  // Delivers `event` to slot `slot` (short name). A claim request to a
  // partitionable slot carves a dynamic slot; its actions name the new slot.
  // When it does not fit and the request names dynamic slots to preempt
  // (ALLOW_PSLOT_PREEMPTION), their jobs are evicted and the claim waits
  // (ClaimPending on the partitionable slot) until they have given their
  // resources back; then the dynamic slot is carved and AcceptClaim names
  // it, or ClaimEnded says why it could not be.
  StartdResult deliver(const std::string& slot, const SlotEvent& event, std::int64_t now);
  // Evaluates every slot.
  StartdResult tick(std::int64_t now);
  StartdResult sensors(const MachineReadings& readings, std::int64_t now);
  StartdResult drain(const DrainOrder& order, std::int64_t now);
  StartdResult cancel_drain(std::int64_t now);
  // condor_vacate: the claims of `slot` (a short name), or of every slot
  // when empty, are vacated (H/10, J/22: the jobs leave, soft-killed, or
  // at once when `fast`); an unknown slot is an error.
  Result<StartdResult> vacate(const std::string& slot, bool fast, std::int64_t now);
  // condor_reconfig: the slots take the policy expressions, RANK,
  // SLOT_WEIGHT, STARTD_ATTRS and STARTD_SLOT_ATTRS of `config`; claims and
  // running jobs stay. The slot layout cannot change under them: a new
  // layout is refused (HTCondor needs a restart for it too), and so is any
  // configuration error, leaving everything as it was. Tick afterwards for
  // the slots to act on their new policy.
  Status reconfigure(const config::Config& config, std::int64_t now);

  // Whether a job or backfill computation still runs or is being evicted
  // on any slot (a shutting-down startd ends when none is).
  bool has_running_jobs() const;
  // Slot short names, in SlotID order (dynamic slots after their parent).
  std::vector<std::string> slot_names() const;
  // Each slot with its short name, in slot_names() order: a driver that
  // reads every slot each negotiation cycle (the simulator) without a
  // lookup by name per slot.
  void for_each_slot(const std::function<void(std::string name, const Slot& slot)>& visit) const;
  // The same, each slot with its description (SlotID, dynamic slot number).
  void visit_slots(const std::function<void(const SlotDescription& slot, const Slot& state)>& visit) const;
  // Changes whenever a slot is added or removed (a dynamic slot carved or
  // given back): a driver that mirrors the slots compares it, not names.
  std::uint64_t layout_version() const { return layout_version_; }
  const Slot* slot(const std::string& name) const;
  const MachineResources& machine() const { return machine_; }
  // The earliest timer of any slot.
  std::optional<std::int64_t> next_deadline() const;

  // The attributes all slot ads of the machine share (the slot ads chain
  // to it): what they had in common when the startd started, the clock,
  // machine-wide sensor readings, STARTD_SLOT_ATTRS values and what the
  // driver sets here.
  const classad::ClassAd& machine_ad() const { return machine_ad_; }
  // Sets attributes every slot ad shows (a node's MyAddress, say).
  void set_machine_attributes(const classad::ClassAd& attrs) { update_machine_ad(attrs, false); }

 private:
  struct Entry {
    SlotDescription description;
    std::unique_ptr<Slot> slot;
    std::unique_ptr<PartitionableSlot> partition;  // partitionable slots only
    std::optional<CarvePolicy> carve_policy;
  };

  Startd(config::Config config, MachineResources machine, std::int32_t local_offset)
      : config_(std::move(config)), machine_(std::move(machine)), local_offset_(local_offset) {}

  // A claim on a partitionable slot waiting for the dynamic slots it
  // preempts to end (ALLOW_PSLOT_PREEMPTION).
  struct WaitingCarve {
    std::string parent;  // the partitionable slot's short name
    ClaimRequest claim;
    std::vector<std::string> victims;  // short names of the dynamic slots still there
  };

  Entry* find(const std::string& name);
  Result<Entry*> carve(Entry& parent, const ClaimRequest& claim, std::int64_t now);
  void claim_partition(Entry& parent, const ClaimRequest& claim, std::int64_t now, StartdResult& out);
  void preempt_for(Entry& parent, const ClaimRequest& claim, std::int64_t now, StartdResult& out);
  void carve_waiting(std::int64_t now, StartdResult& out);
  void collect(const std::string& name, StepResult step, StartdResult& out);
  void after(StartdResult& out, std::int64_t now);
  void refresh_partition(Entry& parent, std::int64_t now);
  // base_slot_ad() of `d` from the knobs kept for its SlotID, type and
  // kind (read from the configuration the first time).
  Result<classad::ClassAd> base_ad(const SlotDescription& d);
  void publish_slot_attrs();
  void publish_drain_figures(std::int64_t now);
  // `drain_figures`: `attrs` are only publish_drain_figures' (Slot::rechain_after_drain_figures).
  void update_machine_ad(const classad::ClassAd& attrs, bool drain_figures);
  void finish_drain(std::int64_t now, StartdResult& out);
  void share_common_attributes();
  // One policy object for the slots whose policies are alike.
  std::shared_ptr<const SlotPolicy> shared_policy(SlotPolicy policy);
  // Before any slot steps at `now`: the machine ad's clock, so that the
  // slots' own clock attributes say the same and stay out of their ads.
  void advance_clock(std::int64_t now);

  config::Config config_;
  MachineResources machine_;
  std::int32_t local_offset_;
  std::vector<Entry> slots_;     // static and partitionable, then dynamic ones appended
  classad::ClassAd machine_ad_;  // every slot's ad chains to it
  std::vector<std::shared_ptr<const SlotPolicy>> policies_;  // the distinct ones
  // The policy of the dynamic slots carved from each (SlotID, slot type).
  std::map<std::pair<int, int>, std::shared_ptr<const SlotPolicy>> carved_policies_;
  std::map<std::tuple<int, int, int>, SlotAdKnobs> ad_knobs_;  // by SlotID, slot type, kind
  std::int64_t clock_ = 0;                                     // the machine ad's MyCurrentTime
  std::vector<std::string> slot_attrs_;                        // STARTD_SLOT_ATTRS
  bool draining_ = false;
  bool drain_waits_ = false;  // a graceful drain admitting interruptible jobs, before its final phase
  bool all_drained_sent_ = false;
  bool resume_on_completion_ = false;
  // What the dynamic slots that went away had counted (drain_badput,
  // drain_unclaimed), so the machine's totals never go down.
  double gone_badput_ = 0, gone_unclaimed_ = 0;
  std::uint64_t layout_version_ = 0;
  std::vector<WaitingCarve> waiting_;
};

}  // namespace cara::startd
