// Turns a submit description into job ads, as condor_submit does: each
// queue statement makes jobs with the commands given so far, macros
// expanded per job ($(Cluster), $(ClusterId), $(Process), $(ProcId),
// $(Item) and the queue's own variables, $(Step), $(Row), and the
// function macros $INT, $REAL, $F..., shared with the configuration
// language).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/classad/classad.h"
#include "model/common/result.h"
#include "model/schedd/job_arguments.h"
#include "model/schedd/submit_description.h"

namespace cara::config {
class Config;
class ConfigHost;
}  // namespace cara::config

namespace cara::schedd {

// Told as jobs are built: how many are, of how many.
using BuildProgress = std::function<void(std::int64_t built, std::int64_t total)>;

struct SubmitContext {
  std::string owner;       // the submitting user
  std::string uid_domain;  // User = owner@uid_domain
  std::string iwd;         // the submitter's current directory
  std::int64_t now = 0;    // QDate
  std::int64_t cluster_id = 1;
  std::string label = "submit file";                             // names the file in errors
  const config::Config* config = nullptr;                        // JOB_DEFAULT_REQUEST*, ARCH, OPSYS
  const config::ConfigHost* files = nullptr;                     // for `queue ... from file` and `matching`
  std::uint64_t random_seed = 1;                                 // $RANDOM_INTEGER, $RANDOM_CHOICE
  std::vector<std::pair<std::string, std::string>> environment;  // getenv, and $ENV(NAME)
  // MAX_JOBS_PER_SUBMISSION: a description that would make more jobs is
  // refused before they are made (a schedd must not be made to build a
  // hundred million ads). 0: no limit.
  std::int64_t max_jobs = 0;
  // Told as jobs are built (jobs built, of how many): about a hundred
  // times, and when the last is built. Empty: not told.
  BuildProgress progress;
};

// The job ads, ProcId 0, 1, ... Errors name the line.
Result<std::vector<classad::ClassAd>> build_jobs(const SubmitDescription& description,
                                                 const SubmitContext& context);

// The first job's executable as build_jobs would set its Cmd (a relative
// path in the job's Iwd), without building the job's ad: what
// condor_submit checks as the submitting user before it sends the
// description. nullopt when the description makes no job.
Result<std::optional<std::string>> first_job_command(const SubmitDescription& description,
                                                     const SubmitContext& context);

// A memory or disk request with an optional unit (K, M, G, T, with or
// without B; "2GB", "512 M"): the amount in `base` units (1024 for MiB,
// 1 for KiB), rounded up; nullopt when `text` is not a number with a unit.
std::optional<std::int64_t> size_in_units(std::string_view text, double base_kib);

}  // namespace cara::schedd
