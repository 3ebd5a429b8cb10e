// What condor_rm, condor_hold and condor_release do to a queue: the jobs
// a constraint selects, each changed if its state allows and the asker
// may act on it (its owner, or a queue super user: QUEUE_SUPER_USERS).
// The schedd actor and its tests drive this one function; the command
// line turns JOB, CLUSTER, USER and -all into the constraint.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/common/result.h"
#include "model/schedd/job_queue.h"

namespace cara::schedd {

enum class JobAction { Remove, Hold, Release };

// "rm", "hold", "release": the tool's word for it (and the wire's).
const char* job_action_name(JobAction a);
Result<JobAction> parse_job_action(std::string_view name);

struct JobActionRequest {
  JobAction action = JobAction::Remove;
  std::string constraint;  // the jobs it is for; must not be empty
  std::string reason;      // empty: "via condor_rm (by user alice)", as HTCondor words it
  std::string user;        // who asks: the Owner of the jobs they may change
  bool superuser = false;  // a queue super user: anyone's jobs
  // -all: the jobs the asker may change; the others are passed over
  // without a word (condor_rm -all).
  bool mine_only = false;
};

struct JobActionReport {
  std::vector<JobId> done;                             // changed, in id order
  std::vector<std::pair<JobId, std::string>> refused;  // selected but not changed, and why
};

// Applies `request` to every job its constraint selects at `now`. A
// constraint that does not parse is the only error; a job that may not be
// changed is reported, not an error, and the others are changed.
Result<JobActionReport> act_on_jobs(JobQueue& queue, const JobActionRequest& request, std::int64_t now);

// QUEUE_SUPER_USERS: whether `user` may act on every job.
bool is_queue_super_user(const std::set<std::string>& super_users, const std::string& user);

}  // namespace cara::schedd
