// The harness of the schedd claim tables (schedd_claims_test.cpp): a
// queue of three idle jobs of alice with the claim model over it, the
// events that bring it to a state, actions as short lines, and a row
// runner.
#pragma once

#include <catch2/catch.hpp>
#include <functional>

#include "model/claim/schedd_claims.h"
#include "model/classad/parser.h"
#include "unit/schedd/support.h"

namespace cara::claim_test {

using namespace cara;
using namespace cara::claim;
using namespace cara::schedd_test;

inline constexpr SlotRef kSlot = 1, kOther = 2, kDynamic = 3;

inline classad::ClassAd ad(const std::string& text) {
  return *classad::parse_classad(text);
}

inline const classad::ClassAd kSlotAd = ad(
    "[ Name = \"slot1@ep\"; Requirements = true; Cpus = 1; Memory = 1024; Disk = 100000; Arch = \"X86_64\"; "
    "OpSys = \"LINUX\" ]");

// A queue with three idle jobs of alice (1.0, 1.1, 1.2) and the claims over it.
struct Harness : Submit {
  std::optional<schedd::JobQueue> queue;
  std::optional<ScheddClaims> claims;
  Harness() {
    auto p = schedd::QueuePolicy::from_config(*config, "ap.example.org");
    if (!p) FAIL(p.error());
    queue.emplace(std::move(*p), "<10.0.0.1:9618>");
    ctx.owner = "alice";
    auto jobs = this->jobs(kExe + "requirements = true\nqueue 3\n");
    REQUIRE(jobs);
    REQUIRE(queue->submit(std::move(*jobs), kT0));
    claims.emplace(*queue);
  }

  Offer offer(const std::string& id, std::vector<JobId> jobs = {{1, 0}}, SlotRef slot = kSlot) {
    Offer o;
    o.claim_id = id;
    o.submitter = "alice@physik.rwth-aachen.de";
    o.slot_name = "slot1@ep";
    o.slot_ad = kSlotAd;
    o.slot = slot;
    o.job_ids = std::move(jobs);
    return o;
  }
  Grant grant(SlotRef slot = kSlot) {
    Grant g;
    g.slot = slot;
    g.slot_name = "slot1";
    return g;
  }
  // Offered and granted: job 1.0 being activated on claim "c".
  void activating() {
    claims->offered(offer("c"));
    claims->granted("c", grant());
  }
  // ... and running.
  void running() {
    activating();
    claims->activated("c", {1, 0}, true, kT0 + 1);
  }
  // The schedd restarted from what its store holds (`edit` changes it
  // first): the same jobs, a new claim model.
  void restart(std::int64_t now, const std::function<void(std::vector<classad::ClassAd>&)>& edit = {}) {
    std::vector<classad::ClassAd> jobs;
    for (const auto& [id, job] : queue->jobs()) jobs.push_back(job);
    if (edit) edit(jobs);
    const std::int64_t next = queue->next_cluster_id();
    claims.reset();
    auto p = schedd::QueuePolicy::from_config(*config, "ap.example.org");
    REQUIRE(p);
    queue.emplace(std::move(*p), "<10.0.0.1:9618>");
    REQUIRE(queue->restore(std::move(jobs), next, now));
    claims.emplace(*queue);
  }
  std::string claim_of(schedd::JobId id) const {
    const classad::ClassAd* job = queue->find(id);
    auto c = job ? schedd::job_claim(*job) : std::nullopt;
    return c ? c->claim_id + " on " + c->slot : "none";
  }
  std::string status(schedd::JobId id) const {
    const classad::ClassAd* job = queue->find(id);
    return job ? attr(*job, "JobStatus") : "gone";
  }
};

// Actions as short lines: what a row expects.
inline std::vector<std::string> lines(const Outcome& out) {
  std::vector<std::string> v;
  for (const Action& a : out.actions) {
    if (auto* r = std::get_if<RequestClaim>(&a))
      v.push_back("claim " + r->claim_id + " slot " + std::to_string(r->slot) + " for " + r->job.str());
    else if (auto* x = std::get_if<Activate>(&a))
      v.push_back("activate " + x->claim_id + " slot " + std::to_string(x->slot) + " with " + x->job.str());
    else if (auto* x = std::get_if<Release>(&a))
      v.push_back("release " + x->claim_id + " slot " + std::to_string(x->slot) +
                  (x->at_once ? " at once" : ""));
    else if (auto* x = std::get_if<Watch>(&a))
      v.push_back("watch " + std::to_string(x->slot));
    else if (auto* x = std::get_if<Unwatch>(&a))
      v.push_back("unwatch " + std::to_string(x->slot));
    else if (auto* x = std::get_if<Reconnect>(&a))
      v.push_back("reconnect " + x->claim_id + " " + x->slot_name + " for " + x->job.str() +
                  (x->retry ? " (retry)" : ""));
    else if (auto* x = std::get_if<Note>(&a))
      v.push_back((x->warning ? "warning: " : "info: ") + x->text);
  }
  return v;
}

struct Row {
  std::string what;
  std::function<void(Harness&)> before;
  std::function<Outcome(Harness&)> event;
  std::vector<std::string> actions;
  std::string status_1_0;  // JobStatus of 1.0 after the event
  bool busy_1_0 = false;
  bool queue_changed = false;
  bool reschedule = false;
};

inline void run(const std::vector<Row>& rows) {
  for (const Row& row : rows) {
    SECTION(row.what) {
      Harness h;
      if (row.before) row.before(h);
      const Outcome out = row.event(h);
      CHECK(lines(out) == row.actions);
      CHECK(h.status({1, 0}) == row.status_1_0);
      CHECK(h.claims->busy({1, 0}) == row.busy_1_0);
      CHECK(out.queue_changed == row.queue_changed);
      CHECK(out.reschedule == row.reschedule);
    }
  }
}

}  // namespace cara::claim_test
