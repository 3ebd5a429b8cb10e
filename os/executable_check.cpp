#include "os/executable_check.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace cara::os {

std::optional<std::string> executable_problem(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return "does not exist";
    return std::string("cannot be read (") + std::strerror(errno) + ")";
  }
  if (S_ISDIR(st.st_mode)) return "is a directory";
  if (::access(path.c_str(), X_OK) != 0)
    return std::string("is not executable (") + std::strerror(errno) + ")";
  return std::nullopt;
}

}  // namespace cara::os
