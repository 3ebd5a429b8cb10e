// `cara submit -dry-run`: what condor_submit -dry-run does, with no pool.
//
//   cara submit -dry-run OUT FILE [-append LINE]... [-queue ARGS]
//               [--config FILE] [--owner NAME]
//
// Parses FILE (a submit description), applies the configuration's
// defaults (JOB_DEFAULT_REQUEST*, ARCH, OPSYS, UID_DOMAIN), the schedd's
// JOB_TRANSFORM_NAMES and SUBMIT_REQUIREMENT_NAMES (a failed requirement
// prints its reason and exits 1; a failed warning is printed and the
// jobs are written), and writes the
// job ads to OUT (`-` for standard output) in old long form, one ad per job
// separated by a blank line, ClusterId 1 and ProcId 0..N-1. Errors name the
// line; the exit code is 0, or 1 when the submission is refused or the
// command line is wrong, or 2 when no schedd answers. The owner is the
// current user unless --owner says otherwise. Without -dry-run the first
// job's executable is checked here, as the submitting user, before the
// description goes to the schedd (condor_submit does the same).
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "apps/commands/schedd_link.h"

namespace cara::config {
class ConfigHost;
}

namespace cara::apps {

struct SubmitEnvironment {
  std::string user;  // the submitting user
  std::string cwd;   // the current directory
  std::int64_t now = 0;
  std::vector<std::pair<std::string, std::string>> environment;
  // Standard output is a terminal: a large submission draws a progress bar.
  bool terminal = false;
};

// `remote` reaches the schedds -name and -pool name (cara-pool's); none:
// only this node's.
int run_submit(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
               std::shared_ptr<config::ConfigHost> host, const SubmitEnvironment& env,
               const RemoteSchedds* remote = nullptr);

}  // namespace cara::apps
