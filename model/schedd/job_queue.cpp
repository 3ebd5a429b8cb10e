#include "model/schedd/job_queue.h"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <utility>

#include "model/classad/eval.h"
#include "model/classad/selection.h"
#include "model/schedd/job_order.h"

namespace cara::schedd {
namespace {

std::string user_log_of(const classad::ClassAd& job) {
  return string_attr(job, "UserLog");
}

}  // namespace

JobQueue::JobQueue(QueuePolicy policy, std::string address, classad::EvalEnv env)
    : policy_(std::move(policy)), address_(std::move(address)), env_(env) {}

void JobQueue::log(const classad::ClassAd& job, UserLogEvent event) {
  events_.push_back(LoggedEvent{user_log_of(job), std::move(event), string_attr(job, "Owner")});
}

Result<SubmitResult> JobQueue::submit(std::vector<classad::ClassAd> jobs, std::int64_t now) {
  if (jobs.empty()) return Error{"a submission needs at least one job"};
  const std::int64_t cluster = next_cluster_;
  for (const classad::ClassAd& job : jobs) {
    const JobId id = job_id(job);
    if (id.cluster != cluster)
      return Error{"job " + id.str() + " does not belong to cluster " + std::to_string(cluster) +
                   " (build jobs with next_cluster_id())"};
  }
  classad::EvalEnv env = env_;
  env.now = now;
  auto admitted = admit_cluster(policy_, jobs, env);
  if (!admitted) return Error{admitted.error()};
  ++next_cluster_;
  const auto procs = static_cast<std::int64_t>(jobs.size());
  for (classad::ClassAd& job : jobs) {
    // condor_q's DONE column: the cluster's jobs no longer in the queue.
    job.set("TotalSubmitProcs", procs);
    // Kept for as long as the job waits: no spare room (a queue of
    // 100,000 jobs held a quarter of their attribute vectors empty).
    job.shrink_to_fit();
    log(job, submit_event(job, address_, now, admitted->warning.value_or("")));
    const JobId id = job_id(job);
    touched_.push_back(id);
    auto [it, fresh] = jobs_.insert_or_assign(id, std::move(job));
    if (!fresh)
      reindex_all();  // never for ids handed out once; kept exact regardless
    else
      index(id, it->second, +1);
  }
  return SubmitResult{cluster, jobs.size(), admitted->warning};
}

const classad::ClassAd* JobQueue::find(JobId id) const {
  auto it = jobs_.find(id);
  return it == jobs_.end() ? nullptr : &it->second;
}

void JobQueue::index(JobId id, const classad::ClassAd& job, int sign) {
  const auto s = job_status(job);
  const std::string submitter = submitter_name(job);
  {
    auto it = jobs_by_submitter_.try_emplace(submitter).first;
    SubmitterJobs& c = it->second;
    c.jobs += sign;
    switch (s.value_or(JobStatus::Idle)) {
      case JobStatus::Idle: c.idle += sign; break;
      case JobStatus::Running:
      case JobStatus::Suspended: c.running += sign; break;
      case JobStatus::Held: c.held += sign; break;
      case JobStatus::Removed:
      case JobStatus::Completed:
      case JobStatus::TransferringOutput: break;
    }
    if (c.jobs <= 0) jobs_by_submitter_.erase(it);
  }
  const bool idle = s == JobStatus::Idle;
  if (!idle && s != JobStatus::Running && s != JobStatus::Suspended) return;
  if (sign > 0) {
    if (idle) {
      const JobOrderKey key = job_order_key(job);
      idle_by_submitter_[submitter][key] = &job;
      idle_key_[id] = key;
    }
    ++active_by_submitter_[submitter];
    return;
  }
  if (auto k = idle_key_.find(id); k != idle_key_.end()) {
    if (auto it = idle_by_submitter_.find(submitter); it != idle_by_submitter_.end()) {
      it->second.erase(k->second);
      if (it->second.empty()) idle_by_submitter_.erase(it);
    }
    idle_key_.erase(k);
  }
  if (auto it = active_by_submitter_.find(submitter); it != active_by_submitter_.end() && --it->second <= 0)
    active_by_submitter_.erase(it);
}

void JobQueue::reindex_all() {
  idle_by_submitter_.clear();
  idle_key_.clear();
  active_by_submitter_.clear();
  jobs_by_submitter_.clear();
  autocluster_of_.clear();
  for (const auto& [id, job] : jobs_) index(id, job, +1);
}

template <typename F>
Status JobQueue::change(JobId id, F&& transition) {
  auto it = jobs_.find(id);
  if (it == jobs_.end()) return Error{"no job " + id.str() + " in the queue"};
  index(id, it->second, -1);
  auto event = transition(it->second);
  index(id, it->second, +1);
  autocluster_of_.erase(id);
  if (!event) return Error{event.error()};
  log(it->second, std::move(*event));
  touched_.push_back(id);
  note_if_finished(id, it->second);
  return Ok{};
}

void JobQueue::note_if_finished(JobId id, const classad::ClassAd& job) {
  const auto s = job_status(job);
  if (s == JobStatus::Completed || s == JobStatus::Removed) finished_.push_back(id);
}

Status JobQueue::start(JobId id, const std::string& host, std::int64_t now) {
  return change(id, [&](classad::ClassAd& j) { return start_job(j, host, now); });
}
Status JobQueue::suspend(JobId id, std::int64_t now) {
  return change(id, [&](classad::ClassAd& j) { return suspend_job(j, now); });
}
Status JobQueue::unsuspend(JobId id, std::int64_t now) {
  return change(id, [&](classad::ClassAd& j) { return unsuspend_job(j, now); });
}
Status JobQueue::evict(JobId id, std::int64_t now) {
  return change(id, [&](classad::ClassAd& j) { return evict_job(j, now); });
}
Status JobQueue::complete(JobId id, const JobExit& exit, std::int64_t now) {
  return change(id, [&](classad::ClassAd& j) { return complete_job(j, exit, now); });
}
Status JobQueue::hold(JobId id, const std::string& reason, int code, int subcode, std::int64_t now) {
  return change(id, [&](classad::ClassAd& j) { return hold_job(j, reason, code, subcode, now); });
}
Status JobQueue::release(JobId id, const std::string& reason, std::int64_t now) {
  return change(id, [&](classad::ClassAd& j) { return release_job(j, reason, now); });
}
Status JobQueue::remove(JobId id, const std::string& reason, std::int64_t now) {
  return change(id, [&](classad::ClassAd& j) { return remove_job(j, reason, now); });
}

Status JobQueue::bind_claim(JobId id, const JobClaim& claim) {
  auto it = jobs_.find(id);
  if (it == jobs_.end()) return Error{"no job " + id.str() + " in the queue"};
  set_job_claim(it->second, claim);
  autocluster_of_.erase(id);
  touched_.push_back(id);
  return Ok{};
}

Status JobQueue::unbind_claim(JobId id) {
  auto it = jobs_.find(id);
  if (it == jobs_.end()) return Error{"no job " + id.str() + " in the queue"};
  if (clear_job_claim(it->second)) {
    autocluster_of_.erase(id);
    touched_.push_back(id);
  }
  return Ok{};
}

std::size_t JobQueue::evaluate_periodic(std::int64_t now) {
  classad::EvalEnv env = policy_.eval_env(env_);
  env.now = now;
  std::size_t changed = 0;
  for (auto& [id, job] : jobs_) {
    const PeriodicVerdict v = schedd::evaluate_periodic(policy_.periodic, job, env);
    if (v.action == PeriodicAction::None) continue;
    Result<UserLogEvent> event = Error{""};
    index(id, job, -1);
    switch (v.action) {
      case PeriodicAction::None: break;
      case PeriodicAction::Hold: event = hold_job(job, v.reason, v.code, v.subcode, now); break;
      case PeriodicAction::Release: event = release_job(job, v.reason, now); break;
      case PeriodicAction::Remove: event = remove_job(job, v.reason, now); break;
    }
    index(id, job, +1);
    autocluster_of_.erase(id);
    if (event) {
      log(job, std::move(*event));
      touched_.push_back(id);
      note_if_finished(id, job);
      ++changed;
    }
  }
  return changed;
}

std::vector<classad::ClassAd> JobQueue::take_finished() {
  // Only the jobs noted as they finished: the schedd calls this after every
  // change, and a scan of the whole queue made claiming 10 k jobs quadratic.
  std::vector<classad::ClassAd> out;
  for (const JobId& id : std::exchange(finished_, {})) {
    auto it = jobs_.find(id);
    if (it == jobs_.end()) continue;
    clear_job_claim(it->second);  // the history holds no claim's secret
    index(id, it->second, -1);    // nothing, unless it is back in the queue's states
    autocluster_of_.erase(id);
    out.push_back(std::move(it->second));
    jobs_.erase(it);
  }
  return out;
}

std::vector<JobId> JobQueue::take_touched() {
  std::vector<JobId> out = std::exchange(touched_, {});
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Status JobQueue::restore(std::vector<classad::ClassAd> jobs, std::int64_t next_cluster, std::int64_t now) {
  if (!jobs_.empty()) return Error{"a queue is restored only when it is empty"};
  std::map<JobId, classad::ClassAd> restored;
  for (classad::ClassAd& job : jobs) {
    const JobId id = job_id(job);
    if (id.cluster < 1 || id.proc < 0) return Error{"a stored job has no valid ClusterId and ProcId"};
    if (id.cluster >= next_cluster)
      return Error{"stored job " + id.str() + " has a cluster id not below the next one (" +
                   std::to_string(next_cluster) + "): ids would be handed out twice"};
    if (!job_status(job)) return Error{"stored job " + id.str() + " has no valid JobStatus"};
    if (!restored.emplace(id, std::move(job)).second) return Error{"job " + id.str() + " is stored twice"};
  }
  jobs_ = std::move(restored);
  next_cluster_ = next_cluster;
  // One pass over the jobs settles and indexes each (a second walk of a
  // 100 k-job queue was a fifth of a restarted schedd's start).
  for (auto& [id, job] : jobs_) {
    if (Status s = settle_restored(id, job, now); !s) {
      jobs_.clear();  // empty again, as it was: nothing half read back
      touched_.clear();
      events_.clear();
      reindex_all();
      return s;
    }
    index(id, job, +1);
  }
  return Ok{};
}

Status JobQueue::settle_restored(JobId id, classad::ClassAd& job, std::int64_t now) {
  const auto s = job_status(job);
  const bool may_run = s == JobStatus::Idle || s == JobStatus::Running || s == JobStatus::Suspended;
  if (job_claim(job)) {
    if (may_run) return Ok{};
    clear_job_claim(job);  // held or finished: its claim is no one's concern
    touched_.push_back(id);
    return Ok{};
  }
  if (s != JobStatus::Running && s != JobStatus::Suspended) return Ok{};
  auto event = evict_job(job, now);
  if (!event) return Error{"stored job " + id.str() + ": " + event.error()};
  log(job, std::move(*event));
  touched_.push_back(id);
  return Ok{};
}

std::vector<LoggedEvent> JobQueue::take_events() {
  return std::exchange(events_, {});
}

std::vector<const classad::ClassAd*> JobQueue::idle_jobs(const std::string& submitter) const {
  std::vector<const classad::ClassAd*> out;
  auto jobs = idle_by_submitter_.find(submitter);
  if (jobs == idle_by_submitter_.end()) return out;
  out.reserve(jobs->second.size());
  for (const auto& [key, job] : jobs->second) out.push_back(job);
  return out;
}

void JobQueue::for_each_idle_job(const std::string& submitter,
                                 const std::function<bool(const classad::ClassAd&)>& visit) const {
  auto jobs = idle_by_submitter_.find(submitter);
  if (jobs == idle_by_submitter_.end()) return;
  for (const auto& [key, job] : jobs->second)
    if (!visit(*job)) return;
}

std::size_t JobQueue::idle_count(const std::string& submitter) const {
  auto it = idle_by_submitter_.find(submitter);
  return it == idle_by_submitter_.end() ? 0 : it->second.size();
}

std::vector<std::string> JobQueue::submitters() const {
  std::vector<std::string> names;
  names.reserve(active_by_submitter_.size());
  for (const auto& [name, count] : active_by_submitter_) names.push_back(name);
  return names;
}

std::vector<ResourceRequest> JobQueue::resource_requests(const std::string& submitter,
                                                         const SignificantAttributes& significant,
                                                         const std::function<bool(JobId)>& skip,
                                                         const classad::ExprTree* job_constraint,
                                                         std::int64_t now) const {
  std::vector<ResourceRequest> out;
  auto idle = idle_by_submitter_.find(submitter);
  if (idle == idle_by_submitter_.end()) return out;
  const SignificantAttributes& used = policy_.significant_attributes
                                          ? SignificantAttributes::from_list(*policy_.significant_attributes)
                                          : significant;
  // A negotiator asks for every submitter's requests in a cycle, with the
  // same names each time: compared in the set's own order, not copied.
  const classad::NameSet& names = used.names();
  if (!autoclusters_ ||
      !std::equal(names.begin(), names.end(), autocluster_names_.begin(), autocluster_names_.end())) {
    autoclusters_.emplace(used);
    autocluster_names_.assign(names.begin(), names.end());
    autocluster_of_.clear();
  }
  std::unordered_map<int, std::size_t> where;
  for (const auto& [key, job] : idle->second) {
    const JobId id = key.id;
    if (skip && skip(id)) continue;
    if (job_constraint && !classad::true_at(*job_constraint, *job, now)) continue;
    auto [known, fresh] = autocluster_of_.try_emplace(id, 0);
    if (fresh) known->second = autoclusters_->assign(*job);
    auto [it, first] = where.try_emplace(known->second, out.size());
    if (first) out.push_back(ResourceRequest{known->second, job, 0, {}});
    ResourceRequest& r = out[it->second];
    ++r.count;
    r.jobs.push_back(id);
  }
  return out;
}

IdleJobCursor JobQueue::negotiation_cursor(const std::string& submitter) const {
  std::vector<const classad::ClassAd*> jobs = idle_jobs(submitter);
  std::vector<int> autoclusters;
  auto by = IdleJobCursor::ClusterBy::ClusterId;
  if (policy_.significant_attributes) {
    by = IdleJobCursor::ClusterBy::Autocluster;
    AutoclusterIndex index(SignificantAttributes::from_list(*policy_.significant_attributes));
    for (const classad::ClassAd* j : jobs) autoclusters.push_back(index.assign(*j));
  }
  return IdleJobCursor(std::move(jobs), std::move(autoclusters), by, policy_.negotiate_all_jobs_in_cluster);
}

}  // namespace cara::schedd
