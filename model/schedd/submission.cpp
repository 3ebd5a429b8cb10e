#include "model/schedd/submission.h"

#include "model/config/config.h"
#include "model/schedd/job_builder.h"
#include "model/schedd/submit_description.h"

namespace cara::schedd {

Result<std::vector<classad::ClassAd>> build_submission(const JobQueue& queue, const Submission& submission,
                                                       const SubmitSite& site, std::int64_t now,
                                                       const BuildProgress& progress) {
  return build_submission(queue.next_cluster_id(), submission, site, now, progress);
}

namespace {

// The description parsed and the context its jobs are built in, for
// cluster `cluster`.
struct Prepared {
  SubmitDescription description;
  SubmitContext ctx;
};
Result<Prepared> prepare(std::int64_t cluster, const Submission& submission, const SubmitSite& site,
                         std::int64_t now, const BuildProgress& progress) {
  const std::string label = submission.label.empty() ? "submit description" : submission.label;
  auto description = parse_submit(submission.description, label, submission.appends, submission.queue);
  if (!description) return Error{description.error()};
  Prepared p{std::move(*description), {}};
  SubmitContext& ctx = p.ctx;
  ctx.owner = submission.owner;
  ctx.uid_domain = site.uid_domain;
  ctx.iwd = submission.iwd;
  ctx.now = now;
  ctx.cluster_id = cluster;
  ctx.label = label;
  ctx.config = site.config;
  ctx.files = site.files;
  ctx.random_seed = site.random_seed;
  ctx.environment = submission.environment;
  ctx.progress = progress;
  if (site.config) {
    auto max = site.config->integer("MAX_JOBS_PER_SUBMISSION");
    if (!max) return Error{max.error()};
    ctx.max_jobs = *max;
  }
  return p;
}

}  // namespace

Result<std::vector<classad::ClassAd>> build_submission(std::int64_t cluster, const Submission& submission,
                                                       const SubmitSite& site, std::int64_t now,
                                                       const BuildProgress& progress) {
  auto prepared = prepare(cluster, submission, site, now, progress);
  if (!prepared) return Error{prepared.error()};
  return build_jobs(prepared->description, prepared->ctx);
}

Result<std::optional<std::string>> first_submission_command(std::int64_t cluster,
                                                            const Submission& submission,
                                                            const SubmitSite& site) {
  auto prepared = prepare(cluster, submission, site, 0, {});
  if (!prepared) return Error{prepared.error()};
  return first_job_command(prepared->description, prepared->ctx);
}

SubmitOutcome submit_description(JobQueue& queue, const Submission& submission, const SubmitSite& site,
                                 std::int64_t now, const BuildProgress& progress) {
  auto jobs = build_submission(queue, submission, site, now, progress);
  if (!jobs) return SubmitOutcome{std::nullopt, false, jobs.error()};
  auto queued = queue.submit(std::move(*jobs), now);
  if (!queued) return SubmitOutcome{std::nullopt, true, queued.error()};
  return SubmitOutcome{std::move(*queued), false, {}};
}

}  // namespace cara::schedd
