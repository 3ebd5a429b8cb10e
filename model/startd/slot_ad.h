// The fixed part of a slot ad (policy-configuration; the machine ClassAd
// attributes): Name, SlotID, SlotType, resources with their Total<R>,
// Detected<R> and TotalSlot<R>, Rank, SlotWeight, STARTD_ATTRS, and for
// partitionable slots the consumption policy. The state machine adds the
// dynamic part (State, Activity, Requirements, ...).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "model/classad/classad.h"
#include "model/common/result.h"
#include "model/startd/resources.h"

namespace cara::config {
class Config;
}

namespace cara::startd {

enum class SlotKind { Static, Partitionable, Dynamic };

struct SlotDescription {
  SlotKind kind = SlotKind::Static;
  int id = 0;                                        // SlotID
  int type = 0;                                      // slot type number
  int sub_id = 0;                                    // dynamic slots: slot<id>_<sub_id>
  Resources resources;                               // what the slot offers now (a pslot: what is left)
  Resources slot_total;                              // what the slot was given (TotalSlot<R>)
  std::vector<std::vector<std::string>> custom_ids;  // Assigned<R>

  // "slot1", "slot1_2".
  std::string short_name() const;
};

// Builds the fixed attributes for `slot` on the machine `config` describes.
// Errors name the knob (STARTD_ATTRS, SLOT_WEIGHT, RANK...).
Result<classad::ClassAd> base_slot_ad(const config::Config& config, const MachineResources& machine,
                                      const SlotDescription& slot);

// What of a slot's fixed attributes comes from the configuration alone,
// for one SlotID, slot type and kind: read once and kept by a startd that
// carves many dynamic slots alike (a simulated year carves a million).
struct SlotAdKnobs {
  std::string host;  // FULL_HOSTNAME
  std::string arch, opsys, uid_domain, filesystem_domain;
  classad::ExprPtr rank, slot_weight;                                 // RANK, SLOT_WEIGHT
  std::vector<std::pair<std::string, classad::ExprPtr>> consumption;  // partitionable slots'
  std::vector<std::pair<std::string, classad::ExprPtr>> startd_attrs;
};
Result<SlotAdKnobs> slot_ad_knobs(const config::Config& config, const MachineResources& machine, int id,
                                  int type, SlotKind kind);
// The same ad as base_slot_ad(config, ...), from the knobs of `slot`'s
// SlotID, type and kind.
classad::ClassAd base_slot_ad(const SlotAdKnobs& knobs, const MachineResources& machine,
                              const SlotDescription& slot);

// The attributes of base_slot_ad() that `slot.resources` alone decides
// (Cpus, Memory, Disk, VirtualMemory and each custom resource's amount):
// all that changes in a partitionable slot's ad when it carves a dynamic
// slot or takes one back.
classad::ClassAd offered_amounts(const MachineResources& machine, const SlotDescription& slot);

// The clock attributes of a machine's ads: MyCurrentTime, ClockMin (minutes
// past local midnight) and ClockDay (0 = Sunday). `local_offset` is seconds
// east of UTC. The startd sets them once in the machine ad its slots chain
// to, and each slot again in its own ad (the same values: no change).
void set_clock_attributes(classad::ClassAd& ad, std::int64_t now, std::int32_t local_offset);

// HTCondor's per-slot load average (policy-configuration, "Load Average
// for Multi-core Machines"): each slot starts with its own HTCondor load;
// the rest of the machine's load is owner load, handed out in pieces of at
// most 1.0, to slots in the Owner state first, then to idle slots, then to
// slots running jobs, and round again if load is left.
std::vector<double> distribute_load(double total_load, const std::vector<double>& condor_loads,
                                    const std::vector<bool>& owner_state);

}  // namespace cara::startd
