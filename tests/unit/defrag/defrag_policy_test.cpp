// The DEFRAG_* knobs (HTCondor's configuration reference, "condor_defrag
// Configuration File Macros"; central-manager-configuration,
// "Defragmenting Dynamic Slots").
#include "model/classad/unparse.h"
#include "tests/unit/defrag/support.h"

using namespace cara;
using namespace cara::defrag;
using namespace cara::defrag::test;

TEST_CASE("the draining rate splits into machines per poll, per hour and per day", "[defrag]") {
  struct Row {
    double per_hour;
    std::int64_t interval;
    int poll, hour, day;
  };
  const Row rows[] = {
      {1.0, 3600, 1, 0, 0},  // the spec's example at one poll an hour
      {1.0, 600, 0, 1, 0},   // ... at the default DEFRAG_INTERVAL: one at the top of each hour
      {6.0, 600, 1, 0, 0},   // one each poll
      {0.5, 600, 0, 0, 12},  // twelve a day
      {2.5, 600, 0, 2, 12},  // two an hour, twelve more a day
      {0.1, 600, 0, 0, 2},   // 2.4 a day rounds to 2
      {0.0, 600, 0, 0, 0},   // the default: no draining
      {30.0, 60, 0, 30, 0},  // half a machine a minute
      {1.0, 7200, 2, 0, 0},  // a poll longer than an hour has no hourly share
  };
  for (const Row& r : rows) {
    INFO(r.per_hour << "/hour, every " << r.interval << "s");
    const DrainRate got = split_rate(r.per_hour, r.interval);
    CHECK(got.per_poll == r.poll);
    CHECK(got.per_hour == r.hour);
    CHECK(got.per_day == r.day);
  }
}

TEST_CASE("the defrag policy's defaults are HTCondor's", "[defrag]") {
  const DefragPolicy p = policy("");
  CHECK(p.name == "cm.test");
  CHECK(p.drain_reason() == "Defrag cm.test");
  CHECK(p.interval == 600);
  CHECK(p.update_interval == 300);
  CHECK(p.machines_per_hour == 0);
  CHECK(p.max_concurrent_draining == -1);
  CHECK(p.max_whole_machines == -1);
  CHECK(p.schedule == startd::DrainSchedule::Graceful);
  CHECK(p.schedule_name == "graceful");
  CHECK_FALSE(p.requirements);
  REQUIRE(p.whole_machine);
  CHECK(classad::unparse(*p.whole_machine) == "Cpus == TotalSlotCpus");
  // DEFRAG_CANCEL_REQUIREMENTS defaults to DEFRAG_WHOLE_MACHINE_EXPR.
  REQUIRE(p.cancel_requirements);
  CHECK(classad::unparse(*p.cancel_requirements) == "Cpus == TotalSlotCpus");
  REQUIRE(p.rank);
  CHECK(classad::unparse(*p.rank) == "-ExpectedMachineGracefulDrainingBadput");
  CHECK(p.draining_start.empty());
}

TEST_CASE("the spec's example defrag configuration", "[defrag][spec]") {
  const DefragPolicy p = policy(
      "DAEMON_LIST = $(DAEMON_LIST) DEFRAG\nDEFRAG_INTERVAL = 3600\nDEFRAG_DRAINING_MACHINES_PER_HOUR = 1.0\n"
      "DEFRAG_MAX_WHOLE_MACHINES = 20\nDEFRAG_MAX_CONCURRENT_DRAINING = 10\n"
      "DEFRAG_SCHEDULE = quick\nDEFRAG_NAME = defrag1\n"
      "DEFRAG_DRAINING_START_EXPR = MaxJobRetirementTime == 0\nDEFRAG_CANCEL_REQUIREMENTS =\n");
  CHECK(p.interval == 3600);
  CHECK(p.rate.per_poll == 1);
  CHECK(p.max_whole_machines == 20);
  CHECK(p.max_concurrent_draining == 10);
  CHECK(p.schedule == startd::DrainSchedule::Quick);
  CHECK(p.drain_reason() == "Defrag defrag1");
  CHECK(p.draining_start == "MaxJobRetirementTime == 0");
  CHECK_FALSE(p.cancel_requirements);  // set empty: drains run to the end
  // HTCondor's daemon reads DEFRAG_DRAINING_SCHEDULE: when set, it wins.
  CHECK(policy("DEFRAG_SCHEDULE = quick\nDEFRAG_DRAINING_SCHEDULE = FAST\n").schedule ==
        startd::DrainSchedule::Fast);
}

TEST_CASE("a wrong defrag knob is an error naming it", "[defrag][errors]") {
  struct Row {
    const char* text;
    const char* says;
  };
  const Row rows[] = {
      {"DEFRAG_SCHEDULE = slowly\n",
       "DEFRAG_SCHEDULE: 'slowly' is not a draining schedule; expected graceful, quick or fast"},
      {"DEFRAG_RANK = (Cpus\n", "DEFRAG_RANK"},
      {"DEFRAG_REQUIREMENTS = PartitionableSlot &&\n", "DEFRAG_REQUIREMENTS"},
      {"DEFRAG_WHOLE_MACHINE_EXPR =\n", "DEFRAG_WHOLE_MACHINE_EXPR must not be empty"},
      {"DEFRAG_MAX_CONCURRENT_DRAINING = -2\n", "DEFRAG_MAX_CONCURRENT_DRAINING must be -1 (no limit)"},
      {"DEFRAG_MAX_WHOLE_MACHINES = many\n", "DEFRAG_MAX_WHOLE_MACHINES"},
      {"DEFRAG_DRAINING_MACHINES_PER_HOUR = -1\n",
       "DEFRAG_DRAINING_MACHINES_PER_HOUR must be a number of machines"},
      {"DEFRAG_INTERVAL = soon\n", "DEFRAG_INTERVAL"},
      {"DEFRAG_UPDATE_INTERVAL = 0\n", "DEFRAG_UPDATE_INTERVAL"},
      {"DEFRAG_DRAINING_START_EXPR = TARGET.\n", "DEFRAG_DRAINING_START_EXPR"},
  };
  for (const Row& r : rows) {
    INFO(r.text);
    auto p = try_policy(r.text);
    REQUIRE_FALSE(p);
    CHECK_THAT(p.error(), Catch::Contains(r.says));
  }
}
