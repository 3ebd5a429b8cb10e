// The defrag daemon's model over real startd models in virtual time: the
// same code the pool runs (model/defrag, model/startd), a poll every
// DEFRAG_INTERVAL, each order carried out as the startd actor carries it
// out, jobs that leave when evicted. It must drain the right machines (the
// cheapest by the default DEFRAG_RANK) at the right rate, within the
// limits, and the machines must come back whole.
#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/startd/startd.h"
#include "tests/unit/defrag/support.h"
#include "tests/unit/startd/support.h"

using namespace cara;
using namespace cara::defrag;
using namespace cara::defrag::test;

namespace {

struct Node {
  std::string host;
  std::unique_ptr<startd::Startd> startd;
};

// An evicted job leaves at once: every kill a step asks for is answered
// by the job's exit, until the machine asks for nothing more.
void evicted_jobs_leave(startd::Startd& s, startd::StartdResult r, std::int64_t now) {
  for (std::size_t i = 0; i < r.actions.size(); ++i) {
    const startd::StartdAction& a = r.actions[i];
    if (a.action.kind != startd::ActionKind::SoftKill && a.action.kind != startd::ActionKind::HardKill)
      continue;
    startd::StartdResult more = s.deliver(a.slot, startd::JobExited{a.action.claim_id}, now);
    r.actions.insert(r.actions.end(), more.actions.begin(), more.actions.end());
  }
}

// Eight-core execution points with one partitionable slot; node<k> runs k
// one-core jobs, started with the pool (node1 is the cheapest to drain).
// A job may retire until 10,000 s after it started.
std::vector<Node> pool_of(int n, std::int64_t now) {
  std::vector<Node> nodes;
  for (int k = 1; k <= n; ++k) {
    Node node{"node" + std::to_string(k) + ".test", nullptr};
    config::Config c = startd::test::startd_config("FULL_HOSTNAME = " + node.host +
                                                       "\nSTART = True\nSUSPEND = False\nPREEMPT = False\n"
                                                       "MAXJOBRETIREMENTTIME = 10000\nWANT_VACATE = False\n",
                                                   startd::test::machine_host(8, 16000));
    auto s = startd::Startd::create(c, now);
    if (!s) FAIL(s.error());
    node.startd = std::move(*s);
    classad::ClassAd started;
    started.set("DaemonStartTime", now);
    node.startd->set_machine_attributes(started);
    for (int j = 0; j < k; ++j) {
      const std::string id = "c" + std::to_string(k) + "." + std::to_string(j);
      auto job =
          *classad::parse_classad("[ Owner = \"u\"; RequestCpus = 1; RequestMemory = 100; RequestDisk = 1 ]");
      startd::StartdResult r = node.startd->deliver("slot1", startd::ClaimRequest{id, job, false, {}}, now);
      std::string where;
      for (const auto& a : r.actions)
        if (a.action.kind == startd::ActionKind::AcceptClaim) where = a.slot;
      REQUIRE(!where.empty());
      node.startd->deliver(where, startd::Activate{id, job}, now);
    }
    nodes.push_back(std::move(node));
  }
  return nodes;
}

// The slot ads as the collector has them at `now`.
std::vector<classad::ClassAd> collected(const std::vector<Node>& nodes, std::int64_t now) {
  std::vector<classad::ClassAd> ads;
  for (const Node& n : nodes) {
    for (const std::string& name : n.startd->slot_names()) {
      classad::ClassAd a = n.startd->slot(name)->ad();
      a.set("LastHeardFrom", now);
      ads.push_back(std::move(a));
    }
  }
  return ads;
}

bool whole(const Node& n) {
  const classad::ClassAd& a = n.startd->slot("slot1")->ad();
  return classad::evaluate_attr(a, "Cpus").as_int() == 8;
}

}  // namespace

TEST_CASE("defrag drains the cheapest machines, one an hour, one at a time, until three are whole",
          "[defrag][sim]") {
  const std::int64_t t0 = kMidnight + 120;
  std::vector<Node> nodes = pool_of(5, t0);
  Defrag d(policy("DEFRAG_DRAINING_MACHINES_PER_HOUR = 1\nDEFRAG_MAX_CONCURRENT_DRAINING = 1\n"
                  "DEFRAG_MAX_WHOLE_MACHINES = 3\n"),
           t0, 7);
  std::vector<std::pair<std::int64_t, std::string>> drains;  // when, which
  for (std::int64_t now = t0; now <= t0 + 10 * 3600; now += 60) {
    // The machines move on (retirement runs out, evicted jobs leave).
    for (Node& n : nodes) evicted_jobs_leave(*n.startd, n.startd->tick(now), now);
    if ((now - t0) % 600 != 0) continue;
    const std::vector<classad::ClassAd> ads = collected(nodes, now);
    const DefragPoll p = d.poll(ads, now);
    for (const DefragOrder& o : p.orders) {
      REQUIRE_FALSE(o.cancel);  // a drain resumes by itself once done: nothing to cancel
      for (Node& n : nodes) {
        if (n.host != o.machine) continue;
        const DefragPolicy& pol = d.policy();
        startd::DrainOrder order{pol.schedule, nullptr, pol.drain_reason(), true};
        evicted_jobs_leave(*n.startd, n.startd->drain(order, now), now);
        d.answered(o, true, now);
        drains.emplace_back(now, n.host);
      }
    }
  }
  // One an hour (at the first poll of an hour), never two at once: node1's
  // drain waits for its job's retirement (until 2 h 47 min), so the second
  // hour starts none; later drains find retirement spent and end at once.
  // After three whole machines, no more.
  REQUIRE(drains.size() == 3);
  CHECK(drains[0] == std::pair{kMidnight + 3600 + 120, std::string("node1.test")});
  CHECK(drains[1] == std::pair{kMidnight + 3 * 3600 + 120, std::string("node2.test")});
  CHECK(drains[2] == std::pair{kMidnight + 4 * 3600 + 120, std::string("node3.test")});
  CHECK(whole(nodes[0]));
  CHECK(whole(nodes[1]));
  CHECK(whole(nodes[2]));
  CHECK_FALSE(whole(nodes[3]));
  CHECK_FALSE(whole(nodes[4]));
  // Drained and back to work: Unclaimed, not draining, no DrainReason.
  const classad::ClassAd& back = nodes[0].startd->slot("slot1")->ad();
  CHECK(classad::evaluate_attr(back, "State").as_string() == "Unclaimed");
  CHECK_FALSE(classad::evaluate_attr(back, "Draining").as_bool());
  CHECK(classad::evaluate_attr(back, "DrainReason").is_undefined());
  // The drain's cost: node1's job was killed after 10,000 s of work (at
  // the next minute's tick: 10,020 cpu-seconds lost).
  CHECK(classad::evaluate_attr(back, "TotalMachineDrainingBadput").as_int() == 10020);
  const classad::ClassAd ad = d.ad(t0 + 10 * 3600);
  CHECK(classad::evaluate_attr(ad, "WholeMachines").as_int() == 3);
  CHECK(classad::evaluate_attr(ad, "DrainSuccesses").as_int() == 3);
  CHECK(classad::evaluate_attr(ad, "DrainedMachines").as_int() == 2);
  double badput = 0;
  classad::evaluate_attr(ad, "AvgDrainingBadput").number(badput);
  CHECK(badput > 0);
}
