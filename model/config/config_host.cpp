#include "model/config/config_host.h"

#include <algorithm>

namespace cara::config {
namespace {

std::int64_t uniform(std::mt19937_64& rng, std::int64_t lo, std::int64_t hi) {
  std::uniform_int_distribution<std::int64_t> d(lo, hi);
  return d(rng);
}

std::string parent_of(const std::string& path) {
  auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return "";
  return path.substr(0, slash == 0 ? 1 : slash);
}

}  // namespace

Result<std::string> MemoryHost::read_file(const std::string& path) const {
  auto it = files_.find(path);
  if (it == files_.end()) return Error{path + ": no such file"};
  return it->second;
}

Result<std::int64_t> MemoryHost::file_size(const std::string& path) const {
  auto it = files_.find(path);
  if (it == files_.end()) return Error{path + ": no such file"};
  return static_cast<std::int64_t>(it->second.size());
}

bool MemoryHost::exists(const std::string& path) const {
  return files_.count(path) || is_directory(path);
}

bool MemoryHost::is_directory(const std::string& path) const {
  return std::any_of(files_.begin(), files_.end(), [&](const auto& f) { return parent_of(f.first) == path; });
}

Result<std::vector<std::string>> MemoryHost::list_dir(const std::string& dir) const {
  std::vector<std::string> names;
  for (const auto& [path, text] : files_) {
    if (parent_of(path) == dir) names.push_back(path.substr(path.find_last_of('/') + 1));
  }
  if (names.empty()) return Error{dir + ": no such directory"};
  return names;
}

std::optional<std::string> MemoryHost::env(const std::string& name) const {
  auto it = env_.find(name);
  if (it == env_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::pair<std::string, std::string>> MemoryHost::environment() const {
  return {env_.begin(), env_.end()};
}

std::int64_t MemoryHost::random_integer(std::int64_t lo, std::int64_t hi) {
  return uniform(rng_, lo, hi);
}

}  // namespace cara::config
