#include "model/schedd/job_order.h"

#include <algorithm>

namespace cara::schedd {

JobOrderKey job_order_key(const classad::ClassAd& job) {
  return JobOrderKey{int_attr(job, "JobPrio"), int_attr(job, "QDate"), job_id(job)};
}

bool offered_before(const JobOrderKey& a, const JobOrderKey& b) {
  if (a.prio != b.prio) return a.prio > b.prio;
  if (a.qdate != b.qdate) return a.qdate < b.qdate;
  return a.id < b.id;
}

void sort_for_offer(std::vector<const classad::ClassAd*>& jobs) {
  std::vector<std::pair<JobOrderKey, const classad::ClassAd*>> keyed;
  keyed.reserve(jobs.size());
  for (const classad::ClassAd* j : jobs) keyed.emplace_back(job_order_key(*j), j);
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return offered_before(a.first, b.first); });
  for (std::size_t i = 0; i < jobs.size(); ++i) jobs[i] = keyed[i].second;
}

std::string submitter_name(const classad::ClassAd& job) {
  const std::string user = string_attr(job, "User");
  const std::string group = string_attr(job, "AccountingGroup");
  if (group.empty()) return user;
  const std::size_t at = user.rfind('@');
  return at == std::string::npos ? group : group + user.substr(at);
}

IdleJobCursor::IdleJobCursor(std::vector<const classad::ClassAd*> jobs, std::vector<int> autoclusters,
                             ClusterBy by, bool negotiate_all_jobs_in_cluster)
    : jobs_(std::move(jobs)),
      autoclusters_(std::move(autoclusters)),
      by_(by),
      negotiate_all_(negotiate_all_jobs_in_cluster) {}

std::int64_t IdleJobCursor::cluster_of(std::size_t i) const {
  if (by_ == ClusterBy::Autocluster && i < autoclusters_.size()) return autoclusters_[i];
  return int_attr(*jobs_[i], "ClusterId");
}

const classad::ClassAd* IdleJobCursor::next() {
  while (pos_ < jobs_.size()) {
    const std::size_t i = pos_++;
    if (!negotiate_all_ && rejected_.count(cluster_of(i))) {
      ++skipped_;
      continue;
    }
    return jobs_[i];
  }
  return nullptr;
}

void IdleJobCursor::no_match() {
  if (pos_ == 0 || negotiate_all_) return;
  rejected_.insert(cluster_of(pos_ - 1));
}

}  // namespace cara::schedd
