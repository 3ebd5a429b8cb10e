// cara rm, hold and release without a schedd
// (apps/commands/job_action_view.h): targets, constraints and HTCondor's
// words for what was done.
#include "apps/commands/job_action_view.h"

#include <catch2/catch.hpp>

using namespace cara;
using namespace cara::apps;
using cara::schedd::JobAction;

TEST_CASE("cara rm/hold/release: what the command line names", "[actions]") {
  auto a =
      parse_action_args({"5.0", "7", "bob", "-constraint", "JobPrio < 0", "-all", "-reason", "disk full"});
  REQUIRE(a);
  REQUIRE(a->targets.size() == 5);
  CHECK(a->targets[0].kind == ActionTarget::Kind::Job);
  CHECK(a->targets[0].constraint == "ClusterId == 5 && ProcId == 0");
  CHECK(a->targets[1].constraint == "ClusterId == 7");
  CHECK(a->targets[2].constraint == "Owner == \"bob\"");
  CHECK(a->targets[3].constraint == "JobPrio < 0");
  CHECK(a->targets[4].kind == ActionTarget::Kind::All);
  CHECK(a->reason == "disk full");
  CHECK(parse_action_args({}).error() ==
        "name the jobs: a job (5.0), a cluster (5), a user, -constraint EXPR or -all");
  CHECK_FALSE(parse_action_args({"-constraint", "a =="}));
  CHECK(parse_action_args({"-reason"}).error() == "-reason expects a reason, in quotes");
  CHECK(parse_action_args({"-x"}).error() == "unknown option -x");
}

TEST_CASE("cara rm/hold/release say what was done in HTCondor's words", "[actions]") {
  auto target = [](const std::string& text) { return parse_action_args({text})->targets[0]; };
  auto said = [](const ActionOutcome& o) { return o.said; };
  CHECK(said(describe_action(JobAction::Remove, target("5.0"), {"5.0"}, {})) ==
        std::vector<std::string>{"Job 5.0 marked for removal"});
  CHECK(said(describe_action(JobAction::Hold, target("5"), {"5.0", "5.1"}, {})) ==
        std::vector<std::string>{"All jobs in cluster 5 have been held (2 jobs)"});
  CHECK(said(describe_action(JobAction::Release, target("bob"), {"5.0"}, {})) ==
        std::vector<std::string>{"All jobs of user \"bob\" have been released (1 job)"});
  auto c = parse_action_args({"-constraint", "JobPrio < 0"})->targets[0];
  CHECK(said(describe_action(JobAction::Hold, c, {"5.0"}, {})) ==
        std::vector<std::string>{"Jobs matching constraint (JobPrio < 0) have been held (1 job)"});

  // Failures: not found, and each job the schedd would not change.
  ActionOutcome missing = describe_action(JobAction::Hold, target("9.0"), {}, {});
  CHECK(missing.failed == std::vector<std::string>{"Job 9.0 not found"});
  CHECK(describe_action(JobAction::Remove, target("9"), {}, {}).failed ==
        std::vector<std::string>{"Couldn't find/remove all jobs in cluster 9: none matched"});
  ActionOutcome refused =
      describe_action(JobAction::Release, target("5"), {"5.0"},
                      {"5.1: job 5.1 is Idle; release applies only to a job that is Held"});
  CHECK(refused.said == std::vector<std::string>{"All jobs in cluster 5 have been released (1 job)"});
  CHECK(refused.failed ==
        std::vector<std::string>{
            "Job 5.1 not released: job 5.1 is Idle; release applies only to a job that is Held"});
}
