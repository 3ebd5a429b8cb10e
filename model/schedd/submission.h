// One submission, from a submit description to queued jobs, as
// condor_submit and the schedd do it together: parse the description
// (with -append lines and a -queue override), build the jobs of the next
// cluster, then queue them through the queue's policy (transforms, submit
// requirements). The schedd actor and `cara submit -dry-run` both call
// submit_description(): whatever one admits, the other admits the same.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/common/result.h"
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
  std::vector<std::pair<std::string, std::string>> environment;  // for getenv
};

// What the schedd adds: its UID_DOMAIN (User = Owner@UID_DOMAIN), its
// configuration (JOB_DEFAULT_REQUEST*, ARCH, OPSYS) and the files that
// `queue ... from` reads.
struct SubmitSite {
  std::string uid_domain;
  const config::Config* config = nullptr;
  const config::ConfigHost* files = nullptr;
};

// Queues the jobs of `submission` as cluster queue.next_cluster_id() at
// `now`, or says why not (the queue is then unchanged).
Result<SubmitResult> submit_description(JobQueue& queue, const Submission& submission, const SubmitSite& site,
                                        std::int64_t now);

}  // namespace cara::schedd
