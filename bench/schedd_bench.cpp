// Schedd benchmark (issue 4): prints one JSON object with
//   expand_jobs_per_s        a 100,000-job `queue` statement made into job
//                            ads (parse_submit + build_jobs, the thesis's
//                            submit file with -append and -queue)
//   autocluster_jobs_per_s   1,000,000 idle jobs grouped into autoclusters
//                            (10,000 distinct) as resource requests with counts
//   offer_sort_jobs_per_s    the same jobs sorted into offer order
// each the median of several runs on one core.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <vector>

#include "bench/timing.h"
#include "model/classad/parser.h"
#include "model/config/config.h"
#include "model/config/config_host.h"
#include "model/schedd/autocluster.h"
#include "model/schedd/job_builder.h"
#include "model/schedd/job_order.h"
#include "model/schedd/submit_description.h"

using namespace cara;
using namespace cara::schedd;
using cara::bench::median;
using cara::bench::rate;

namespace {

constexpr int kRuns = 5;
constexpr std::int64_t kExpandJobs = 100000;
constexpr std::int64_t kIdleJobs = 1000000;
constexpr int kAutoclusters = 10000;

// The thesis's submit file (figure 10).
const char* kSubmit =
    "Executable      = testjob.sh\n"
    "Universe        = vanilla\n"
    "Args            = $(ProcId)\n"
    "output = $INT(ProcId,%02d).out\n"
    "log     = testjob.log\n"
    "accounting_group = group_cms.cms\n"
    "+custom_ClassAd_attr = true\n"
    "queue 3\n";

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "schedd_bench: %s\n", what.c_str());
  std::exit(1);
}

struct Context {
  std::shared_ptr<config::MemoryHost> host = std::make_shared<config::MemoryHost>();
  std::optional<config::Config> config;
  SubmitContext ctx;
  Context() {
    auto c = config::config_from_text("", {"SCHEDD", ""}, host);
    if (!c) die(c.error());
    config = std::move(*c);
    ctx.owner = "dcms001";
    ctx.uid_domain = "physik.rwth-aachen.de";
    ctx.iwd = "/home/dcms001";
    ctx.now = 1535000000;
    ctx.config = &*config;
    ctx.files = host.get();
  }
  std::vector<classad::ClassAd> expand(std::int64_t n) {
    auto d = parse_submit(kSubmit, "testjob.submit",
                          {"accounting_group=group_cms.dcms", "+CreamQueue=\"short\""}, std::to_string(n));
    if (!d) die(d.error());
    auto jobs = build_jobs(*d, ctx);
    if (!jobs) die(jobs.error());
    return std::move(*jobs);
  }
};

}  // namespace

int main() {
  Context c;
  std::vector<double> expand;
  for (int r = 0; r < kRuns; ++r) {
    expand.push_back(rate(kExpandJobs, [&] {
      auto jobs = c.expand(kExpandJobs);
      if (static_cast<std::int64_t>(jobs.size()) != kExpandJobs) die("wrong job count");
    }));
  }

  // 1 M idle jobs as the builder makes them, in 10,000 shapes (memory x
  // cpus x owner), with priorities and submission times spread.
  const std::vector<classad::ClassAd> templates = c.expand(1000);
  std::vector<classad::ClassAd> jobs;
  jobs.reserve(kIdleJobs);
  for (std::int64_t i = 0; i < kIdleJobs; ++i) {
    classad::ClassAd job = templates[static_cast<std::size_t>(i % 1000)];
    const int shape = static_cast<int>((i * 7919) % kAutoclusters);
    job.set("ProcId", i);
    job.set("RequestMemory", static_cast<std::int64_t>(1000 + (shape % 100) * 10));
    job.set("RequestCpus", static_cast<std::int64_t>(1 + (shape / 100) % 4));
    job.set("Owner", "user" + std::to_string(shape / 400));
    job.set("JobPrio", static_cast<std::int64_t>(i % 3));  // not significant: only the order sees it
    job.set("QDate", static_cast<std::int64_t>(1535000000 + i % 86400));
    jobs.push_back(std::move(job));
  }
  std::vector<const classad::ClassAd*> idle;
  for (const auto& j : jobs) idle.push_back(&j);

  std::vector<double> sorting;
  std::vector<const classad::ClassAd*> ordered;
  for (int r = 0; r < kRuns; ++r) {
    sorting.push_back(rate(kIdleJobs, [&] {
      ordered = idle;
      sort_for_offer(ordered);
    }));
  }
  classad::ClassAd slot;
  auto start = classad::parse_expression("TARGET.Owner =!= \"nobody\"");
  slot.insert("START", *start);
  std::vector<double> clustering;
  std::size_t requests = 0, autoclusters = 0;
  for (int r = 0; r < kRuns; ++r) {
    clustering.push_back(rate(kIdleJobs, [&] {
      AutoclusterIndex index(SignificantAttributes::from_slots({&slot}, {}));
      requests = index.requests(ordered).size();
      autoclusters = index.size();
    }));
  }
  nlohmann::json out = {
      {"bench", "schedd"},
      {"expand_jobs", kExpandJobs},
      {"expand_jobs_per_s", median(expand)},
      {"idle_jobs", kIdleJobs},
      {"autoclusters", autoclusters},
      {"resource_requests", requests},
      {"autocluster_jobs_per_s", median(clustering)},
      {"offer_sort_jobs_per_s", median(sorting)},
      {"runs", kRuns},
  };
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}
