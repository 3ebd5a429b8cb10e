#include "model/config/macro_set.h"

#include <algorithm>

#include "model/config/defaults.h"

namespace cara::config {

std::string Origin::describe() const {
  if (line > 0) return file + ", line " + std::to_string(line);
  return file;
}

std::string canonical_name(std::string_view name) {
  std::string out(name);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
  }
  return out;
}

bool canonical_less(std::string_view a, std::string_view b) {
  auto up = [](char c) { return static_cast<unsigned char>(c >= 'a' && c <= 'z' ? c - 32 : c); };
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i)
    if (up(a[i]) != up(b[i])) return up(a[i]) < up(b[i]);
  return a.size() < b.size();
}

bool is_macro_name(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

void MacroSet::set(std::string_view name, std::string value, Origin origin) {
  defs_[canonical_name(name)] = Definition{std::string(name), std::move(value), std::move(origin)};
}

void MacroSet::erase(std::string_view name) {
  std::string key = canonical_name(name);
  defs_.erase(key);
  if (knob_defaults_) erased_defaults_.insert(std::move(key));
}

const Definition* MacroSet::find_exact(std::string_view name) const {
  return find_canonical(canonical_name(name));
}

const Definition* MacroSet::find_canonical(const std::string& key) const {
  if (auto it = defs_.find(key); it != defs_.end()) return &it->second;
  if (!knob_defaults_ || (!erased_defaults_.empty() && erased_defaults_.count(key) != 0)) return nullptr;
  return knob_default(key);
}

// The prefixed forms most specific first, each written into one buffer:
// a daemon looks up hundreds of names as it starts (a simulated pool's 625
// startds spent half their start here), most of them defined nowhere but
// in the defaults.
const Definition* MacroSet::find(std::string_view name, const DaemonIdentity& who) const {
  std::string key;
  key.reserve(who.subsystem.size() + who.local_name.size() + name.size() + 2);
  auto found = [&](std::string_view first, std::string_view second) {
    key.clear();
    for (std::string_view prefix : {first, second}) {
      if (prefix.empty()) continue;
      key += prefix;
      key += '.';
    }
    key += name;
    for (char& c : key)
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
    return find_canonical(key);
  };
  if (!who.local_name.empty()) {
    if (!who.subsystem.empty())
      if (const Definition* d = found(who.subsystem, who.local_name)) return d;
    if (const Definition* d = found(who.local_name, {})) return d;
  }
  if (!who.subsystem.empty())
    if (const Definition* d = found(who.subsystem, {})) return d;
  return found({}, {});
}

std::vector<const Definition*> MacroSet::all() const {
  std::vector<const Definition*> out;
  out.reserve(defs_.size());
  for (const auto& [key, def] : defs_) out.push_back(&def);
  if (!knob_defaults_) return out;
  // The defaults that stand, merged in canonical order (the table's names
  // are canonical, and sorted).
  std::vector<const Definition*> merged;
  merged.reserve(out.size() + knob_defaults().size());
  // A startd reads them all a few times as it starts (its custom
  // resources, slot types and run-as policy): the table's entries by
  // number, not looked up by name (a simulated pool starts 625 startds).
  auto own = out.begin();
  const std::span<const KnobDefault> defaults = knob_defaults();
  for (std::size_t i = 0; i < defaults.size(); ++i) {
    const std::string_view name = defaults[i].name;
    while (own != out.end() && canonical_less((*own)->name, name)) merged.push_back(*own++);
    if (own != out.end() && !canonical_less(name, (*own)->name)) continue;  // defined: it stands instead
    if (erased_defaults_.empty() || erased_defaults_.count(canonical_name(name)) == 0)
      merged.push_back(knob_default_at(i));
  }
  merged.insert(merged.end(), own, out.end());
  return merged;
}

}  // namespace cara::config
