// The real machine behind a configuration (model/config/config_host.h):
// files, this process's environment, a randomly seeded generator and the
// facts HTCondor predefines as macros. It calls the operating system, so it
// lives here, not in the pure model.
#pragma once

#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "model/config/config_host.h"

namespace cara::os {

// This process's environment as (name, value) pairs (model/common/environment.h).
std::vector<std::pair<std::string, std::string>> process_environment();

// The real machine: the file system, this process's environment, a
// randomly seeded generator, and facts from uname/sysconf.
class SystemHost final : public config::ConfigHost {
 public:
  SystemHost();
  Result<std::string> read_file(const std::string& path) const override;
  Result<std::int64_t> file_size(const std::string& path) const override;
  bool exists(const std::string& path) const override;
  bool is_directory(const std::string& path) const override;
  Result<std::vector<std::string>> list_dir(const std::string& dir) const override;
  std::optional<std::string> env(const std::string& name) const override;
  std::vector<std::pair<std::string, std::string>> environment() const override;
  std::int64_t random_integer(std::int64_t lo, std::int64_t hi) override;
  config::MachineFacts machine() const override;

 private:
  // Seeded at the first draw: most commands never draw, and making a
  // std::random_device was 2 % of a one-job `cara submit`'s CPU on our VM
  // (it probes the CPU, which exits to the hypervisor).
  std::optional<std::mt19937_64> rng_;
};

}  // namespace cara::os
