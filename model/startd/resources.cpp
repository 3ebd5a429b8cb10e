#include "model/startd/resources.h"

#include <algorithm>
#include <cmath>

#include "model/classad/symbol.h"
#include "model/config/config.h"

namespace cara::startd {

bool Resources::fits_within(const Resources& a) const {
  if (cpus > a.cpus || memory > a.memory || disk > a.disk || swap > a.swap) return false;
  for (std::size_t i = 0; i < custom.size(); ++i) {
    if (custom[i] > (i < a.custom.size() ? a.custom[i] : 0.0)) return false;
  }
  return true;
}

Resources& Resources::operator+=(const Resources& o) {
  cpus += o.cpus;
  memory += o.memory;
  disk += o.disk;
  swap += o.swap;
  if (custom.size() < o.custom.size()) custom.resize(o.custom.size());
  for (std::size_t i = 0; i < o.custom.size(); ++i) custom[i] += o.custom[i];
  return *this;
}

Resources& Resources::operator-=(const Resources& o) {
  cpus -= o.cpus;
  memory -= o.memory;
  disk -= o.disk;
  swap -= o.swap;
  if (custom.size() < o.custom.size()) custom.resize(o.custom.size());
  for (std::size_t i = 0; i < o.custom.size(); ++i) custom[i] -= o.custom[i];
  return *this;
}

int MachineResources::custom_index(std::string_view name) const {
  for (std::size_t i = 0; i < custom.size(); ++i) {
    if (classad::iequals(custom[i].name, name)) return static_cast<int>(i);
  }
  return -1;
}

namespace {

Result<double> amount(const config::Config& config, const std::string& knob) {
  auto v = config.real(knob);
  if (!v) return Error{v.error()};
  if (!(*v >= 0) || !std::isfinite(*v)) return Error{knob + " must be a non-negative number"};
  return *v;
}

// The names behind MACHINE_RESOURCE_<name> knobs that are set.
std::vector<std::string> custom_names(const config::Config& config) {
  std::vector<std::string> names;
  const std::string prefix = "MACHINE_RESOURCE_";
  for (const config::Definition* d : config.macros().all()) {
    std::string_view n = d->name;
    // Prefixed definitions (STARTD.MACHINE_RESOURCE_X) count too.
    std::size_t at = config::canonical_name(n).rfind(prefix);
    if (at == std::string::npos) continue;
    std::string_view name = n.substr(at + prefix.size());
    if (name.empty() || classad::iequals(name, "NAMES")) continue;
    if (at > 0 && n[at - 1] != '.') continue;
    if (!config.definition(std::string(prefix) + std::string(name))) continue;  // another daemon's
    bool seen = std::any_of(names.begin(), names.end(),
                            [&](const std::string& s) { return classad::iequals(s, name); });
    if (!seen) names.emplace_back(name);
  }
  return names;
}

}  // namespace

Result<MachineResources> machine_resources(const config::Config& config) {
  MachineResources m;
  auto detected_cpus = amount(config, "DETECTED_CPUS");
  auto detected_memory = amount(config, "DETECTED_MEMORY");
  auto detected_disk = amount(config, "DETECTED_DISK");
  auto detected_swap = amount(config, "DETECTED_SWAP");
  for (auto* r : {&detected_cpus, &detected_memory, &detected_disk, &detected_swap}) {
    if (!*r) return Error{r->error()};
  }
  m.detected = Resources{*detected_cpus, *detected_memory, *detected_disk, *detected_swap, {}};
  m.total = m.detected;
  auto cpus = amount(config, "NUM_CPUS");
  if (!cpus) return Error{cpus.error()};
  if (*cpus != std::floor(*cpus)) return Error{"NUM_CPUS must be a whole number of CPUs"};
  m.total.cpus = *cpus;
  auto memory = amount(config, "MEMORY");
  if (!memory) return Error{memory.error()};
  m.total.memory = std::floor(*memory);
  if (config.defined("DISK")) {
    auto disk = amount(config, "DISK");
    if (!disk) return Error{disk.error()};
    m.total.disk = std::floor(*disk);
  } else {
    // RESERVED_DISK (MiB) is kept back from the free disk the startd
    // reports (HTCondor's knob; the containers' contract sets it from the
    // environment). DISK, when set, is what the administrator wants
    // advertised and is taken as it is.
    auto reserved = amount(config, "RESERVED_DISK");
    if (!reserved) return Error{reserved.error()};
    m.total.disk = std::max(0.0, m.total.disk - std::floor(*reserved) * 1024);
  }
  if (m.total.cpus < 1) return Error{"NUM_CPUS must be at least 1"};

  auto enabled = config.list("MACHINE_RESOURCE_NAMES");
  if (!enabled) return Error{enabled.error()};
  for (const std::string& name : custom_names(config)) {
    if (!enabled->empty() && std::none_of(enabled->begin(), enabled->end(),
                                          [&](const std::string& e) { return classad::iequals(e, name); }))
      continue;
    const std::string knob = "MACHINE_RESOURCE_" + name;
    auto text = config.string(knob);
    if (!text) return Error{text.error()};
    CustomResource r{name, 0, {}};
    auto count = config.real(knob);
    if (count && std::isfinite(*count) && *count >= 0) {
      r.quantity = std::floor(*count);
    } else {
      // A list of identifiers: MACHINE_RESOURCE_GPUs = CUDA0, CUDA1.
      auto ids = config.list(knob);
      if (!ids) return Error{ids.error()};
      for (const std::string& id : *ids) {
        bool name_like = !id.empty() && std::all_of(id.begin(), id.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == ':' || c == '.';
        });
        if (!name_like) return Error{knob + " = " + *text + ": expected a count or a list of identifiers"};
      }
      r.ids = *ids;
      r.quantity = static_cast<double>(ids->size());
    }
    m.custom.push_back(std::move(r));
  }
  for (const CustomResource& r : m.custom) {
    m.detected.custom.push_back(r.quantity);
    m.total.custom.push_back(r.quantity);
  }
  return m;
}

}  // namespace cara::startd
