// Starting one job's process (cara-procd): a child cloned as vfork does it
// (the keeper's memory shared and the keeper suspended until the exec),
// then in the child its own process group, the job's user (supplementary
// groups, gid, uid — set between clone and exec, which posix_spawn cannot
// do), a parent-death signal, its files opened and its directory entered
// as that user, exec. The keeper is single-threaded and everything the
// child reads is made before the clone, so the child allocates nothing.
// A step that fails is reported with the system's reason.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

#include "actors/procd_protocol.h"
#include "model/common/result.h"

namespace cara::procd {

// A child started for a job: its pid (also its process group) and the
// read end of its report pipe, which reads end-of-file when the exec
// worked, or the step that failed ("cannot open output file /x/y.out:
// Permission denied") before the child exits.
struct Launched {
  pid_t pid = -1;
  int report = -1;
};

// Starts `spec`'s process, with `sandbox` (may be empty) as its scratch
// directory; returns once the child has exec'd or failed (the report then
// says which; the new program loads while the keeper goes on). Fails only
// before the clone.
Result<Launched> launch_job(const JobSpec& spec, const std::string& sandbox);

// What the report pipe `fd` (non-blocking) holds: nullopt while there is
// nothing, or at end-of-file (exec worked); the failure text otherwise.
// `done` says whether the report is complete (end-of-file or a failure).
std::optional<std::string> read_report(int fd, bool& done);

}  // namespace cara::procd
