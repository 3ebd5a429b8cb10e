#include "os/heap_tunables.h"

#include <string_view>

namespace cara::os {

std::string daemon_glibc_tunables(const char* current) {
  static constexpr std::string_view kName = "glibc.malloc.hugetlb";
  const std::string now = current ? current : "";
  // The value is NAME=VALUE pairs separated by ':'.
  std::string_view rest = now;
  while (!rest.empty()) {
    const std::size_t end = rest.find(':');
    const std::string_view pair = rest.substr(0, end);
    if (pair.substr(0, pair.find('=')) == kName) return now;
    if (end == std::string_view::npos) break;
    rest.remove_prefix(end + 1);
  }
  return now.empty() ? std::string(kName) + "=1" : now + ":" + std::string(kName) + "=1";
}

}  // namespace cara::os
