#include "model/node/daemon_list.h"

#include <algorithm>
#include <cctype>

namespace cara::node {

Result<std::vector<std::string>> daemon_list(const config::Config& config) {
  auto list = config.list("DAEMON_LIST");
  if (!list) return Error{list.error()};
  std::vector<std::string> daemons;
  for (std::string d : *list) {
    std::transform(d.begin(), d.end(), d.begin(), [](unsigned char ch) { return std::toupper(ch); });
    if (d == "MASTER") continue;
    if (d != "COLLECTOR" && d != "NEGOTIATOR" && d != "SCHEDD" && d != "STARTD")
      return Error{"DAEMON_LIST: unknown daemon '" + d +
                   "'; expected MASTER, COLLECTOR, NEGOTIATOR, SCHEDD, STARTD"};
    if (std::find(daemons.begin(), daemons.end(), d) == daemons.end()) daemons.push_back(d);
  }
  if (daemons.empty()) return Error{"DAEMON_LIST names no daemon to run besides MASTER"};
  return daemons;
}

}  // namespace cara::node
