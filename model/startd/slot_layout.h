// Which slots a machine has: SLOT_TYPE_<N> definitions with
// NUM_SLOTS_TYPE_<N> and SLOT_TYPE_<N>_PARTITIONABLE, or NUM_SLOTS equal
// static slots, or by default one partitionable slot with everything
// (policy-configuration, "Dividing System Resources"; HTCondor 23.0 and
// later default to the single partitionable slot).
//
// A slot type is a comma-separated list of shares: `cpus=2`, `mem=1/2`,
// `disk=25%`, `swap=auto`, `gpus=1`, and at most one blanket share without
// a name for every resource not listed. Resource names are
// case-insensitive: c/cpu/cpus, m/r/mem/memory/ram, d/disk, s/v/swap/virt/
// VirtualMemory, and the custom resource names. `auto` (the default)
// shares what explicit shares leave, evenly.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/common/result.h"
#include "model/startd/resources.h"

namespace cara::config {
class Config;
}

namespace cara::startd {

struct Share {
  enum class Kind { Auto, Fraction, Absolute };
  Kind kind = Kind::Auto;
  double value = 0;  // the fraction (0..1) or the absolute amount
};

struct SlotType {
  int number = 0;  // N of SLOT_TYPE_<N>; 0 for the implicit types
  int count = 0;   // NUM_SLOTS_TYPE_<N>
  bool partitionable = false;
  Share cpus, memory, disk, swap;
  std::vector<Share> custom;  // like MachineResources::custom
};

// Parses a SLOT_TYPE_<N> value; `knob` names it in errors.
Result<SlotType> parse_slot_type(std::string_view text, const MachineResources& machine,
                                 const std::string& knob);

// One slot the startd creates.
struct SlotPlan {
  int id = 0;    // SlotID, from 1, slots of type 1 first
  int type = 0;  // the slot type number (0: implicit)
  bool partitionable = false;
  Resources resources;
  std::vector<std::vector<std::string>> custom_ids;  // identifiers assigned, per custom resource
};

// Lays the machine's slots out, or refuses an impossible configuration with
// a message naming what cannot be satisfied.
Result<std::vector<SlotPlan>> plan_slots(const config::Config& config, const MachineResources& machine);

// The knob a slot reads for `knob`: SLOT<id>_<knob>, else
// SLOT_TYPE_<type>_<knob>, else <knob> (the thesis's SLOT_TYPE_1_START).
std::string slot_knob(const config::Config& config, int slot_id, int type, std::string_view knob);

}  // namespace cara::startd
