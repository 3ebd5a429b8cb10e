// The commands that talk to the schedd of this node over its local socket
// and need no actor system, so they run in the `cara` binary: q, history
// (condor_q, condor_history) and rm, hold, release. Submit is in
// submit_command.h.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "apps/commands/schedd_link.h"
#include "model/schedd/job_actions.h"

namespace cara::apps {

// Who asks, and when: the user (condor_q shows their jobs by default),
// now and the local time's offset (seconds east of UTC).
struct ToolContext {
  // The user "my jobs" belong to; empty: the local schedd says (whoami),
  // so that `cara` itself needs no user database lookup (it links
  // statically, apps/CMakeLists.txt).
  std::string user;
  std::int64_t now = 0;
  std::int32_t offset = 0;
};

// `remote` reaches the schedds -name and -pool name (cara-pool's); none:
// only this node's.
int run_q(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const ToolContext& who,
          const RemoteSchedds* remote = nullptr);
int run_history(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                const ToolContext& who, const RemoteSchedds* remote = nullptr);
// cara rm | hold | release  JOB | CLUSTER | USER ... | -constraint EXPR | -all  [-reason TEXT]
int run_job_action(schedd::JobAction action, const std::vector<std::string>& args, std::ostream& out,
                   std::ostream& err, const ToolContext& who, const RemoteSchedds* remote = nullptr);

}  // namespace cara::apps
