// The schedd's side of the claim protocol, table by table: each row is a
// state reached by earlier events, one event, the actions it must produce
// and what it must leave in the queue (model/claim/schedd_claims.h).
#include "model/claim/schedd_claims.h"

#include <catch2/catch.hpp>

#include "unit/claim/schedd_claims_harness.h"

using namespace cara;
using namespace cara::claim;
using namespace cara::schedd_test;
using namespace cara::claim_test;

TEST_CASE("a match is claimed for the next job it is for", "[claim][schedd]") {
  run({
      {"an idle job the match was made for: the slot is watched from the request on",
       nullptr,
       [](Harness& h) { return h.claims->offered(h.offer("c")); },
       {"watch 1", "claim c slot 1 for 1.0"},
       "1",
       true},
      {"its jobs are busy: the submitter's next idle job the slot takes",
       [](Harness& h) { h.claims->offered(h.offer("a")); },
       [](Harness& h) { return h.claims->offered(h.offer("c")); },
       {"claim c slot 1 for 1.1"},
       "1",
       true},
      {"no idle job left: nothing (the match times out at the slot)",
       [](Harness& h) {
         h.claims->offered(h.offer("a", {{1, 0}}));
         h.claims->offered(h.offer("b", {{1, 1}}));
         h.claims->offered(h.offer("d", {{1, 2}}));
       },
       [](Harness& h) { return h.claims->offered(h.offer("c")); },
       {},
       "1",
       true},
      {"a job no longer in the queue is passed over",
       nullptr,
       [](Harness& h) {
         return h.claims->offered(h.offer("c", {{9, 9}, {1, 2}}));
       },
       {"watch 1", "claim c slot 1 for 1.2"},
       "1"},
  });
}

TEST_CASE("the slot's answer to a claim", "[claim][schedd]") {
  run({
      {"granted: the job is activated",
       [](Harness& h) { h.claims->offered(h.offer("c")); },
       [](Harness& h) { return h.claims->granted("c", h.grant()); },
       {"activate c slot 1 with 1.0"},
       "1",
       true,
       true},  // the claim is recorded with the job before the activation goes out
      {"granted, the job no longer idle: the next one",
       [](Harness& h) {
         h.claims->offered(h.offer("c"));
         REQUIRE(h.queue->hold({1, 0}, "by the user", 1, 0, kT0));
       },
       [](Harness& h) { return h.claims->granted("c", h.grant()); },
       {"activate c slot 1 with 1.1"},
       "5",
       false,
       true},
      {"refused (or unreachable): the job is free again and a cycle is asked for",
       [](Harness& h) { h.claims->offered(h.offer("c")); },
       [](Harness& h) { return h.claims->refused("c"); },
       {"unwatch 1"},
       "1",
       false,
       false,
       true},
      {"granted with a leftover: the rest of the partitionable slot is claimed for the next job",
       [](Harness& h) { h.claims->offered(h.offer("c")); },
       [](Harness& h) {
         Grant g = h.grant(kDynamic);
         g.leftover_claim_id = "rest";
         g.leftover_ad = kSlotAd;
         return h.claims->granted("c", std::move(g));
       },
       {"watch 3", "activate c slot 3 with 1.0", "claim rest slot 1 for 1.1"},
       "1",
       true,
       true},
      {"granted late on the dynamic slot carved for it (pslot preemption): that slot is watched instead",
       [](Harness& h) { h.claims->offered(h.offer("c")); },
       [](Harness& h) { return h.claims->granted("c", h.grant(kDynamic)); },
       {"watch 3", "activate c slot 3 with 1.0", "unwatch 1"},
       "1",
       true,
       true},
      {"the slot's news of a claim not granted yet is not kept: the claim stays asked",
       [](Harness& h) { h.claims->offered(h.offer("c")); },
       [](Harness& h) { return h.claims->ended("c", "vacated", kT0); },
       {},
       "1",
       true},
  });
}

TEST_CASE("activation and the job's end", "[claim][schedd]") {
  run({
      {"activated: the job runs",
       [](Harness& h) { h.activating(); },
       [](Harness& h) {
         return h.claims->activated("c", {1, 0}, true, kT0 + 1);
       },
       {},
       "2",
       true,
       true},
      {"activation refused (CLAIM_WORKLIFE over): the claim goes back, the job waits",
       [](Harness& h) { h.activating(); },
       [](Harness& h) {
         return h.claims->activated("c", {1, 0}, false, kT0 + 1);
       },
       {"release c slot 1", "unwatch 1"},
       "1",
       false,
       true,  // the claim is no longer recorded with the job
       true},
      {"the answer comes after the job's exit: nothing more",
       [](Harness& h) {
         h.activating();
         h.claims->job_ended("c", JobEnd{false, 0, "", true, 0, {}}, kT0 + 2);
       },
       [](Harness& h) {
         return h.claims->activated("c", {1, 0}, true, kT0 + 1);
       },
       {},
       "1"},
      {"exited: completed, and the claim runs the next job",
       [](Harness& h) { h.running(); },
       [](Harness& h) {
         return h.claims->job_ended("c", JobEnd{false, 3, "", false, 0, {}}, kT0 + 5);
       },
       {"info: job 1.0 on slot1@ep: exited with code 3", "activate c slot 1 with 1.1"},
       "4",
       false,
       true},
      {"an exit that overtook the activation's answer: started, then completed",
       [](Harness& h) { h.activating(); },
       [](Harness& h) {
         return h.claims->job_ended("c", JobEnd{true, 9, "", false, 0, {}}, kT0 + 5);
       },
       {"info: job 1.0 on slot1@ep: killed by signal 9", "activate c slot 1 with 1.1"},
       "4",
       false,
       true},
      {"could not start: held with the starter's code",
       [](Harness& h) { h.running(); },
       [](Harness& h) {
         return h.claims->job_ended("c", JobEnd{false, 0, "no such file", false, 23, {}}, kT0 + 5);
       },
       {"info: job 1.0 on slot1@ep: held: no such file", "activate c slot 1 with 1.1"},
       "5",
       false,
       true},
      {"evicted: back to Idle, and the slot ends the claim",
       [](Harness& h) { h.running(); },
       [](Harness& h) {
         return h.claims->job_ended("c", JobEnd{false, 0, "", true, 0, {}}, kT0 + 5);
       },
       {"info: job 1.0 on slot1@ep: evicted"},
       "1",
       false,
       true},
      {"suspended",
       [](Harness& h) { h.running(); },
       [](Harness& h) { return h.claims->suspended("c", true, kT0 + 5); },
       {},
       "7",
       true,
       true},
  });
}

TEST_CASE("a claim lost: its job runs again", "[claim][schedd]") {
  run({
      {"the slot ended it",
       [](Harness& h) { h.running(); },
       [](Harness& h) { return h.claims->ended("c", "PREEMPT", kT0 + 5); },
       {"warning: claim on slot1@ep lost (the slot ended it: PREEMPT); job 1.0 runs again", "unwatch 1"},
       "1",
       false,
       true},
      {"the slot is gone, with every claim on it",
       [](Harness& h) {
         h.running();
         h.claims->offered(h.offer("d", {{1, 1}}, kOther));
         h.claims->granted("d", h.grant(kOther));
       },
       [](Harness& h) { return h.claims->slot_lost(kSlot, "node down", kT0 + 5); },
       {"warning: claim on slot1@ep lost (the slot is gone: node down); job 1.0 runs again", "unwatch 1"},
       "1",
       false,
       true},
      {"the slot is gone while a claim is asked of it: refused, the job free again",
       [](Harness& h) { h.claims->offered(h.offer("c")); },
       [](Harness& h) { return h.claims->slot_lost(kSlot, "node down", kT0 + 5); },
       {"unwatch 1"},
       "1",
       false,
       false,
       true},
      {"another slot's loss changes nothing",
       [](Harness& h) { h.running(); },
       [](Harness& h) { return h.claims->slot_lost(kOther, "node down", kT0 + 5); },
       {},
       "2",
       true},
  });
}

TEST_CASE("a job held or removed while a claim runs it leaves the slot at once", "[claim][schedd][actions]") {
  run({
      {"held while running: the claim is given back at once and the job keeps no claim",
       [](Harness& h) {
         h.running();
         REQUIRE(h.queue->hold({1, 0}, "via condor_hold", 1, 0, kT0 + 5));
       },
       [](Harness& h) {
         Outcome out = h.claims->stop_unwanted();
         CHECK(h.claim_of({1, 0}) == "none");
         return out;
       },
       {"info: job 1.0 on slot1@ep stopped: it is Held", "release c slot 1 at once", "unwatch 1"},
       "5",
       false,
       true},
      {"removed while being activated: the same",
       [](Harness& h) {
         h.activating();
         REQUIRE(h.queue->remove({1, 0}, "via condor_rm", kT0 + 5));
       },
       [](Harness& h) { return h.claims->stop_unwanted(); },
       {"info: job 1.0 on slot1@ep stopped: it is Removed", "release c slot 1 at once", "unwatch 1"},
       "3",
       false,
       true},
      {"nothing held or removed: nothing",
       [](Harness& h) { h.running(); },
       [](Harness& h) { return h.claims->stop_unwanted(); },
       {},
       "2",
       true},
      {"its end, told after, is not counted again",
       [](Harness& h) {
         h.running();
         REQUIRE(h.queue->hold({1, 0}, "via condor_hold", 1, 0, kT0 + 5));
         h.claims->stop_unwanted();
       },
       [](Harness& h) {
         return h.claims->job_ended("c", JobEnd{false, 0, "", true, 0, {}}, kT0 + 6);
       },
       {},
       "5"},
  });
}

TEST_CASE("a queue change that fails is said, with what it means", "[claim][schedd]") {
  run({
      {"the job was removed while it ran: its exit is not recorded",
       [](Harness& h) {
         h.running();
         REQUIRE(h.queue->remove({1, 0}, "by the user", kT0 + 2));
         h.queue->take_finished();
       },
       [](Harness& h) {
         return h.claims->job_ended("c", JobEnd{false, 0, "", false, 0, {}}, kT0 + 5);
       },
       {"warning: job 1.0 on slot1@ep: its exit not recorded: no job 1.0 in the queue",
        "info: job 1.0 on slot1@ep: exited with code 0", "activate c slot 1 with 1.1"},
       "gone",
       false,
       true},
      {"a job suspended twice",
       [](Harness& h) {
         h.running();
         h.claims->suspended("c", true, kT0 + 2);
       },
       [](Harness& h) { return h.claims->suspended("c", true, kT0 + 5); },
       {"warning: job 1.0 not marked suspended: job 1.0 is Suspended; suspending applies only to a job that "
        "is "
        "Running"},
       "7",
       true},
  });
}

TEST_CASE("a claim is reused until no job is left, then released", "[claim][schedd]") {
  Harness h;
  h.running();
  CHECK(lines(h.claims->job_ended("c", JobEnd{}, kT0 + 5)) ==
        std::vector<std::string>{"info: job 1.0 on slot1@ep: exited with code 0",
                                 "activate c slot 1 with 1.1"});
  h.claims->activated("c", {1, 1}, true, kT0 + 6);
  h.claims->job_ended("c", JobEnd{}, kT0 + 7);
  h.claims->activated("c", {1, 2}, true, kT0 + 8);
  CHECK(lines(h.claims->job_ended("c", JobEnd{}, kT0 + 9)) ==
        std::vector<std::string>{"info: job 1.2 on slot1@ep: exited with code 0", "release c slot 1",
                                 "unwatch 1"});
  CHECK(h.claims->held().empty());
}

TEST_CASE("a claim is recorded with its job from its activation to its end", "[claim][schedd][lease]") {
  Harness h;
  h.activating();
  CHECK(h.claim_of({1, 0}) == "c on slot1@ep");
  h.claims->activated("c", {1, 0}, true, kT0 + 1);
  CHECK(h.claim_of({1, 0}) == "c on slot1@ep");
  h.claims->job_ended("c", JobEnd{}, kT0 + 5);
  CHECK(h.claim_of({1, 0}) == "none");
  CHECK(h.claim_of({1, 1}) == "c on slot1@ep");  // the claim runs the next job
  h.claims->ended("c", "PREEMPT", kT0 + 6);
  CHECK(h.claim_of({1, 1}) == "none");
  // What leaves the queue for the history holds no claim.
  Harness r;
  r.running();
  REQUIRE(r.queue->remove({1, 0}, "by the user", kT0 + 2));
  auto finished = r.queue->take_finished();
  REQUIRE(finished.size() == 1);
  CHECK_FALSE(schedd::job_claim(finished[0]));
  CHECK_FALSE(schedd::has_private_attributes(schedd::public_view(*r.queue->find({1, 1}))));
}

TEST_CASE("a restarted schedd reconnects to the claims stored with its jobs", "[claim][schedd][lease]") {
  constexpr std::int64_t kRestart = kT0 + 100;
  // 1.0 running on claim "c" when the schedd stopped.
  auto restarted = [](Harness& h) {
    h.running();
    h.restart(kRestart);
    const Outcome out = h.claims->restored(kRestart);
    CHECK(lines(out) == std::vector<std::string>{"info: job 1.0: reconnecting to its claim on slot1@ep",
                                                 "reconnect c slot1@ep for 1.0"});
  };
  run({
      {"restored: the job stays running and busy until the slot answers",
       [](Harness& h) {
         h.running();
         h.restart(kRestart);
       },
       [](Harness& h) { return h.claims->restored(kRestart); },
       {"info: job 1.0: reconnecting to its claim on slot1@ep", "reconnect c slot1@ep for 1.0"},
       "2",
       true},
      {"the slot still runs it: the claim is held again and its slot watched",
       restarted,
       [](Harness& h) {
         return h.claims->reconnected("c", kOther, Reconnection::Running, kSlotAd, kRestart + 1);
       },
       {"watch 2", "info: job 1.0 on slot1@ep: reconnected to its claim"},
       "2",
       true,
       true},
      {"the slot suspended it meanwhile",
       restarted,
       [](Harness& h) {
         return h.claims->reconnected("c", kOther, Reconnection::Suspended, kSlotAd, kRestart + 1);
       },
       {"watch 2", "info: job 1.0 on slot1@ep: reconnected to its claim"},
       "7",
       true,
       true},
      {"the slot has no such claim: the job runs again",
       restarted,
       [](Harness& h) {
         return h.claims->reconnected("c", kOther, Reconnection::Gone, kSlotAd, kRestart + 1);
       },
       {"warning: job 1.0 runs again: its claim on slot1@ep is gone"},
       "1",
       false,
       true,
       true},
      {"the claim holds no job: the job runs again, and the claim runs the next idle job",
       restarted,
       [](Harness& h) {
         return h.claims->reconnected("c", kOther, Reconnection::Idle, kSlotAd, kRestart + 1);
       },
       {"watch 2", "warning: job 1.0 runs again: the claim on slot1@ep holds no job",
        "activate c slot 2 with 1.0"},
       "1",
       true,
       true,
       true},
      {"held while the slot was being asked: it leaves the slot at once",
       [&](Harness& h) {
         restarted(h);
         REQUIRE(h.queue->hold({1, 0}, "via condor_hold", 1, 0, kRestart + 1));
       },
       [](Harness& h) {
         return h.claims->reconnected("c", kOther, Reconnection::Running, kSlotAd, kRestart + 2);
       },
       {"watch 2", "info: job 1.0 on slot1@ep: reconnected to its claim",
        "info: job 1.0 on slot1@ep stopped: it is Held", "release c slot 2 at once", "unwatch 2"},
       "5",
       false,
       true},
      {"not reached yet: tried again while the lease lasts",
       restarted,
       [](Harness& h) { return h.claims->reconnect_failed("c", "no ad", kRestart + 2399); },
       {"reconnect c slot1@ep for 1.0 (retry)"},
       "2",
       true},
      {"not reached within the lease: the job runs again",
       restarted,
       [](Harness& h) { return h.claims->reconnect_failed("c", "no ad", kRestart + 2400); },
       {"warning: job 1.0 runs again: its lease ran out before slot1@ep could be reached (no ad)"},
       "1",
       false,
       true,
       true},
  });
}

TEST_CASE("a job that ended while its schedd was away is recorded once", "[claim][schedd][lease]") {
  Harness h;
  h.running();
  h.restart(kT0 + 100);
  h.claims->restored(kT0 + 100);
  CHECK(lines(h.claims->reconnected("c", kOther, Reconnection::Exited, kSlotAd, kT0 + 101)) ==
        std::vector<std::string>{"watch 2", "info: job 1.0 on slot1@ep: reconnected to its claim"});
  CHECK(h.status({1, 0}) == "2");
  CHECK(lines(h.claims->job_ended("c", JobEnd{false, 0, "", false, 0, {}}, kT0 + 102)) ==
        std::vector<std::string>{"info: job 1.0 on slot1@ep: exited with code 0",
                                 "activate c slot 2 with 1.1"});
  CHECK(h.status({1, 0}) == "4");
  // The slot telling it again (its answer was lost) changes nothing, though
  // the claim now runs 1.1.
  CHECK(lines(h.claims->job_ended("c", JobEnd{false, 0, "", false, 0, JobId{1, 0}}, kT0 + 103)).empty());
  CHECK(h.status({1, 1}) == "1");
  CHECK(h.status({1, 0}) == "4");
}

TEST_CASE("a job whose activation went out just before the schedd stopped", "[claim][schedd][lease]") {
  SECTION("the slot started it: it is marked running") {
    Harness h;
    h.activating();
    h.restart(kT0 + 100);
    CHECK(h.status({1, 0}) == "1");
    CHECK(lines(h.claims->restored(kT0 + 100)).size() == 2);
    CHECK(h.claims->busy({1, 0}));
    h.claims->reconnected("c", kOther, Reconnection::Running, kSlotAd, kT0 + 101);
    CHECK(h.status({1, 0}) == "2");
  }
  SECTION("it ended before the schedd heard: started, then completed") {
    Harness h;
    h.activating();
    h.restart(kT0 + 100);
    h.claims->restored(kT0 + 100);
    h.claims->reconnected("c", kOther, Reconnection::Exited, kSlotAd, kT0 + 101);
    CHECK(h.status({1, 0}) == "1");
    h.claims->job_ended("c", JobEnd{false, 0, "", false, 0, {}}, kT0 + 102);
    CHECK(h.status({1, 0}) == "4");
    CHECK(h.queue->find({1, 0})->find("JobCurrentStartDate"));
  }
}

TEST_CASE("a job without a lease loses its run with its schedd", "[claim][schedd][lease]") {
  Harness h;
  h.running();
  // JobLeaseDuration = 0: the execution point vacated it when the schedd died.
  h.restart(kT0 + 100, [](std::vector<classad::ClassAd>& jobs) { jobs[0].set("JobLeaseDuration", 0); });
  CHECK(lines(h.claims->restored(kT0 + 100)) ==
        std::vector<std::string>{
            "warning: job 1.0 runs again: it has no lease (JobLeaseDuration) to outlive the schedd"});
  CHECK(h.status({1, 0}) == "1");
  CHECK(h.claim_of({1, 0}) == "none");
  CHECK_FALSE(h.claims->busy({1, 0}));
}
