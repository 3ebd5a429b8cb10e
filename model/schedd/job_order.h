// Which idle job of a submitter the schedd offers next, and which it
// skips (central-manager-configuration, "the condor_negotiator asks the
// condor_schedd for the next job"):
//   - JobPrio descending, then QDate (older first), then ClusterId and
//     ProcId;
//   - after a job finds no match, the rest of its cluster is skipped for
//     the cycle (the jobs of a cluster are usually alike), unless
//     NEGOTIATE_ALL_JOBS_IN_CLUSTER. A cluster is the jobs sharing a
//     ClusterId, or, once SIGNIFICANT_ATTRIBUTES is configured, an
//     autocluster.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "model/classad/classad.h"
#include "model/schedd/job_status.h"

namespace cara::schedd {

struct JobOrderKey {
  std::int64_t prio = 0;
  std::int64_t qdate = 0;
  JobId id;
};
JobOrderKey job_order_key(const classad::ClassAd& job);

// True when `a` is offered before `b`.
bool offered_before(const JobOrderKey& a, const JobOrderKey& b);

// Sorts `jobs` into offer order.
void sort_for_offer(std::vector<const classad::ClassAd*>& jobs);

// The submitter a job negotiates as: its AccountingGroup
// ("group.user") joined to the UID domain of User, else User itself.
std::string submitter_name(const classad::ClassAd& job);

// Walks a submitter's idle jobs in offer order for one negotiation cycle.
class IdleJobCursor {
 public:
  enum class ClusterBy { ClusterId, Autocluster };
  // `jobs` in offer order; `autoclusters[i]` is the autocluster of
  // jobs[i] (only read with ClusterBy::Autocluster).
  IdleJobCursor(std::vector<const classad::ClassAd*> jobs, std::vector<int> autoclusters, ClusterBy by,
                bool negotiate_all_jobs_in_cluster);

  // The next job to offer, or null when none is left.
  const classad::ClassAd* next();
  // The job last returned found no match.
  void no_match();
  std::size_t skipped() const { return skipped_; }

 private:
  std::int64_t cluster_of(std::size_t i) const;

  std::vector<const classad::ClassAd*> jobs_;
  std::vector<int> autoclusters_;
  ClusterBy by_;
  bool negotiate_all_;
  std::size_t pos_ = 0;
  std::size_t skipped_ = 0;
  std::set<std::int64_t> rejected_;
};

}  // namespace cara::schedd
