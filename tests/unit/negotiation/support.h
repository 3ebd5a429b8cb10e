// Fixtures for negotiation-cycle tests: a negotiator configuration, slot
// and job ads written as new-syntax ClassAds, and one cycle run on them.
#pragma once

#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/accounting/accountant.h"
#include "model/accounting/group_tree.h"
#include "model/classad/parser.h"
#include "model/config/config.h"
#include "model/config/config_host.h"
#include "model/negotiation/negotiation_cycle.h"

namespace cara::test {

constexpr std::int64_t kNow = 1700000000;

inline config::Config negotiator_config(const std::string& text) {
  auto c = config::config_from_text("UID_DOMAIN = example.org\n" + text, {"NEGOTIATOR", ""},
                                    std::make_shared<config::MemoryHost>());
  if (!c) FAIL(c.error());
  return *c;
}

inline classad::ClassAd ad(const std::string& text) {
  auto a = classad::parse_classad(text);
  if (!a) FAIL(a.error() << " in " << text);
  return *a;
}

// An idle static slot `name` with `cpus` cores and extra attributes.
inline classad::ClassAd slot(const std::string& name, const std::string& extra = "", int cpus = 1) {
  return ad(
      "[Name = \"" + name + "\"; Machine = \"" + name.substr(name.find('@') + 1) +
      "\"; MyType = \"Machine\"; State = \"Unclaimed\"; Activity = \"Idle\"; Cpus = " + std::to_string(cpus) +
      "; Memory = 2048; Disk = 100000; SlotWeight = Cpus; Requirements = true; Rank = 0; " + extra + "]");
}

// A slot running `user`'s job at CurrentRank `rank`.
inline classad::ClassAd busy_slot(const std::string& name, const std::string& user,
                                  const std::string& extra = "", double rank = 0) {
  return slot(name, "State = \"Claimed\"; Activity = \"Busy\"; RemoteUser = \"" + user +
                        "\"; RemoteOwner = \"" + user + "\"; CurrentRank = " + std::to_string(rank) + "; " +
                        extra);
}

inline classad::ClassAd job(const std::string& extra = "") {
  return ad("[MyType = \"Job\"; RequestCpus = 1; RequestMemory = 1024; Requirements = true; " + extra + "]");
}

// A cycle over one configuration: owns the accountant and the ads.
struct Pool {
  explicit Pool(const std::string& config_text)
      : config(negotiator_config(config_text)),
        accountant(*accounting::AccountantConfig::from_config(config), kNow) {
    auto p = negotiation::NegotiatorPolicy::from_config(config);
    if (!p) FAIL(p.error());
    policy = std::move(*p);
    if (!config.list("GROUP_NAMES")->empty()) {
      auto t = accounting::GroupTree::from_config(config);
      if (!t) FAIL(t.error());
      groups = std::move(*t);
    }
  }

  // `count` jobs alike for `submitter`, ids "<cluster>.<i>".
  void submit(const std::string& submitter, int cluster, std::int64_t count, const std::string& extra = "") {
    jobs.push_back(std::make_unique<classad::ClassAd>(job(extra)));
    negotiation::Request r;
    r.job = jobs.back().get();
    r.count = count;
    for (std::int64_t i = 0; i < count; ++i) r.job_ids.push_back(schedd::JobId{cluster, i});
    for (auto& s : submitters) {
      if (s.name == submitter) {
        s.requests.push_back(std::move(r));
        return;
      }
    }
    submitters.push_back({submitter, {std::move(r)}});
  }

  // `threads` > 0: that many threads for the per-slot phases, splitting
  // however small the pool (else the policy's NEGOTIATOR_THREADS).
  // With a `memo`, what earlier cycles learnt of unchanged slot ads.
  negotiation::CycleResult run(bool classes = true, bool prefilter = true, int threads = 0,
                               negotiation::SlotMemo* memo = nullptr, std::int64_t now = kNow) {
    classad::EvalEnv env;
    env.now = now;
    negotiation::NegotiationCycle cycle(policy, accountant, groups, env);
    cycle.set_slot_classes(classes);
    cycle.set_prefilter(prefilter);
    cycle.set_memo(memo);
    if (threads > 0) cycle.set_threads(threads, 1);
    return cycle.run(slots, submitters);
  }

  config::Config config;
  accounting::Accountant accountant;
  negotiation::NegotiatorPolicy policy;
  std::optional<accounting::GroupTree> groups;
  std::vector<classad::ClassAd> slots;
  std::vector<std::unique_ptr<classad::ClassAd>> jobs;
  std::vector<negotiation::SubmitterRequests> submitters;
};

// `n` idle slots slot1@host ... slotN@host.
inline void idle_slots(Pool& p, int n, const std::string& host = "host") {
  for (int i = 1; i <= n; ++i) p.slots.push_back(slot("slot" + std::to_string(i) + "@" + host));
}

// Matches per submitter.
inline std::map<std::string, int> per_submitter(const negotiation::CycleResult& r) {
  std::map<std::string, int> out;
  for (const auto& m : r.matches) ++out[m.submitter];
  return out;
}

// Matches per accounting group.
inline std::map<std::string, int> per_group(const negotiation::CycleResult& r) {
  std::map<std::string, int> out;
  for (const auto& m : r.matches) ++out[m.group];
  return out;
}

}  // namespace cara::test
