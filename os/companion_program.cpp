#include "os/companion_program.h"

#include <unistd.h>

#include <filesystem>

namespace cara::os {

std::string companion_program(const std::string& name, const std::string& installed) {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::filesystem::path beside = self.parent_path() / name;
    if (::access(beside.c_str(), X_OK) == 0) return beside.string();
  }
  return installed;
}

}  // namespace cara::os
