// The messages a schedd takes from the tools (messages.h has the rest):
// a submission (and how far its building has come), queue and history
// queries, and job actions (condor_rm, condor_hold, condor_release).
#pragma once

#include <caf/meta/type_name.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "actors/handles.h"
#include "actors/wire_ad.h"
#include "model/schedd/job_counts.h"

// The counts travel in QueueReply: their inspect lives in their own
// namespace, where CAF finds it.
namespace cara::schedd {
template <class I>
typename I::result_type inspect(I& f, JobCounts& x) {
  return f(caf::meta::type_name("JobCounts"), x.total, x.completed, x.removed, x.idle, x.running, x.held,
           x.suspended);
}
template <class I>
typename I::result_type inspect(I& f, QueueTotals& x) {
  return f(caf::meta::type_name("QueueTotals"), x.owner, x.all);
}
}  // namespace cara::schedd

namespace cara::actors {

// ---- Submitting and the queue ----------------------------------------------

struct SubmitRequest {
  std::string description;  // the submit description's text
  std::string label;        // its file name, for messages
  std::string owner, iwd;
  std::vector<std::string> environment;  // NAME=value
  std::vector<std::string> appends;      // -append lines
  std::string queue;                     // -queue ARGS: replaces the description's queue statement
  // Told SubmitProgress as the jobs are built (`cara submit`'s progress
  // bar); null: nobody. Only a request from the schedd's own node has it.
  submit_progress_actor progress;
};
template <class I>
typename I::result_type inspect(I& f, SubmitRequest& x) {
  return f(caf::meta::type_name("SubmitRequest"), x.description, x.label, x.owner, x.iwd, x.environment,
           x.appends, x.queue, x.progress);
}
// How far the schedd has come building a submission's jobs.
struct SubmitProgress {
  std::int64_t built = 0, total = 0;
};
template <class I>
typename I::result_type inspect(I& f, SubmitProgress& x) {
  return f(caf::meta::type_name("SubmitProgress"), x.built, x.total);
}
struct SubmitReply {
  bool ok = false;
  std::string error;
  std::int64_t cluster = 0;
  std::int64_t count = 0;
  std::string warning;
  bool at_commit = false;  // refused by the queue's policy, not for its description
};
template <class I>
typename I::result_type inspect(I& f, SubmitReply& x) {
  return f(caf::meta::type_name("SubmitReply"), x.ok, x.error, x.cluster, x.count, x.warning, x.at_commit);
}

// condor_q: the jobs `constraint` selects, with the attributes of
// `projection` (all when empty); with `totals`, the reply also counts the
// jobs of `owner` and all the queue's (model/schedd/job_counts.h), so that
// a listing's last lines need no second query of every job.
struct QueueQuery {
  std::string constraint;
  std::vector<std::string> projection;
  bool totals = false;
  std::string owner;
};
template <class I>
typename I::result_type inspect(I& f, QueueQuery& x) {
  return f(caf::meta::type_name("QueueQuery"), x.constraint, x.projection, x.totals, x.owner);
}

// condor_history: the schedd's history of finished jobs (completed or
// removed), newest first; at most `limit` jobs (0: every one kept).
struct HistoryQuery {
  std::string constraint;
  std::vector<std::string> projection;
  std::int64_t limit = 0;
};
template <class I>
typename I::result_type inspect(I& f, HistoryQuery& x) {
  return f(caf::meta::type_name("HistoryQuery"), x.constraint, x.projection, x.limit);
}

struct QueueReply {
  bool ok = true;
  std::string error;
  std::vector<WireAd> jobs;
  schedd::QueueTotals totals;  // when the query asked for them
};
template <class I>
typename I::result_type inspect(I& f, QueueReply& x) {
  return f(caf::meta::type_name("QueueReply"), x.ok, x.error, x.jobs, x.totals);
}

// condor_rm, condor_hold, condor_release (model/schedd/job_actions.h):
// `action` is the tool's word ("rm", "hold", "release"); `user` the one
// who asks, which the schedd takes from a remote client's certificate.
struct JobActionRequest {
  std::string action;
  std::string constraint;
  std::string reason;
  std::string user;
  bool mine_only = false;  // -all: the asker's jobs, the others passed over
};
template <class I>
typename I::result_type inspect(I& f, JobActionRequest& x) {
  return f(caf::meta::type_name("JobActionRequest"), x.action, x.constraint, x.reason, x.user, x.mine_only);
}

// The jobs changed ("5.0") and those selected but not changed, each with
// why ("5.1: job 5.1 is Idle; ...").
struct JobActionReply {
  bool ok = true;
  std::string error;
  std::vector<std::string> done;
  std::vector<std::string> refused;
};
template <class I>
typename I::result_type inspect(I& f, JobActionReply& x) {
  return f(caf::meta::type_name("JobActionReply"), x.ok, x.error, x.done, x.refused);
}

}  // namespace cara::actors
