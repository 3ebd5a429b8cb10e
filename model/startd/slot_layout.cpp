#include "model/startd/slot_layout.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/classad/symbol.h"
#include "model/common/text.h"
#include "model/config/config.h"
#include "model/config/expander.h"

namespace cara::startd {
namespace {

constexpr double kEpsilon = 1e-9;

// Which resource a share name means: 0 cpus, 1 memory, 2 disk, 3 swap,
// 4+i custom i; -1 unknown.
int resource_of(std::string_view name, const MachineResources& machine) {
  std::string n = to_lower(name);
  if (n == "c" || n == "cpu" || n == "cpus") return 0;
  if (n == "m" || n == "r" || n == "mem" || n == "memory" || n == "ram") return 1;
  if (n == "d" || n == "disk") return 2;
  if (n == "s" || n == "v" || n == "swap" || n == "virt" || n == "virtualmemory") return 3;
  int custom = machine.custom_index(name);
  return custom < 0 ? -1 : 4 + custom;
}

Result<Share> parse_share(std::string_view text, const std::string& where) {
  text = config::trim(text);
  if (text.empty()) return Error{where + ": empty share"};
  if (classad::iequals(text, "auto")) return Share{};
  if (text.back() == '%') {
    std::string number(config::trim(text.substr(0, text.size() - 1)));
    char* end = nullptr;
    double p = std::strtod(number.c_str(), &end);
    if (number.empty() || *end || !(p >= 0 && p <= 100))
      return Error{where + ": '" + std::string(text) + "' is not a percentage from 0% to 100%"};
    return Share{Share::Kind::Fraction, p / 100};
  }
  // A fraction a/b, or an absolute amount; either may be any expression of
  // constants the ClassAd language evaluates ("24/25", "1.0/4").
  const bool fraction = text.find('/') != std::string_view::npos;
  auto parsed = classad::parse_expression(text);
  double v = 0;
  if (parsed) {
    classad::Value value = classad::evaluate(**parsed, nullptr, nullptr, classad::EvalEnv{});
    if (fraction && value.is_int()) {
      // Integer division would turn 24/25 into 0: evaluate it as reals.
      std::size_t slash = text.find('/');
      auto a = classad::parse_expression(std::string(text.substr(0, slash)) + " * 1.0");
      auto b = classad::parse_expression(text.substr(slash + 1));
      double num = 0, den = 0;
      if (a && b && classad::evaluate(**a, nullptr, nullptr, {}).number(num) &&
          classad::evaluate(**b, nullptr, nullptr, {}).number(den) && den != 0) {
        value = classad::Value::real(num / den);
      }
    }
    if (!value.is_string() && value.number(v) && std::isfinite(v) && v >= 0) {
      if (!fraction) return Share{Share::Kind::Absolute, v};
      if (v <= 1 + kEpsilon) return Share{Share::Kind::Fraction, std::min(v, 1.0)};
    }
  }
  return Error{where + ": '" + std::string(text) +
               "' is not a fraction (1/4), a percentage (25%), an amount, or auto"};
}

const char* resource_label(int r, const MachineResources& machine, std::string& buf) {
  static const char* const names[] = {"CPUs", "memory (MiB)", "disk (KiB)", "swap (KiB)"};
  if (r < 4) return names[r];
  buf = machine.custom[static_cast<std::size_t>(r - 4)].name;
  return buf.c_str();
}

double& component(Resources& res, int r) {
  switch (r) {
    case 0: return res.cpus;
    case 1: return res.memory;
    case 2: return res.disk;
    case 3: return res.swap;
    default: return res.custom[static_cast<std::size_t>(r - 4)];
  }
}

Share& share_of(SlotType& t, int r) {
  switch (r) {
    case 0: return t.cpus;
    case 1: return t.memory;
    case 2: return t.disk;
    case 3: return t.swap;
    default: return t.custom[static_cast<std::size_t>(r - 4)];
  }
}

// CPUs and custom resources come in whole units.
bool whole_units(int r) {
  return r == 0 || r >= 4;
}

}  // namespace

Result<SlotType> parse_slot_type(std::string_view text, const MachineResources& machine,
                                 const std::string& knob) {
  SlotType t;
  t.custom.resize(machine.custom.size());
  const int resources = 4 + static_cast<int>(machine.custom.size());
  std::vector<bool> explicit_share(static_cast<std::size_t>(resources), false);
  std::optional<Share> blanket;
  for (const std::string& item : config::split_arguments(text)) {
    if (item.empty()) return Error{knob + " = " + std::string(text) + ": empty item in the list"};
    std::size_t eq = item.find('=');
    if (eq == std::string::npos) {
      if (blanket)
        return Error{knob + " = " + std::string(text) + ": more than one share without a resource name"};
      auto s = parse_share(item, knob);
      if (!s) return Error{s.error()};
      blanket = *s;
      continue;
    }
    std::string_view name = config::trim(std::string_view(item).substr(0, eq));
    int r = resource_of(name, machine);
    if (r < 0) {
      return Error{knob + ": unknown resource '" + std::string(name) +
                   "' (expected cpus, memory, disk, swap or a MACHINE_RESOURCE_<name>)"};
    }
    auto s = parse_share(std::string_view(item).substr(eq + 1), knob);
    if (!s) return Error{s.error()};
    share_of(t, r) = *s;
    explicit_share[static_cast<std::size_t>(r)] = true;
  }
  if (blanket) {
    for (int r = 0; r < resources; ++r) {
      if (!explicit_share[static_cast<std::size_t>(r)]) share_of(t, r) = *blanket;
    }
  }
  return t;
}

std::string slot_knob(const config::Config& config, int slot_id, int type, std::string_view knob) {
  std::string by_slot = "SLOT" + std::to_string(slot_id) + "_" + std::string(knob);
  if (config.defined(by_slot)) return by_slot;
  if (type > 0) {
    std::string by_type = "SLOT_TYPE_" + std::to_string(type) + "_" + std::string(knob);
    if (config.defined(by_type)) return by_type;
  }
  return std::string(knob);
}

Result<std::vector<SlotPlan>> plan_slots(const config::Config& config, const MachineResources& machine) {
  // Which slot types are configured.
  std::map<int, bool> numbers;
  for (const config::Definition* d : config.macros().all()) {
    std::string n = config::canonical_name(d->name);
    for (const char* prefix : {"SLOT_TYPE_", "NUM_SLOTS_TYPE_"}) {
      std::string p(prefix);
      if (n.rfind(p, 0) != 0) continue;
      std::string rest = n.substr(p.size());
      std::size_t digits = 0;
      while (digits < rest.size() && std::isdigit(static_cast<unsigned char>(rest[digits]))) ++digits;
      if (digits > 0 && digits == rest.size() && digits < 6) numbers[std::stoi(rest)] = true;
    }
  }
  std::vector<SlotType> types;
  for (const auto& [number, unused] : numbers) {
    const std::string count_knob = "NUM_SLOTS_TYPE_" + std::to_string(number);
    const std::string type_knob = "SLOT_TYPE_" + std::to_string(number);
    std::int64_t count = 0;
    if (config.defined(count_knob)) {
      auto c = config.integer(count_knob);
      if (!c) return Error{c.error()};
      if (*c < 0) return Error{count_knob + " must not be negative"};
      count = *c;
    }
    if (count == 0) continue;
    if (!config.defined(type_knob)) {
      return Error{count_knob + " = " + std::to_string(count) + ", but " + type_knob + " is not defined"};
    }
    auto text = config.string(type_knob);
    if (!text) return Error{text.error()};
    auto t = parse_slot_type(*text, machine, type_knob);
    if (!t) return Error{t.error()};
    t->number = number;
    t->count = static_cast<int>(count);
    const std::string part_knob = type_knob + "_PARTITIONABLE";
    if (config.defined(part_knob)) {
      auto p = config.boolean(part_knob);
      if (!p) return Error{p.error()};
      t->partitionable = *p;
    }
    types.push_back(std::move(*t));
  }
  if (types.empty()) {
    SlotType t;
    t.custom.resize(machine.custom.size());
    if (config.defined("NUM_SLOTS")) {
      // NUM_SLOTS equal static slots; never more slots than CPUs.
      auto n = config.integer("NUM_SLOTS");
      if (!n) return Error{n.error()};
      if (*n < 1) return Error{"NUM_SLOTS must be at least 1"};
      if (static_cast<double>(*n) > machine.total.cpus) {
        return Error{"NUM_SLOTS = " + std::to_string(*n) + " asks for more slots than NUM_CPUS = " +
                     std::to_string(static_cast<std::int64_t>(machine.total.cpus))};
      }
      t.count = static_cast<int>(*n);
    } else {
      // HTCondor 23.0: one partitionable slot with everything.
      t.count = 1;
      t.partitionable = true;
    }
    types.push_back(std::move(t));
  }

  // Allocate each resource: explicit shares first, then `auto` shares split
  // what is left evenly.
  std::vector<SlotPlan> plans;
  for (const SlotType& t : types) {
    for (int k = 0; k < t.count; ++k) {
      SlotPlan p;
      p.id = static_cast<int>(plans.size()) + 1;
      p.type = t.number;
      p.partitionable = t.partitionable;
      p.resources.custom.resize(machine.custom.size());
      p.custom_ids.resize(machine.custom.size());
      plans.push_back(std::move(p));
    }
  }
  auto type_of = [&](const SlotPlan& p) -> SlotType& {
    for (SlotType& t : types) {
      if (t.number == p.type) return t;
    }
    return types.front();
  };
  const int resources = 4 + static_cast<int>(machine.custom.size());
  for (int r = 0; r < resources; ++r) {
    Resources total = machine.total;
    const double available = component(total, r);
    double used = 0;
    std::vector<SlotPlan*> autos;
    for (SlotPlan& p : plans) {
      const Share& s = share_of(type_of(p), r);
      double amount = 0;
      if (s.kind == Share::Kind::Auto) {
        autos.push_back(&p);
        continue;
      }
      amount = s.kind == Share::Kind::Fraction ? s.value * available : s.value;
      amount = whole_units(r) ? std::floor(amount + 0.5) : std::floor(amount);
      component(p.resources, r) = amount;
      used += amount;
    }
    std::string label_buf;
    const char* label = resource_label(r, machine, label_buf);
    if (used > available + kEpsilon) {
      return Error{"the slot types ask for " + std::to_string(static_cast<std::int64_t>(used)) + " " + label +
                   ", but the machine has " + std::to_string(static_cast<std::int64_t>(available))};
    }
    if (!autos.empty()) {
      const double left = available - used;
      const double each = std::floor(left / static_cast<double>(autos.size()));
      double spare = whole_units(r) ? left - each * static_cast<double>(autos.size()) : 0;
      for (SlotPlan* p : autos) {
        double amount = each;
        if (spare >= 1) {  // whole units left over go one each to the first slots
          amount += 1;
          spare -= 1;
        }
        component(p->resources, r) = amount;
      }
    }
  }
  for (const SlotPlan& p : plans) {
    if (p.resources.cpus < 1) {
      return Error{"slot " + std::to_string(p.id) +
                   (p.type ? " (SLOT_TYPE_" + std::to_string(p.type) + ")" : "") +
                   " would get no CPU: the machine has " +
                   std::to_string(static_cast<std::int64_t>(machine.total.cpus)) + " CPUs for " +
                   std::to_string(plans.size()) + " slots"};
    }
  }
  // Hand out custom resource identifiers in slot order.
  for (std::size_t c = 0; c < machine.custom.size(); ++c) {
    const auto& ids = machine.custom[c].ids;
    std::size_t next = 0;
    for (SlotPlan& p : plans) {
      for (double k = 0; k < p.resources.custom[c] && next < ids.size(); k += 1)
        p.custom_ids[c].push_back(ids[next++]);
    }
  }
  return plans;
}

}  // namespace cara::startd
