// Helpers for the defrag tests: a central manager's configuration, and a
// pool of partitionable slot ads the test drains by hand.
#pragma once

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "model/config/config.h"
#include "model/config/config_host.h"
#include "model/defrag/defrag.h"
#include "tests/support/ads.h"

namespace cara::defrag::test {

// 2026-11-16 00:00 UTC: a day and an hour begin.
inline constexpr std::int64_t kMidnight = 1794873600;

inline DefragPolicy policy(const std::string& text) {
  auto c = config::config_from_text("FULL_HOSTNAME = cm.test\n" + text, config::DaemonIdentity{"DEFRAG", ""},
                                    std::make_shared<config::MemoryHost>());
  if (!c) FAIL(c.error());
  auto p = DefragPolicy::from_config(*c);
  if (!p) FAIL(p.error());
  return *p;
}

inline Result<DefragPolicy> try_policy(const std::string& text) {
  auto c = config::config_from_text("FULL_HOSTNAME = cm.test\n" + text, config::DaemonIdentity{"DEFRAG", ""},
                                    std::make_shared<config::MemoryHost>());
  if (!c) return Error{c.error()};
  return DefragPolicy::from_config(*c);
}

// Machines of one partitionable slot each (slot1@<host>), by host; a drain
// order sets Draining and DrainReason, a cancellation takes them back.
struct SlotPool {
  std::vector<std::string> hosts;
  std::vector<classad::ClassAd> ads;

  // `free` of `total` cpus unclaimed; `extra` more attributes.
  void add(const std::string& host, int free, int total = 8, const std::string& extra = "") {
    hosts.push_back(host);
    ads.push_back(test_ads::ad("[ Name = \"slot1@" + host + "\"; Machine = \"" + host +
                               "\"; PartitionableSlot = true; SlotID = 1; Cpus = " + std::to_string(free) +
                               "; TotalSlotCpus = " + std::to_string(total) +
                               "; TotalCpus = " + std::to_string(total) + "; Draining = false" +
                               (extra.empty() ? "" : "; " + extra) + " ]"));
  }
  classad::ClassAd& of(const std::string& host) {
    for (std::size_t i = 0; i < hosts.size(); ++i)
      if (hosts[i] == host) return ads[i];
    FAIL("no machine " + host);
    return ads.front();
  }
  // Carries out the orders of `poll`; returns the hosts drained, in order.
  std::vector<std::string> apply(const DefragPoll& poll, const std::string& reason) {
    std::vector<std::string> drained;
    for (const DefragOrder& o : poll.orders) {
      classad::ClassAd& a = ads.at(o.ad);
      if (o.cancel) {
        a.set("Draining", false);
        a.erase("DrainReason");
      } else {
        a.set("Draining", true);
        a.set("DrainReason", reason);
        drained.push_back(o.machine);
      }
    }
    return drained;
  }
  // The machine has drained: all its cpus free; it resumes (drain over).
  void drained(const std::string& host) {
    classad::ClassAd& a = of(host);
    a.set("Cpus", static_cast<std::int64_t>(8));
    a.set("Draining", false);
    a.erase("DrainReason");
  }
};

inline std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

}  // namespace cara::defrag::test
