// The schedd's Submitter and Scheduler ads, under HTCondor's attribute
// names (condor_status -submitters / -schedd).
#include "model/schedd/schedd_ads.h"

#include <catch2/catch.hpp>
#include <map>
#include <random>

#include "model/classad/eval.h"
#include "model/schedd/job_queue.h"
#include "model/schedd/submission.h"
#include "unit/schedd/support.h"

using namespace cara;
using namespace cara::schedd;
using namespace cara::schedd_test;

namespace {

std::int64_t integer(const classad::ClassAd& ad, const char* name) {
  classad::Value v = classad::evaluate_attr(ad, name);
  REQUIRE(v.is_int());
  return v.as_int();
}

}  // namespace

TEST_CASE("the Submitter and Scheduler ads count the queue by submitter and status", "[schedd][ads]") {
  Submit s("SCHEDD_ATTRS = Site\nSite = \"RWTH\"\nFULL_HOSTNAME = ap7.physik.rwth-aachen.de\n");
  auto policy = QueuePolicy::from_config(*s.config, "ap.physik.rwth-aachen.de");
  REQUIRE(policy);
  JobQueue queue(std::move(*policy), "<10.0.0.1:9618>");
  const SubmitSite site{"physik.rwth-aachen.de", &*s.config, s.host.get()};
  Submission cms{"executable = /bin/true\nqueue 4\n", "a.sub", {}, "", "cms001", "/home/cms001", {}};
  REQUIRE(submit_description(queue, cms, site, kT0));
  Submission atlas{"executable = /bin/true\naccounting_group = group_atlas\nqueue 1\n",
                   "b.sub",
                   {},
                   "",
                   "atlas7",
                   "/home/atlas7",
                   {}};
  REQUIRE(submit_description(queue, atlas, site, kT0));
  REQUIRE(queue.start({1, 0}, "slot1@ep", kT0));
  REQUIRE(queue.start({1, 1}, "slot2@ep", kT0));
  REQUIRE(queue.suspend({1, 1}, kT0));
  REQUIRE(queue.hold({1, 2}, "by hand", 1, 0, kT0));

  const ScheddAds ads = schedd_ads(queue, {"gone@physik.rwth-aachen.de"}, 12);
  REQUIRE(ads.submitters.size() == 3);
  const classad::ClassAd& me = ads.submitters.at("cms001@physik.rwth-aachen.de");
  CHECK(string_attr(me, "MyType") == "Submitter");
  CHECK(string_attr(me, "Name") == "cms001@physik.rwth-aachen.de");
  CHECK(string_attr(me, "ScheddName") == "ap.physik.rwth-aachen.de");
  CHECK(integer(me, "IdleJobs") == 1);
  CHECK(integer(me, "RunningJobs") == 2);  // a suspended job holds its slot
  CHECK(integer(me, "HeldJobs") == 1);
  CHECK(integer(ads.submitters.at("group_atlas.atlas7@physik.rwth-aachen.de"), "IdleJobs") == 1);
  // A submitter that had jobs keeps an ad with zero counts.
  const classad::ClassAd& gone = ads.submitters.at("gone@physik.rwth-aachen.de");
  CHECK(integer(gone, "IdleJobs") == 0);
  CHECK(integer(gone, "RunningJobs") == 0);

  const classad::ClassAd& own = ads.scheduler;
  CHECK(string_attr(own, "MyType") == "Scheduler");
  CHECK(string_attr(own, "Name") == "ap.physik.rwth-aachen.de");
  CHECK(string_attr(own, "Site") == "RWTH");                          // SCHEDD_ATTRS
  CHECK(string_attr(own, "Machine") == "ap7.physik.rwth-aachen.de");  // its node: cara q -name joins it
  CHECK(integer(own, "TotalIdleJobs") == 2);
  CHECK(integer(own, "TotalRunningJobs") == 2);
  CHECK(integer(own, "TotalHeldJobs") == 1);
  CHECK(integer(own, "TotalJobAds") == 5);
  CHECK(integer(own, "NumUsers") == 2);
  CHECK(integer(own, "JobsCompleted") == 12);
}

TEST_CASE("the queue keeps each submitter's counts as a count of the whole queue gives them",
          "[schedd][ads][issue21]") {
  // The Submitter ads' figures are kept as jobs change (JobQueue::
  // submitter_jobs), not counted anew for every ad: after each step of a
  // random walk over the job state changes they are what a count of
  // every job gives, and the ads say so.
  Submit s("");
  auto policy = QueuePolicy::from_config(*s.config, "ap");
  REQUIRE(policy);
  JobQueue queue(std::move(*policy), "<10.0.0.1:9618>");
  const SubmitSite site{"example.org", &*s.config, s.host.get()};
  for (const char* owner : {"alice", "bob"}) {
    Submission sub{"executable = /bin/true\nqueue 6\n", "a.sub", {}, "", owner, "/home", {}};
    REQUIRE(submit_description(queue, sub, site, kT0));
  }
  Submission grouped{
      "executable = /bin/true\naccounting_group = group_a\nqueue 6\n", "b.sub", {}, "", "carol", "/home", {}};
  REQUIRE(submit_description(queue, grouped, site, kT0));
  auto counted = [&] {
    std::map<std::string, JobQueue::SubmitterJobs> out;
    for (const auto& [id, job] : queue.jobs()) {
      JobQueue::SubmitterJobs& c = out[submitter_name(job)];
      ++c.jobs;
      const JobStatus st = job_status(job).value_or(JobStatus::Idle);
      if (st == JobStatus::Idle) ++c.idle;
      if (st == JobStatus::Running || st == JobStatus::Suspended) ++c.running;
      if (st == JobStatus::Held) ++c.held;
    }
    return out;
  };
  std::mt19937 rng(21);
  std::int64_t t = kT0;
  int changed = 0;
  for (int step = 0; step < 400; ++step) {
    std::vector<JobId> ids;
    for (const auto& [id, job] : queue.jobs()) ids.push_back(id);
    if (ids.empty()) break;
    const JobId id = ids[rng() % ids.size()];
    ++t;
    Status done = Ok{};
    switch (rng() % 9) {
      case 0: done = queue.start(id, "slot1@ep", t); break;
      case 1: done = queue.suspend(id, t); break;
      case 2: done = queue.unsuspend(id, t); break;
      case 3: done = queue.evict(id, t); break;
      case 4: done = queue.hold(id, "by hand", 1, 0, t); break;
      case 5: done = queue.release(id, "by hand", t); break;
      case 6:
        if (rng() % 4 == 0) done = queue.remove(id, "by hand", t);
        break;
      case 7:
        if (rng() % 4 == 0) done = queue.complete(id, JobExit{}, t);
        break;
      default: queue.take_finished(); break;
    }
    if (done) ++changed;
    INFO("step " << step);
    REQUIRE(queue.submitter_jobs() == counted());
  }
  CHECK(changed > 100);
  queue.take_finished();
  const ScheddAds ads = schedd_ads(queue, {}, 0);
  std::int64_t idle = 0;
  for (const auto& [name, c] : counted()) {
    CHECK(integer(ads.submitters.at(name), "IdleJobs") == c.idle);
    CHECK(integer(ads.submitters.at(name), "RunningJobs") == c.running);
    CHECK(integer(ads.submitters.at(name), "HeldJobs") == c.held);
    idle += c.idle;
  }
  CHECK(integer(ads.scheduler, "TotalIdleJobs") == idle);
}
