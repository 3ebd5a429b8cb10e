#include "model/common/environment.h"

namespace cara {

std::vector<std::pair<std::string, std::string>> parse_environment(const std::vector<std::string>& entries) {
  std::vector<std::pair<std::string, std::string>> out;
  out.reserve(entries.size());
  for (const std::string& e : entries) {
    const auto eq = e.find('=');
    if (eq != std::string::npos) out.emplace_back(e.substr(0, eq), e.substr(eq + 1));
  }
  return out;
}

}  // namespace cara
