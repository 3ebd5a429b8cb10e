// One submission, from a submit description to queued jobs, as
// condor_submit and the schedd do it together: parse the description
// (with -append lines and a -queue override), build the jobs of the next
// cluster, then queue them through the queue's policy (transforms, submit
// requirements). The schedd actor and `cara submit -dry-run` both call
// submit_description(): whatever one admits, the other admits the same.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/common/result.h"
#include "model/schedd/job_builder.h"
#include "model/schedd/job_queue.h"

namespace cara::config {
class Config;
class ConfigHost;
}  // namespace cara::config

namespace cara::schedd {

// What the submitter sends.
struct Submission {
  std::string description;           // the submit file's text
  std::string label;                 // its name in errors; "submit description" when empty
  std::vector<std::string> appends;  // condor_submit -append lines
  std::string queue;                 // condor_submit -queue: replaces the queue statement
  std::string owner;                 // the submitting user, as the access point verified it
  std::string iwd;                   // the submitter's current directory
  std::vector<std::pair<std::string, std::string>> environment;  // getenv, and $ENV(NAME)
};

// What the schedd adds: its UID_DOMAIN (User = Owner@UID_DOMAIN), its
// configuration (JOB_DEFAULT_REQUEST*, ARCH, OPSYS) and the files that
// `queue ... from` reads.
struct SubmitSite {
  std::string uid_domain;
  const config::Config* config = nullptr;
  const config::ConfigHost* files = nullptr;
  // What $RANDOM_INTEGER and $RANDOM_CHOICE in the description draw from:
  // a schedd's entropy, a simulation's seeded sequence.
  std::uint64_t random_seed = 1;
};

// The jobs of `submission`, built for the queue's next cluster: a
// description that does not parse or build is refused here, before the
// queue's policy (transforms, submit requirements) sees it.
// `progress`, when given, is told as the jobs are built.
Result<std::vector<classad::ClassAd>> build_submission(const JobQueue& queue, const Submission& submission,
                                                       const SubmitSite& site, std::int64_t now,
                                                       const BuildProgress& progress = {});
// The same for cluster `cluster`, with no queue (condor_submit's own
// checks of a description, made before it is sent).
Result<std::vector<classad::ClassAd>> build_submission(std::int64_t cluster, const Submission& submission,
                                                       const SubmitSite& site, std::int64_t now,
                                                       const BuildProgress& progress = {});

// The first job's executable path (its Cmd) for cluster `cluster`, without
// building any job ad: condor_submit's check that it exists and may be
// run, made by the client as the submitting user. nullopt when the
// description makes no job; an error when it does not parse or expand.
Result<std::optional<std::string>> first_submission_command(std::int64_t cluster,
                                                            const Submission& submission,
                                                            const SubmitSite& site);

// A submission's outcome, saying where a refusal came from: its
// description, or the queue's policy when it was to be committed
// (condor_submit's "Failed to commit job submission into the queue").
struct SubmitOutcome {
  std::optional<SubmitResult> submitted;  // none: refused
  bool at_commit = false;
  std::string error;
  explicit operator bool() const { return submitted.has_value(); }
};
// Queues the jobs of `submission` as cluster queue.next_cluster_id() at
// `now`, or says why not (the queue is then unchanged).
SubmitOutcome submit_description(JobQueue& queue, const Submission& submission, const SubmitSite& site,
                                 std::int64_t now, const BuildProgress& progress = {});

}  // namespace cara::schedd
