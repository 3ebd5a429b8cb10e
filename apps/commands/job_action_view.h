// cara rm, hold and release (condor_rm, condor_hold, condor_release)
// without the schedd: what the arguments name, the constraint each target
// becomes, and what the tool says of the schedd's answer, in HTCondor's
// words ("Job 5.0 held", "All jobs in cluster 5 have been marked for
// removal").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "apps/commands/tool_options.h"
#include "model/common/result.h"
#include "model/schedd/job_actions.h"

namespace cara::apps {

// One thing the command line names: a job, a cluster, a user, a
// constraint or -all, with the constraint the schedd is sent.
struct ActionTarget {
  enum class Kind { Job, Cluster, User, Constraint, All } kind = Kind::Job;
  std::string text;  // as typed
  std::string constraint;
};

struct ActionArgs {
  std::vector<ActionTarget> targets;
  std::string reason;                 // -reason TEXT
  std::optional<std::string> config;  // --config FILE
  ScheddTarget target;                // -name SCHEDD, -pool CM
};

Result<ActionArgs> parse_action_args(const std::vector<std::string>& args);

// The lines the tool prints for one target: what was done (to standard
// output) and what failed (to standard error); a target with a failure
// makes the tool exit 1.
struct ActionOutcome {
  std::vector<std::string> said;
  std::vector<std::string> failed;
};
ActionOutcome describe_action(schedd::JobAction action, const ActionTarget& target,
                              const std::vector<std::string>& done, const std::vector<std::string>& refused);

std::string action_usage(schedd::JobAction action);

}  // namespace cara::apps
