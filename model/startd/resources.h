// A machine's resources: CPUs, memory, disk and swap, plus the custom
// resources MACHINE_RESOURCE_<name> declares (GPUs are one), detected and
// overridden by configuration (policy-configuration, "Dividing System
// Resources in Multi-core Machines").
//
// Units follow HTCondor's slot ads: Cpus a count, Memory MiB, Disk and
// Swap KiB, custom resources a count.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/common/result.h"

namespace cara::config {
class Config;
}

namespace cara::startd {

// Amounts of every resource of one machine, custom ones indexed like
// MachineResources::custom.
struct Resources {
  double cpus = 0;
  double memory = 0;
  double disk = 0;
  double swap = 0;
  std::vector<double> custom;

  bool fits_within(const Resources& available) const;
  Resources& operator+=(const Resources& o);
  Resources& operator-=(const Resources& o);
};

// A custom resource: its name as configured (GPUs, Cogs) and, when the
// configuration listed identifiers (MACHINE_RESOURCE_GPUs = CUDA0, CUDA1)
// rather than a count, those identifiers.
struct CustomResource {
  std::string name;
  double quantity = 0;
  std::vector<std::string> ids;
};

struct MachineResources {
  Resources detected;  // what the machine has (Detected<R>)
  Resources total;     // what the startd offers (Total<R>): detected, or configured
  std::vector<CustomResource> custom;

  // The index of custom resource `name` (case-insensitive), or -1.
  int custom_index(std::string_view name) const;
};

// Detected amounts overridden by NUM_CPUS, MEMORY, DISK (else the detected
// free disk less RESERVED_DISK MiB) and the custom
// resources of MACHINE_RESOURCE_<name> (restricted to
// MACHINE_RESOURCE_NAMES when that is set). Refuses negative or
// non-numeric amounts, naming the knob.
Result<MachineResources> machine_resources(const config::Config& config);

}  // namespace cara::startd
