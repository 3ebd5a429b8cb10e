// Starting one job's process (cara-procd): fork, then in the child its own
// process group, the job's user (supplementary groups, gid, uid — set
// between fork and exec, which posix_spawn cannot do), a parent-death
// signal, its files opened and its directory entered as that user, exec.
// The keeper is single-threaded, so everything between fork and exec is
// safe. A step that fails is reported with the system's reason.
#pragma once

#include <sys/types.h>

#include <string>

#include "actors/procd_protocol.h"
#include "model/common/result.h"

namespace cara::procd {

// Starts `spec`, with `sandbox` (may be empty) as its scratch directory:
// the pid of its process (also its process group), or why it could not
// start ("cannot open output file /x/y.out: Permission denied").
Result<pid_t> spawn_job(const JobSpec& spec, const std::string& sandbox);

}  // namespace cara::procd
