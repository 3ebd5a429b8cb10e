#include "model/schedd/schedd_ads.h"

#include "model/schedd/job_order.h"

namespace cara::schedd {
namespace {

struct Counts {
  std::int64_t idle = 0, running = 0, held = 0, jobs = 0;
};

}  // namespace

ScheddAds schedd_ads(const JobQueue& queue, const std::set<std::string>& known, std::int64_t completed) {
  std::map<std::string, Counts> by_submitter;
  for (const auto& [id, job] : queue.jobs()) {
    Counts& c = by_submitter[submitter_name(job)];
    ++c.jobs;
    switch (job_status(job).value_or(JobStatus::Idle)) {
      case JobStatus::Idle: ++c.idle; break;
      case JobStatus::Running:
      case JobStatus::Suspended: ++c.running; break;
      case JobStatus::Held: ++c.held; break;
      case JobStatus::Removed:
      case JobStatus::Completed:
      case JobStatus::TransferringOutput: break;
    }
  }
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
