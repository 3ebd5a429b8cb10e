#include "model/schedd/schedd_ads.h"

#include "model/schedd/job_order.h"

namespace cara::schedd {
ScheddAds schedd_ads(const JobQueue& queue, const std::set<std::string>& known, std::int64_t completed) {
  using Counts = JobQueue::SubmitterJobs;
  std::map<std::string, Counts> by_submitter = queue.submitter_jobs();
  for (const std::string& name : known) by_submitter.try_emplace(name);
  const classad::ClassAd& own = queue.policy().schedd_ad;
  const std::string schedd_name = string_attr(own, "Name");
  ScheddAds ads;
  ads.scheduler = own;
  Counts total;
  std::int64_t users = 0;
  for (const auto& [name, c] : by_submitter) {
    classad::ClassAd ad;
    ad.set("MyType", "Submitter");
    ad.set("Name", name);
    ad.set("ScheddName", schedd_name);
    ad.set("IdleJobs", c.idle);
    ad.set("RunningJobs", c.running);
    ad.set("HeldJobs", c.held);
    ads.submitters.emplace(name, std::move(ad));
    total.idle += c.idle;
    total.running += c.running;
    total.held += c.held;
    if (c.jobs > 0) ++users;
  }
  ads.scheduler.set("TotalIdleJobs", total.idle);
  ads.scheduler.set("TotalRunningJobs", total.running);
  ads.scheduler.set("TotalHeldJobs", total.held);
  ads.scheduler.set("TotalJobAds", static_cast<std::int64_t>(queue.size()));
  ads.scheduler.set("NumUsers", users);
  ads.scheduler.set("JobsCompleted", completed);
  return ads;
}

}  // namespace cara::schedd
