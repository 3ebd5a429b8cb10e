// `cara negotiate`: one negotiation cycle on ads read from files, without
// a pool ("what would the negotiator do with these ads?").
//
//   cara negotiate --config FILE --slots FILE --jobs FILE
//                  [--accountant FILE] [--now EPOCH] [--plain]
//
// Slot and job ads are in old long form separated by blank lines (as
// `cara submit -dry-run` prints jobs); slots running a job carry
// RemoteUser, RemoteOwner, AccountingGroup, CurrentRank, State and
// Activity. The accountant file is described in
// model/accounting/accountant_records.h. --plain assesses slots one by one
// instead of by equivalence class. Prints one JSON object: matches,
// rejections, submitters, groups and stats. Exit 0, or 1 for bad usage or
// input (the message names the file and place).
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace cara::config {
class ConfigHost;
}

namespace cara::apps {

int run_negotiate(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                  std::shared_ptr<config::ConfigHost> host, std::int64_t now);

}  // namespace cara::apps
