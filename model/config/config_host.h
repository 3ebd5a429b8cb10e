// What reading a configuration needs from the machine: files, directories,
// the environment, random numbers and the facts HTCondor predefines as
// macros (host name, detected CPUs and memory).
//
// The reader takes these through this interface so that it stays pure and
// deterministic under test and in the simulator (DESIGN.md): MemoryHost
// serves files and environment from maps; os::SystemHost (os/system_host.h)
// serves the real machine.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "model/common/result.h"

namespace cara::config {

// Facts about the machine that become predefined macros
// (introduction-to-configuration, "Pre-Defined Macros").
struct MachineFacts {
  std::string full_hostname = "localhost";
  std::string hostname = "localhost";
  std::string ip_address = "127.0.0.1";
  std::int64_t detected_cpus = 1;  // hardware threads
  std::int64_t detected_physical_cpus = 1;
  std::int64_t detected_memory_mib = 1024;
  std::int64_t detected_disk_kib = 100 * 1024 * 1024;  // free space where jobs run
  std::int64_t detected_swap_kib = 0;
  std::string arch = "X86_64";
  std::string opsys = "LINUX";
  std::string username = "cara";
  std::int64_t pid = 0;
};

class ConfigHost {
 public:
  virtual ~ConfigHost() = default;
  // The contents of `path`, or an error saying why it could not be read.
  virtual Result<std::string> read_file(const std::string& path) const = 0;
  // The size of `path` in bytes without reading it (a job's ImageSize), or why not.
  virtual Result<std::int64_t> file_size(const std::string& path) const = 0;
  virtual bool exists(const std::string& path) const = 0;
  virtual bool is_directory(const std::string& path) const = 0;
  // Names (not paths) of the regular files in `dir`, in any order.
  virtual Result<std::vector<std::string>> list_dir(const std::string& dir) const = 0;
  virtual std::optional<std::string> env(const std::string& name) const = 0;
  // Every environment variable, for the _CARA_ overrides.
  virtual std::vector<std::pair<std::string, std::string>> environment() const = 0;
  // A uniformly chosen integer in [lo, hi]; lo <= hi.
  virtual std::int64_t random_integer(std::int64_t lo, std::int64_t hi) = 0;
  virtual MachineFacts machine() const = 0;
};

// Files, directories and environment held in memory; random numbers from a
// seeded generator. For tests, the simulator and embedding.
class MemoryHost final : public ConfigHost {
 public:
  explicit MemoryHost(std::uint64_t seed = 1) : rng_(seed) {}

  // Adds a file; its parent directories exist implicitly.
  void add_file(const std::string& path, std::string contents) { files_[path] = std::move(contents); }
  void set_env(const std::string& name, std::string value) { env_[name] = std::move(value); }
  void set_machine(MachineFacts facts) { facts_ = std::move(facts); }

  Result<std::string> read_file(const std::string& path) const override;
  Result<std::int64_t> file_size(const std::string& path) const override;
  bool exists(const std::string& path) const override;
  bool is_directory(const std::string& path) const override;
  Result<std::vector<std::string>> list_dir(const std::string& dir) const override;
  std::optional<std::string> env(const std::string& name) const override;
  std::vector<std::pair<std::string, std::string>> environment() const override;
  std::int64_t random_integer(std::int64_t lo, std::int64_t hi) override;
  MachineFacts machine() const override { return facts_; }

 private:
  std::map<std::string, std::string> files_;
  std::map<std::string, std::string> env_;
  MachineFacts facts_;
  std::mt19937_64 rng_;
};

}  // namespace cara::config
