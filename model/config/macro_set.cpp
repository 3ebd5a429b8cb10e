#include "model/config/macro_set.h"

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

bool is_macro_name(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

std::vector<std::string> DaemonIdentity::candidates(std::string_view name) const {
  std::vector<std::string> keys;
  std::string plain(name);
  if (!local_name.empty()) {
    if (!subsystem.empty()) keys.push_back(subsystem + "." + local_name + "." + plain);
    keys.push_back(local_name + "." + plain);
  }
  if (!subsystem.empty()) keys.push_back(subsystem + "." + plain);
  keys.push_back(plain);
  return keys;
}

void MacroSet::set(std::string_view name, std::string value, Origin origin) {
  defs_[canonical_name(name)] = Definition{std::string(name), std::move(value), std::move(origin)};
}

void MacroSet::erase(std::string_view name) {
  defs_.erase(canonical_name(name));
}

const Definition* MacroSet::find_exact(std::string_view name) const {
  auto it = defs_.find(canonical_name(name));
  return it == defs_.end() ? nullptr : &it->second;
}

const Definition* MacroSet::find(std::string_view name, const DaemonIdentity& who) const {
  for (const std::string& key : who.candidates(name)) {
    if (const Definition* d = find_exact(key)) return d;
  }
  return nullptr;
}

std::vector<const Definition*> MacroSet::all() const {
  std::vector<const Definition*> out;
  out.reserve(defs_.size());
  for (const auto& [key, def] : defs_) out.push_back(&def);
  return out;
}

}  // namespace cara::config
