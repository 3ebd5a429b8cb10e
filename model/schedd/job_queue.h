// The schedd's job queue as a pure model: the jobs by id, the clusters
// they were submitted in, the user log events their state changes write,
// and the periodic policy. The schedd actor keeps it in memory and stores
// what each change touched (take_touched) before it acknowledges the
// change (DESIGN.md "State and durability"); `cara submit -dry-run` drives
// it alone; neither holds a rule of its own.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/eval_env.h"
#include "model/common/result.h"
#include "model/schedd/autocluster.h"
#include "model/schedd/job_claim.h"
#include "model/schedd/job_order.h"
#include "model/schedd/job_status.h"
#include "model/schedd/job_transitions.h"
#include "model/schedd/queue_policy.h"
#include "model/schedd/user_log.h"

namespace cara::schedd {

struct SubmitResult {
  std::int64_t cluster = 0;
  std::size_t count = 0;
  std::optional<std::string> warning;
};

// A user log event and the log it goes to (the job's UserLog).
struct LoggedEvent {
  std::string log;  // empty when the job has no log
  UserLogEvent event;
  std::string owner;  // the job's Owner: the log is written with that user's rights
};

class JobQueue {
 public:
  JobQueue(QueuePolicy policy, std::string address, classad::EvalEnv env = {});

  // A reconfiguration: submissions and periodic evaluations from now on
  // follow `policy`; queued jobs stay as they are.
  void set_policy(QueuePolicy policy) { policy_ = std::move(policy); }
  const QueuePolicy& policy() const { return policy_; }

  // The id the next submission gets; submit files expand $(Cluster) with it.
  std::int64_t next_cluster_id() const { return next_cluster_; }

  // Queues the jobs of one cluster (built with next_cluster_id()):
  // transforms, submit requirements, then a 000 event per job. A rejected
  // cluster leaves the queue unchanged.
  Result<SubmitResult> submit(std::vector<classad::ClassAd> jobs, std::int64_t now);

  const classad::ClassAd* find(JobId id) const;
  std::size_t size() const { return jobs_.size(); }
  const std::map<JobId, classad::ClassAd>& jobs() const { return jobs_; }

  // State changes (job_transitions.h); an unknown job is an error too.
  Status start(JobId id, const std::string& host, std::int64_t now);
  Status suspend(JobId id, std::int64_t now);
  Status unsuspend(JobId id, std::int64_t now);
  Status evict(JobId id, std::int64_t now);
  Status complete(JobId id, const JobExit& exit, std::int64_t now);
  Status hold(JobId id, const std::string& reason, int code, int subcode, std::int64_t now);
  Status release(JobId id, const std::string& reason, std::int64_t now);
  Status remove(JobId id, const std::string& reason, std::int64_t now);

  // The claim the job is activated on (job_claim.h), recorded before the
  // activation goes out and kept while the job runs; cleared when the
  // claim no longer runs it. Neither writes a user log event.
  Status bind_claim(JobId id, const JobClaim& claim);
  Status unbind_claim(JobId id);

  // Evaluates the periodic policy for every job at `now` and applies what
  // it says; returns how many jobs changed.
  std::size_t evaluate_periodic(std::int64_t now);

  // Completed and removed jobs leave the queue (to the history), in the
  // order they finished.
  std::vector<classad::ClassAd> take_finished();

  // The events written since the last call, in order.
  std::vector<LoggedEvent> take_events();

  // The jobs queued, changed or gone from the queue since the last call,
  // in id order: what the schedd must store before it acknowledges.
  std::vector<JobId> take_touched();

  // The queue read back from its store: `jobs` as they were stored and
  // `next_cluster` the first cluster id never handed out (ids are never
  // reused). A job stored with a claim (bind_claim) keeps it: the schedd
  // reconnects to it (claim::ScheddClaims::restored). A job stored as
  // running or suspended without one has lost its run: it is evicted (004)
  // and runs again. Only into an empty queue; what changed counts as
  // touched.
  Status restore(std::vector<classad::ClassAd> jobs, std::int64_t next_cluster, std::int64_t now);

  // A submitter's idle jobs in offer order (job_order.h).
  std::vector<const classad::ClassAd*> idle_jobs(const std::string& submitter) const;
  // The same, one at a time, until `visit` returns false (no list made: a
  // schedd looking for the next job of a claim stops at the first).
  void for_each_idle_job(const std::string& submitter,
                         const std::function<bool(const classad::ClassAd&)>& visit) const;
  // The submitters with idle or running jobs.
  std::vector<std::string> submitters() const;
  // How many of each submitter's jobs the queue holds, and how many of
  // them are idle, running (or suspended) and held (a job without a valid
  // JobStatus counts as idle): its Submitter ad's figures, kept as the
  // jobs change (a schedd of 100 k jobs counted them all for every ad it
  // sent, issue 21). Submitters with no job are not listed.
  struct SubmitterJobs {
    std::int64_t jobs = 0, idle = 0, running = 0, held = 0;
    bool operator==(const SubmitterJobs&) const = default;
  };
  const std::map<std::string, SubmitterJobs>& submitter_jobs() const { return jobs_by_submitter_; }
  // How many idle jobs `submitter` has (IdleJobs of its submitter ad).
  std::size_t idle_count(const std::string& submitter) const;

  // The submitter's idle jobs as resource requests: one per autocluster,
  // with its count and job ids, in offer order, leaving out the jobs
  // `skip` names (being claimed for). `significant` (the negotiator's
  // list) is used unless this schedd's policy names SIGNIFICANT_ATTRIBUTES
  // (HTCondor: the schedd's own list wins). `job_constraint`, when given,
  // is the asking negotiator's NEGOTIATOR_JOB_CONSTRAINT: only the jobs it
  // is true of (at `now`) are offered to that negotiator.
  std::vector<ResourceRequest> resource_requests(const std::string& submitter,
                                                 const SignificantAttributes& significant,
                                                 const std::function<bool(JobId)>& skip = {},
                                                 const classad::ExprTree* job_constraint = nullptr,
                                                 std::int64_t now = 0) const;

  // A cursor over the submitter's idle jobs for one negotiation cycle,
  // with cluster skipping as NEGOTIATE_ALL_JOBS_IN_CLUSTER and
  // SIGNIFICANT_ATTRIBUTES configure it.
  IdleJobCursor negotiation_cursor(const std::string& submitter) const;

 private:
  template <typename F>
  Status change(JobId id, F&& transition);
  void log(const classad::ClassAd& job, UserLogEvent event);
  void note_if_finished(JobId id, const classad::ClassAd& job);
  // The per-submitter indexes follow each job's status: `sign` +1 adds
  // the job as it is now, -1 takes it out.
  void index(JobId id, const classad::ClassAd& job, int sign);
  void reindex_all();
  // A job as read back: a claim kept while the job may still run on it,
  // a run without one evicted (back to idle).
  Status settle_restored(JobId id, classad::ClassAd& job, std::int64_t now);

  QueuePolicy policy_;
  std::string address_;
  classad::EvalEnv env_;
  std::int64_t next_cluster_ = 1;
  std::map<JobId, classad::ClassAd> jobs_;
  std::vector<LoggedEvent> events_;
  std::vector<JobId> finished_;  // completed or removed since the last take_finished
  std::vector<JobId> touched_;   // since the last take_touched; may repeat ids
  // Each submitter's idle jobs, and how many of its jobs are idle, running
  // or suspended: a negotiation cycle asks for them, and scanning the
  // whole queue for each submitter in each cycle made a large queue's
  // cycles slow (issue 29: the simulator runs many).
  struct OfferOrder {
    bool operator()(const JobOrderKey& a, const JobOrderKey& b) const { return offered_before(a, b); }
  };
  using IdleJobs = std::map<JobOrderKey, const classad::ClassAd*, OfferOrder>;  // in offer order
  std::map<std::string, IdleJobs> idle_by_submitter_;
  std::map<JobId, JobOrderKey> idle_key_;  // each idle job's place in its submitter's order
  std::map<std::string, std::int64_t> active_by_submitter_;
  std::map<std::string, SubmitterJobs> jobs_by_submitter_;
  // Each idle job's autocluster under the significant attributes last asked
  // for (HTCondor keeps AutoClusterId in the job likewise): computed once
  // per job and list, forgotten when the job changes.
  mutable std::optional<AutoclusterIndex> autoclusters_;
  mutable std::vector<std::string> autocluster_names_;
  mutable std::map<JobId, int> autocluster_of_;
};

}  // namespace cara::schedd
