// Autoclusters: idle jobs that no slot or negotiator expression can tell
// apart are one resource request with a count, so the negotiator matches
// a class of jobs at once instead of job by job (central-manager-
// configuration, "SIGNIFICANT_ATTRIBUTES").
//
// The significant attributes of a job are
//   - SIGNIFICANT_ATTRIBUTES when configured; otherwise the job
//     attributes that slot expressions (START, Requirements, Rank) and
//     negotiator expressions (PREEMPTION_REQUIREMENTS, PREEMPTION_RANK,
//     NEGOTIATOR_PRE_JOB_RANK, NEGOTIATOR_POST_JOB_RANK) refer to;
//   - always: Requirements, Rank, JobUniverse, NiceUser,
//     ConcurrencyLimits, every Request* attribute, and the attributes of
//     the job that its own Requirements and Rank refer to.
// Two jobs share an autocluster when they have the same significant
// attributes, written the same way.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/expr.h"
#include "model/classad/references.h"
#include "model/schedd/job_status.h"

namespace cara::schedd {

class SignificantAttributes {
 public:
  // An explicit list (SIGNIFICANT_ATTRIBUTES).
  static SignificantAttributes from_list(const std::vector<std::string>& names);
  // The job attributes that `exprs` read; each expression is paired with
  // the ad it belongs to (a slot ad, or null for a negotiator expression
  // whose MY is the slot), so that an unscoped name the slot itself
  // defines is not taken for a job attribute.
  static SignificantAttributes from_expressions(
      const std::vector<std::pair<const classad::ExprTree*, const classad::ClassAd*>>& exprs);
  // from_expressions over the START, Requirements and Rank of `slots`.
  static SignificantAttributes from_slots(const std::vector<const classad::ClassAd*>& slots,
                                          const std::vector<const classad::ExprTree*>& negotiator_exprs);

  const classad::NameSet& names() const { return names_; }

 private:
  classad::NameSet names_;
};

struct ResourceRequest {
  int autocluster = 0;
  const classad::ClassAd* job = nullptr;  // the first job of the autocluster in offer order
  std::int64_t count = 0;                 // idle jobs in it
  std::vector<JobId> jobs;                // their ids, in offer order
};

class AutoclusterIndex {
 public:
  explicit AutoclusterIndex(SignificantAttributes significant);

  // The autocluster of `job`, made on first sight. Ids are small integers
  // from 0, stable for the life of the index.
  int assign(const classad::ClassAd& job);
  std::size_t size() const { return ids_.size(); }

  // The key two jobs share exactly when they are alike.
  std::string signature(const classad::ClassAd& job);

  // Groups `jobs` (idle, in offer order) into requests, in the order of
  // each autocluster's first job.
  std::vector<ResourceRequest> requests(const std::vector<const classad::ClassAd*>& jobs);

 private:
  const std::vector<std::string>& own_references(const classad::ClassAd& job);
  void append_value(std::string& out, const classad::Attribute& a);
  const std::string& compute(const classad::ClassAd& job);  // the signature, in scratch_

  SignificantAttributes significant_;
  std::vector<std::string> fixed_;  // significant_ plus the always-significant names, ordered
  std::vector<classad::Symbol> fixed_symbols_;
  std::unordered_map<std::string, int> ids_;
  // The attributes a job's Requirements/Rank refer to, by their trees
  // (jobs of one submission share them); the trees are kept alive here.
  struct Cached {
    classad::ExprPtr requirements, rank;
    std::vector<std::string> names;
  };
  using Key = std::pair<const void*, const void*>;
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      return std::hash<const void*>{}(k.first) * 31 + std::hash<const void*>{}(k.second);
    }
  };
  std::unordered_map<Key, Cached, KeyHash> references_;
  // The unparsed text of expression trees seen (kept alive here).
  std::unordered_map<const classad::ExprTree*, std::pair<classad::ExprPtr, std::string>> texts_;
  std::string scratch_;
  std::vector<std::string_view> extra_;
};

}  // namespace cara::schedd
