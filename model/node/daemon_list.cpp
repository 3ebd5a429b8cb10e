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
    // HTCondor's replication daemon: caracara's had and negotiator
    // replicate the accountant themselves, so the name runs nothing more.
    if (d == "REPLICATION") continue;
    if (d != "COLLECTOR" && d != "NEGOTIATOR" && d != "SCHEDD" && d != "STARTD" && d != "HAD" &&
        d != "DEFRAG")
      return Error{"DAEMON_LIST: unknown daemon '" + d +
                   "'; expected MASTER, COLLECTOR, NEGOTIATOR, HAD, SCHEDD, STARTD, DEFRAG"};
    if (std::find(daemons.begin(), daemons.end(), d) == daemons.end()) daemons.push_back(d);
  }
  if (daemons.empty()) return Error{"DAEMON_LIST names no daemon to run besides MASTER"};
  const auto runs = [&](const char* d) {
    return std::find(daemons.begin(), daemons.end(), d) != daemons.end();
  };
  if (runs("HAD") && (!runs("NEGOTIATOR") || !runs("COLLECTOR")))
    return Error{
        "DAEMON_LIST: HAD runs on a central manager, beside its COLLECTOR and the NEGOTIATOR it controls"};
  return daemons;
}

}  // namespace cara::node
