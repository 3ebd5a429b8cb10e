// Partitionable slots and the dynamic slots carved from them
// (policy-configuration, "Dynamic Provisioning: Partitionable and Dynamic
// Slots"). A job matched to a partitionable slot gets a dynamic slot
// (slot1_1, slot1_2, ...) sized by its requests after the startd's
// MODIFY_REQUEST_EXPR_REQUEST{CPUS,MEMORY,DISK} expressions (by default
// quantize to 1 CPU, 128 MiB, 1024 KiB); the resources return when the
// dynamic slot ends.
//
// Consumption policies (CONSUMPTION_POLICY, SLOT_TYPE_<N>_CONSUMPTION_<R>)
// let the negotiator split a partitionable slot itself: the slot ad carries
// Consumption<R> expressions, evaluated with MY = slot, TARGET = job.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/eval_env.h"
#include "model/common/result.h"
#include "model/startd/resources.h"

namespace cara::config {
class Config;
}

namespace cara::startd {

// How a partitionable slot sizes a dynamic slot for a job.
struct CarvePolicy {
  classad::ExprPtr modify_cpus, modify_memory, modify_disk;

  // MODIFY_REQUEST_EXPR_REQUEST* for slot `slot_id` of type `type`.
  static Result<CarvePolicy> from_config(const config::Config& config, int slot_id, int type);
};

struct DynamicSlot {
  int parent_id = 0;  // the partitionable slot's SlotID
  int sub_id = 0;     // slot<parent>_<sub>
  Resources resources;
  std::vector<std::vector<std::string>> custom_ids;

  std::string name() const { return "slot" + std::to_string(parent_id) + "_" + std::to_string(sub_id); }
};

class PartitionableSlot {
 public:
  PartitionableSlot(int slot_id, const MachineResources& machine, Resources total,
                    std::vector<std::vector<std::string>> custom_ids);

  int id() const { return id_; }
  const Resources& total() const { return total_; }
  const Resources& available() const { return free_; }
  int dynamic_count() const { return live_; }

  // What `job` would be given: RequestCpus, RequestMemory, RequestDisk as
  // the policy modifies them (MY = job, TARGET = `slot_ad`), and
  // Request<R> for each custom resource. An expression that does not give
  // a non-negative number is an error naming it.
  Result<Resources> request_of(const classad::ClassAd& job, const classad::ClassAd& slot_ad,
                               const CarvePolicy& policy, const classad::EvalEnv& env) const;

  // Carves a dynamic slot of `want`, or nullopt when it does not fit in
  // what is free.
  std::optional<DynamicSlot> carve(const Resources& want);
  // Returns a dynamic slot's resources (and identifiers).
  void release(const DynamicSlot& slot);

 private:
  int id_;
  const MachineResources* machine_;
  Resources total_, free_;
  std::vector<std::vector<std::string>> free_ids_;
  int next_sub_ = 1;
  int live_ = 0;
};

// Whether partitionable slot `slot_id` of `type` uses a consumption
// policy, and its Consumption<R> expressions as ClassAd text, to publish in
// the slot ad (empty when the policy is off).
Result<std::vector<std::pair<std::string, std::string>>> consumption_attributes(
    const config::Config& config, const MachineResources& machine, int slot_id, int type);

// What a negotiator-side consumption policy takes from partitionable slot
// ad `pslot` for `job`: each Consumption<R> of the ad evaluated with MY =
// pslot, TARGET = job. nullopt when the ad has no consumption policy or a
// value is not a non-negative number.
std::optional<Resources> consumption(const classad::ClassAd& pslot, const classad::ClassAd& job,
                                     const MachineResources& machine, const classad::EvalEnv& env);

}  // namespace cara::startd
