#include "model/schedd/submission.h"

#include "model/schedd/job_builder.h"
#include "model/schedd/submit_description.h"

namespace cara::schedd {

Result<SubmitResult> submit_description(JobQueue& queue, const Submission& submission, const SubmitSite& site,
                                        std::int64_t now) {
  const std::string label = submission.label.empty() ? "submit description" : submission.label;
  auto description = parse_submit(submission.description, label, submission.appends, submission.queue);
  if (!description) return Error{description.error()};
  SubmitContext ctx;
  ctx.owner = submission.owner;
  ctx.uid_domain = site.uid_domain;
  ctx.iwd = submission.iwd;
  ctx.now = now;
  ctx.cluster_id = queue.next_cluster_id();
  ctx.label = label;
  ctx.config = site.config;
  ctx.files = site.files;
  ctx.environment = submission.environment;
  auto jobs = build_jobs(*description, ctx);
  if (!jobs) return Error{jobs.error()};
  return queue.submit(std::move(*jobs), now);
}

}  // namespace cara::schedd
