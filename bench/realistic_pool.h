// A pool as a site has it (issue 30, section 2), generated from a seed:
// machines of 24-64 cores, 95 % partitionable with a consumption policy and
// carved into busy dynamic slots, the rest static single-core slots; about
// 65 attributes per slot ad, most of them different per machine (memory per
// core, disk, CPU model, site and rack, HasDocker, KFlops, LoadAvg); START
// and RANK that read job attributes; idle jobs from many submitters in
// groups three levels deep, RequestCpus 1-8, varied Requirements,
// concurrency limits and some ceilings. Scaled by the number of cores:
// 100,000 cores give about 2,100 machines, 200,000 idle jobs from 500
// submitters in 45 groups and 3,000 autoclusters.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/accounting/accountant.h"
#include "model/accounting/group_tree.h"
#include "model/classad/classad.h"
#include "model/config/config.h"
#include "model/negotiation/cycle_types.h"
#include "model/negotiation/negotiator_policy.h"

namespace cara::bench {

struct RealisticShape {
  int cores = 100000;
  int autoclusters = 3000;
  std::int64_t idle_jobs = 200000;
  int submitters = 500;
  // The shape HTCondor sites report, scaled linearly from 100,000 cores.
  static RealisticShape scaled(int cores);
};

// A negotiator's inputs for one synthetic cycle: its configuration and
// what it reads from it, the slot ads, and the requests (one job ad per
// autocluster).
struct BenchPool {
  config::Config config;
  negotiation::NegotiatorPolicy policy;
  std::unique_ptr<accounting::Accountant> accountant;
  std::optional<accounting::GroupTree> groups;
  std::vector<classad::ClassAd> slots;
  std::vector<classad::ClassAd> jobs;  // one per autocluster
  std::vector<negotiation::SubmitterRequests> submitters;
};

// The ad `text` (new syntax); exits naming `program` when it does not parse.
classad::ClassAd parse_ad(const std::string& text, const char* program);

// A BenchPool with the negotiator's policy, accountant (at `now`) and
// group tree read from `config_text`; exits naming `program` when the text
// does not read.
std::unique_ptr<BenchPool> bench_pool(const std::string& config_text, std::int64_t now, const char* program);

struct RealisticPool {
  std::unique_ptr<BenchPool> pool;
  int machines = 0;
  int cores = 0;
  int busy_cores = 0;
  int groups = 0;
};

// `extra_config` is appended to the pool's negotiator configuration
// (NEGOTIATOR_CONSIDER_PREEMPTION = False, ...). Same shape and seed, same
// pool.
RealisticPool realistic_pool(const RealisticShape& shape, unsigned seed,
                             const std::string& extra_config = "");

}  // namespace cara::bench
