#include "model/accounting/accountant_records.h"

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace cara::accounting {

Status load_accountant_records(Accountant& accountant, std::string_view text, std::string_view label,
                               std::int64_t now) {
  std::istringstream in{std::string(text)};
  std::string line;
  int number = 0;
  static const char* const kFields[] = {"name", "priority", "factor", "usage", "floor", "ceiling"};
  while (std::getline(in, line)) {
    ++number;
    if (const std::size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::vector<std::string> f;
    for (std::string w; words >> w;) f.push_back(w);
    if (f.empty()) continue;
    const std::string where = std::string(label) + ", line " + std::to_string(number);
    if (f.size() > 6)
      return Error{where + ": expected at most 6 fields (name priority factor usage floor ceiling), got " +
                   std::to_string(f.size())};
    std::optional<double> v[6];
    for (std::size_t i = 1; i < f.size(); ++i) {
      if (f[i] == "-") continue;
      char* end = nullptr;
      const double d = std::strtod(f[i].c_str(), &end);
      if (*end != '\0' || f[i].empty())
        return Error{where + ": " + kFields[i] + " '" + f[i] + "' is not a number (or '-' for none)"};
      v[i] = d;
    }
    const std::string& name = f[0];
    auto check = [&](Status s) -> Status {
      if (!s) return Error{where + ": " + s.error()};
      return Ok{};
    };
    if (v[2]) {
      if (auto s = check(accountant.set_factor(name, *v[2])); !s) return s;
    }
    if (v[1]) {
      if (auto s = check(accountant.set_priority(name, *v[1])); !s) return s;
    }
    if (v[3]) {
      if (auto s = check(accountant.set_accumulated_usage(name, *v[3])); !s) return s;
    }
    if (v[4]) {
      if (auto s = check(accountant.set_floor(name, *v[4], std::nullopt, now)); !s) return s;
    }
    if (v[5]) {
      if (auto s = check(accountant.set_ceiling(name, *v[5], std::nullopt, now)); !s) return s;
    }
  }
  return Ok{};
}

}  // namespace cara::accounting
