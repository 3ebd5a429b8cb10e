#include "model/startd/slot_ad.h"

#include <algorithm>
#include <cmath>

#include "model/classad/parser.h"
#include "model/config/config.h"
#include "model/startd/partitionable.h"
#include "model/startd/slot_layout.h"

namespace cara::startd {
namespace {

template <typename Name>
void set_amount(classad::ClassAd& ad, const Name& name, double v) {
  if (v == std::floor(v) && std::fabs(v) < 9e15) {
    ad.set(name, static_cast<std::int64_t>(v));
  } else {
    ad.set(name, v);
  }
}

// The names every slot ad has, interned once: a startd builds a slot's ad
// again at each carve and each change of a partitionable slot.
struct BaseNames {
  using I = classad::Interned;
  static I in(std::string_view n) { return classad::intern_spelling(n); }
  I my_type = in("MyType"), target_type = in("TargetType"), name = in("Name"), machine = in("Machine"),
    slot_id = in("SlotID"), dslot_id = in("DSlotId"), slot_type_id = in("SlotTypeID"),
    slot_type = in("SlotType"), partitionable = in("PartitionableSlot"), dynamic = in("DynamicSlot"),
    arch = in("Arch"), opsys = in("OpSys"), uid_domain = in("UidDomain"),
    filesystem_domain = in("FileSystemDomain"), virtual_memory = in("VirtualMemory"), rank = in("Rank"),
    slot_weight = in("SlotWeight");
  // Cpus, Memory, Disk: the slot's, TotalSlot<R>, Total<R>, Detected<R>.
  I standard[3][4] = {{in("Cpus"), in("TotalSlotCpus"), in("TotalCpus"), in("DetectedCpus")},
                      {in("Memory"), in("TotalSlotMemory"), in("TotalMemory"), in("DetectedMemory")},
                      {in("Disk"), in("TotalSlotDisk"), in("TotalDisk"), in("DetectedDisk")}};
  I my_current_time = in("MyCurrentTime"), clock_min = in("ClockMin"), clock_day = in("ClockDay");
};
const BaseNames& base_names() {
  static const BaseNames n;
  return n;
}

double Resources::*const kStandard[] = {&Resources::cpus, &Resources::memory, &Resources::disk};

double custom_amount(const Resources& r, std::size_t c) {
  return c < r.custom.size() ? r.custom[c] : 0;
}

}  // namespace

std::string SlotDescription::short_name() const {
  std::string n = "slot" + std::to_string(id);
  if (kind == SlotKind::Dynamic) n += "_" + std::to_string(sub_id);
  return n;
}

Result<SlotAdKnobs> slot_ad_knobs(const config::Config& config, const MachineResources& machine, int id,
                                  int type, SlotKind kind) {
  SlotAdKnobs k;
  auto host = config.string("FULL_HOSTNAME");
  if (!host) return Error{host.error()};
  k.host = std::move(*host);
  std::string* domain[] = {&k.arch, &k.opsys, &k.uid_domain, &k.filesystem_domain};
  const char* knobs[] = {"ARCH", "OPSYS", "UID_DOMAIN", "FILESYSTEM_DOMAIN"};
  for (std::size_t i = 0; i < 4; ++i) {
    auto v = config.string(knobs[i]);
    if (!v) return Error{v.error()};
    *domain[i] = std::move(*v);
  }
  // Expressions: RANK and SLOT_WEIGHT (default Cpus).
  auto rank = config.expression(slot_knob(config, id, type, "RANK"));
  if (!rank) return Error{rank.error()};
  k.rank = std::move(*rank);
  auto weight = config.expression(slot_knob(config, id, type, "SLOT_WEIGHT"));
  if (!weight) return Error{weight.error()};
  k.slot_weight = std::move(*weight);
  if (kind == SlotKind::Partitionable) {
    auto consumption = consumption_attributes(config, machine, id, type);
    if (!consumption) return Error{consumption.error()};
    for (const auto& [name, text] : *consumption) {
      auto e = classad::parse_expression_shared(text);
      if (!e) return Error{name + ": " + e.error()};
      k.consumption.emplace_back(name, std::move(*e));
    }
  }
  // STARTD_ATTRS: configuration macros published as attributes, with
  // per-slot values SLOT<N>_<name> (policy-configuration's favorite_color
  // example).
  auto names = config.list("STARTD_ATTRS");
  if (!names) return Error{names.error()};
  for (const std::string& name : *names) {
    std::string knob = "SLOT" + std::to_string(id) + "_" + name;
    if (!config.defined(knob)) knob = name;
    if (!config.defined(knob)) continue;
    auto e = config.expression(knob);
    if (!e) return Error{"STARTD_ATTRS names " + name + ": " + e.error()};
    k.startd_attrs.emplace_back(name, std::move(*e));
  }
  return k;
}

classad::ClassAd base_slot_ad(const SlotAdKnobs& knobs, const MachineResources& machine,
                              const SlotDescription& slot) {
  const BaseNames& n = base_names();
  classad::ClassAd ad;
  // Room for what follows, made once (a dynamic slot's ad is built at
  // every carve): fifteen names, thirteen amounts, five per custom
  // resource, Rank, SlotWeight and the configured ones.
  ad.reserve(30 + 5 * machine.custom.size() + knobs.consumption.size() + knobs.startd_attrs.size());
  ad.set(n.my_type, "Machine");
  ad.set(n.target_type, "Job");
  ad.set(n.name, slot.short_name() + "@" + knobs.host);
  ad.set(n.machine, knobs.host);
  ad.set(n.slot_id, slot.id);
  if (slot.kind == SlotKind::Dynamic) ad.set(n.dslot_id, slot.sub_id);
  ad.set(n.slot_type_id, slot.type);
  ad.set(n.slot_type, slot.kind == SlotKind::Static          ? "Static"
                      : slot.kind == SlotKind::Partitionable ? "Partitionable"
                                                             : "Dynamic");
  ad.set(n.partitionable, slot.kind == SlotKind::Partitionable);
  ad.set(n.dynamic, slot.kind == SlotKind::Dynamic);
  ad.set(n.arch, knobs.arch);
  ad.set(n.opsys, knobs.opsys);
  ad.set(n.uid_domain, knobs.uid_domain);
  ad.set(n.filesystem_domain, knobs.filesystem_domain);
  // Resources: what the slot offers, what it was given, what the machine
  // has (TotalX) and detected (DetectedX).
  for (std::size_t r = 0; r < 3; ++r) {
    set_amount(ad, n.standard[r][0], slot.resources.*kStandard[r]);
    set_amount(ad, n.standard[r][1], slot.slot_total.*kStandard[r]);
    set_amount(ad, n.standard[r][2], machine.total.*kStandard[r]);
    set_amount(ad, n.standard[r][3], machine.detected.*kStandard[r]);
  }
  set_amount(ad, n.virtual_memory, slot.resources.swap);
  for (std::size_t c = 0; c < machine.custom.size(); ++c) {
    const std::string& r = machine.custom[c].name;
    set_amount(ad, r, custom_amount(slot.resources, c));
    set_amount(ad, "TotalSlot" + r, custom_amount(slot.slot_total, c));
    set_amount(ad, "Total" + r, machine.total.custom[c]);
    set_amount(ad, "Detected" + r, machine.detected.custom[c]);
    if (c < slot.custom_ids.size() && !slot.custom_ids[c].empty()) {
      std::string ids;
      for (const std::string& id : slot.custom_ids[c]) ids += (ids.empty() ? "" : ",") + id;
      ad.set("Assigned" + r, ids);
    }
  }
  ad.insert(n.rank, knobs.rank);
  ad.insert(n.slot_weight, knobs.slot_weight);
  if (slot.kind == SlotKind::Partitionable)
    for (const auto& [name, e] : knobs.consumption) ad.insert(name, e);
  for (const auto& [name, e] : knobs.startd_attrs) ad.insert(name, e);
  return ad;
}

classad::ClassAd offered_amounts(const MachineResources& machine, const SlotDescription& slot) {
  const BaseNames& n = base_names();
  classad::ClassAd ad;
  for (std::size_t r = 0; r < 3; ++r) set_amount(ad, n.standard[r][0], slot.resources.*kStandard[r]);
  set_amount(ad, n.virtual_memory, slot.resources.swap);
  for (std::size_t c = 0; c < machine.custom.size(); ++c)
    set_amount(ad, machine.custom[c].name, custom_amount(slot.resources, c));
  return ad;
}

Result<classad::ClassAd> base_slot_ad(const config::Config& config, const MachineResources& machine,
                                      const SlotDescription& slot) {
  auto knobs = slot_ad_knobs(config, machine, slot.id, slot.type, slot.kind);
  if (!knobs) return Error{knobs.error()};
  return base_slot_ad(*knobs, machine, slot);
}

void set_clock_attributes(classad::ClassAd& ad, std::int64_t now, std::int32_t local_offset) {
  const BaseNames& n = base_names();
  ad.set(n.my_current_time, now);
  const std::int64_t local = now + local_offset;
  const std::int64_t days = local >= 0 ? local / 86400 : (local - 86399) / 86400;
  ad.set(n.clock_min, (local - days * 86400) / 60);
  ad.set(n.clock_day, ((days % 7) + 11) % 7);  // 1970-01-01 was a Thursday (4)
}

std::vector<double> distribute_load(double total_load, const std::vector<double>& condor_loads,
                                    const std::vector<bool>& owner_state) {
  std::vector<double> loads = condor_loads;
  double owner_load = total_load;
  for (double l : condor_loads) owner_load -= l;
  if (owner_load <= 0 || loads.empty()) return loads;
  // Owner-state slots first, then slots without HTCondor load, and only
  // then slots running HTCondor jobs ("If ... HTCondor runs out of slots
  // and it still has owner load remaining, HTCondor starts assigning that
  // load to HTCondor nodes as well").
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < loads.size(); ++i) {
    if (owner_state[i]) order.push_back(i);
  }
  for (std::size_t i = 0; i < loads.size(); ++i) {
    if (!owner_state[i] && condor_loads[i] <= 0) order.push_back(i);
  }
  for (std::size_t i = 0; i < loads.size(); ++i) {
    if (!owner_state[i] && condor_loads[i] > 0) order.push_back(i);
  }
  while (owner_load > 1e-12) {
    for (std::size_t i : order) {
      double piece = std::min(1.0, owner_load);
      loads[i] += piece;
      owner_load -= piece;
      if (owner_load <= 1e-12) break;
    }
  }
  return loads;
}

}  // namespace cara::startd
