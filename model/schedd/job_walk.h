// The jobs a submit description makes, in ProcId order, before any ad is
// built: each queue statement's rows (a count, a list, the lines of a
// file, the files a pattern matches), the commands given so far, and the
// macros of each job ($(Cluster), $(Process), $(Step), $(Row), the
// queue's variables). build_jobs and first_job_command (job_builder.h)
// walk the same jobs.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "model/common/result.h"
#include "model/schedd/job_builder.h"
#include "model/schedd/submit_description.h"

namespace cara::config {
class Expander;
}  // namespace cara::config

namespace cara::schedd {

// Each job the description makes, in ProcId order: `planned` learns how
// many there will be before the first is made; `visit` gets each job's
// number, its commands and an expander of its macros, and stops the walk
// by returning false. build_jobs and first_job_command walk alike, so the
// first job that a client checks is the one the schedd builds.
using JobVisit =
    std::function<Result<bool>(std::int64_t proc, const std::vector<SubmitCommand>&, config::Expander&)>;
Status walk_jobs(const SubmitDescription& description, const SubmitContext& ctx,
                 const std::function<void(std::int64_t total)>& planned, const JobVisit& visit);

}  // namespace cara::schedd
