// The pool history's samples (HTCondorView: machine state and the jobs of
// each user; model/collector/pool_history.h).
#include "model/collector/pool_history.h"

#include <catch2/catch.hpp>

#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/classad/unparse.h"
#include "model/config/config.h"
#include "model/config/config_host.h"

using namespace cara;
using namespace cara::collector;

namespace {

constexpr std::int64_t kT0 = 1700000000;

PoolHistoryPolicy policy(const std::string& text) {
  auto host = std::make_shared<config::MemoryHost>();
  auto c = config::config_from_text(text, {"COLLECTOR", ""}, host);
  if (!c) FAIL(c.error());
  auto p = PoolHistoryPolicy::from_config(*c);
  if (!p) FAIL(p.error());
  return std::move(*p);
}

void put(AdStore& store, AdType type, const std::string& text) {
  auto a = classad::parse_classad(text);
  REQUIRE(a);
  REQUIRE(store.update(type, std::move(*a), kT0));
}

std::string find_row(const std::vector<classad::ClassAd>& rows, const std::string& type,
                     const std::string& name) {
  for (const classad::ClassAd& r : rows)
    if (classad::evaluate_attr(r, "MyType").as_string() == type &&
        classad::evaluate_attr(r, "Name").as_string() == name) {
      classad::ClassAd shown = r;
      shown.erase("MyType");
      shown.erase("Name");
      shown.erase("Time");
      return classad::unparse(shown);
    }
  return "none";
}

}  // namespace

TEST_CASE("the pool history's knobs", "[collector][history]") {
  PoolHistoryPolicy d = policy("");
  CHECK_FALSE(d.keep);
  CHECK(d.max_storage == 10000000);
  CHECK(d.sampling_interval == 60);
  CHECK(d.dir == "/var/lib/caracara/ViewHist");
  PoolHistoryPolicy p = policy(
      "KEEP_POOL_HISTORY = True\nPOOL_HISTORY_DIR = /h\nPOOL_HISTORY_MAX_STORAGE = 5000\n"
      "POOL_HISTORY_SAMPLING_INTERVAL = 10\n");
  CHECK(p.keep);
  CHECK(p.dir == "/h");
  CHECK(p.max_storage == 5000);
  CHECK(p.sampling_interval == 10);
  auto host = std::make_shared<config::MemoryHost>();
  auto bad = config::config_from_text("POOL_HISTORY_MAX_STORAGE = 0\n", {"COLLECTOR", ""}, host);
  REQUIRE(bad);
  CHECK(PoolHistoryPolicy::from_config(*bad).error() ==
        "POOL_HISTORY_MAX_STORAGE must be a positive number of bytes");
  auto empty_dir =
      config::config_from_text("KEEP_POOL_HISTORY = True\nPOOL_HISTORY_DIR =\n", {"COLLECTOR", ""}, host);
  REQUIRE(empty_dir);
  CHECK(PoolHistoryPolicy::from_config(*empty_dir).error() ==
        "KEEP_POOL_HISTORY is true but POOL_HISTORY_DIR is empty");
}

TEST_CASE("a sample: slots by state per machine, jobs per submitter and per group", "[collector][history]") {
  CollectorPolicy cp;
  cp.absent_requirements = *classad::parse_expression("true");
  AdStore store(cp);
  put(store, AdType::Machine,
      "[ Name = \"slot1@ep1\"; Machine = \"ep1\"; State = \"Unclaimed\"; Activity = \"Idle\"; Cpus = 20 ]");
  put(store, AdType::Machine,
      "[ Name = \"slot1_1@ep1\"; Machine = \"ep1\"; State = \"Claimed\"; Activity = \"Busy\"; Cpus = 4 ]");
  put(store, AdType::Machine,
      "[ Name = \"slot1@ep2\"; Machine = \"ep2\"; State = \"Owner\"; Activity = \"Idle\"; Cpus = 8 ]");
  put(store, AdType::Machine,
      "[ Name = \"slot1@gone\"; Machine = \"gone\"; State = \"Unclaimed\"; Cpus = 8 ]");
  store.lose(AdType::Machine, "slot1@gone", kT0);  // absent: not part of the pool now
  put(store, AdType::Submitter,
      "[ Name = \"group_cms.alice@pool\"; ScheddName = \"ap1\"; RunningJobs = 3; IdleJobs = 5; HeldJobs = 1 "
      "]");
  put(store, AdType::Submitter,
      "[ Name = \"group_cms.alice@pool\"; ScheddName = \"ap2\"; RunningJobs = 1; IdleJobs = 0; HeldJobs = 0 "
      "]");
  put(store, AdType::Submitter,
      "[ Name = \"group_cms.bob@pool\"; ScheddName = \"ap1\"; RunningJobs = 2; IdleJobs = 2; HeldJobs = 0 ]");
  put(store, AdType::Submitter,
      "[ Name = \"carol@pool\"; ScheddName = \"ap1\"; RunningJobs = 0; IdleJobs = 7 ]");
  put(store, AdType::Negotiator,
      "[ Name = \"cm\"; NegotiationCycles = 7; LastNegotiationCycleTime0 = 1700000030; "
      "LastNegotiationCycleDuration0 = 0.5; LastNegotiationCycleMatches0 = 4; "
      "LastNegotiationCycleRejections0 = 1 ]");
  const auto rows = sample_pool(store, policy("GROUP_NAMES = group_cms\n"), kT0 + 60);
  CHECK(rows.size() == 2 + 3 + 2 + 1);
  CHECK(classad::evaluate_attr(rows.front(), "Time").as_int() == kT0 + 60);
  CHECK(find_row(rows, "MachineHistory", "ep1") ==
        "[ Slots = 2; Unclaimed = 1; Claimed = 1; Owner = 0; Matched = 0; Preempting = 0; Drained = 0; "
        "Backfill = 0; Busy = 1; Cpus = 24.0; CpusInUse = 4.0 ]");
  CHECK(find_row(rows, "MachineHistory", "gone") == "none");
  CHECK(find_row(rows, "SubmitterHistory", "group_cms.alice@pool") ==
        "[ Group = \"group_cms\"; RunningJobs = 4; IdleJobs = 5; HeldJobs = 1 ]");
  CHECK(find_row(rows, "SubmitterHistory", "carol@pool") ==
        "[ Group = \"<none>\"; RunningJobs = 0; IdleJobs = 7; HeldJobs = 0 ]");
  CHECK(find_row(rows, "GroupHistory", "group_cms") ==
        "[ Submitters = 2; RunningJobs = 6; IdleJobs = 7; HeldJobs = 1 ]");
  CHECK(find_row(rows, "GroupHistory", "<none>") ==
        "[ Submitters = 1; RunningJobs = 0; IdleJobs = 7; HeldJobs = 0 ]");
  // The negotiator's last cycle, for the dashboard's graph of cycle durations.
  CHECK(find_row(rows, "NegotiatorHistory", "cm") ==
        "[ Cycles = 7; CycleTime = 1700000030; CycleDuration = 0.5; Matches = 4; Rejections = 1 ]");
}
