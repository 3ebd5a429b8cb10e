// `cara negotiate` as a real process: the thesis's 24-slot group scenario
// from job ads written by `cara submit -dry-run`, and bad input.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "integration/process.h"

using cara::test::run_process;

namespace {

const std::string kFixtures = CARA_FIXTURES;

// A worker node like the thesis's grid-wn048: 24 single-core slots.
std::string worker_slots(int n) {
  std::string out;
  for (int i = 1; i <= n; ++i) {
    out += "Name = \"slot" + std::to_string(i) + "@grid-wn048.physik.rwth-aachen.de\"\n";
    out += "Machine = \"grid-wn048.physik.rwth-aachen.de\"\nMyType = \"Machine\"\nSlotID = " +
           std::to_string(i) +
           "\nState = \"Unclaimed\"\nActivity = \"Idle\"\nArch = \"X86_64\"\nOpSys = \"LINUX\"\n"
           "Cpus = 1\nMemory = 4096\nDisk = 100000000\nSlotWeight = Cpus\nHasFileTransfer = true\n"
           "Requirements = START\nSTART = true\nRank = 0\n\n";
  }
  return out;
}

}  // namespace

TEST_CASE("cara negotiate: the thesis's groups settle at 3, 3, 12 and 6", "[cli][negotiate][thesis]") {
  // The thesis's figure 22, scaled to 40 jobs a user.
  std::string jobs;
  for (auto [user, group] : {std::pair{"cms001", "group_cms.cms"}, std::pair{"dcms001", "group_cms.dcms"},
                             std::pair{"aug001", "group_auger"}, std::pair{"ice001", "group_icecube"}}) {
    auto r =
        run_process({CARA_BINARY, "submit", "-dry-run", "-", "-append",
                     std::string("accounting_group=") + group, kFixtures + "/thesis/testjob.submit", "-queue",
                     "40", "--owner", user, "--config", kFixtures + "/thesis/central_manager.config"});
    REQUIRE(r.exit_code == 0);
    jobs += r.out + "\n";
  }
  const std::string jobs_file = cara::test::write_temp_file(jobs, ".ads");
  const std::string slots_file = cara::test::write_temp_file(worker_slots(24), ".ads");
  auto r = run_process({CARA_BINARY, "negotiate", "--config", kFixtures + "/thesis/central_manager.config",
                        "--slots", slots_file, "--jobs", jobs_file, "--now", "1700000000"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto out = nlohmann::json::parse(r.out);
  std::map<std::string, int> per_group;
  for (const auto& m : out["matches"]) {
    ++per_group[m["group"].get<std::string>()];
    CHECK(m["reason"] == "NoPreemption");
    CHECK(m["preempts"].is_null());
  }
  CHECK(per_group["group_auger"] == 3);
  CHECK(per_group["group_icecube"] == 3);
  CHECK(per_group["group_cms.dcms"] == 12);
  CHECK(per_group["group_cms.cms"] == 6);
  bool cms_row = false;
  for (const auto& g : out["groups"]) {
    if (g["name"] != "group_cms.dcms") continue;
    cms_row = true;
    CHECK(g["effective_quota"].get<double>() == Approx(12));
    CHECK(g["config_quota"].get<double>() == Approx(12));
    CHECK(g["matched"] == 12);
    CHECK(g["requested"].get<double>() == Approx(40));
  }
  CHECK(cms_row);
  CHECK(out["stats"]["Matches"].get<double>() == 24);
  CHECK(out["stats"]["TotalSlots"].get<double>() == 24);
  CHECK(out["submitters"].size() == 4);
  std::filesystem::remove(jobs_file);
  std::filesystem::remove(slots_file);
}

TEST_CASE("cara negotiate: pslot preemption names the dynamic slots a match evicts", "[cli][negotiate]") {
  const std::string config = cara::test::write_temp_file(
      "UID_DOMAIN = example.org\nALLOW_PSLOT_PREEMPTION = True\nPREEMPTION_REQUIREMENTS = True\n", ".config");
  std::string ads =
      "Name = \"slot1@wn\"\nMachine = \"wn\"\nMyType = \"Machine\"\nSlotID = 1\nPartitionableSlot = true\n"
      "State = \"Unclaimed\"\nActivity = \"Idle\"\nCpus = 0\nMemory = 0\nDisk = 1000\nRequirements = "
      "true\n\n";
  for (int d = 1; d <= 2; ++d)
    ads +=
        "Name = \"slot1_" + std::to_string(d) +
        "@wn\"\nMachine = \"wn\"\nMyType = \"Machine\"\nSlotID = 1\nDynamicSlot = true\nState = "
        "\"Claimed\"\nActivity = \"Busy\"\nRemoteUser = \"bob@example.org\"\nRemoteOwner = "
        "\"bob@example.org\"\nCurrentRank = 0\nCpus = 1\nMemory = 1024\nDisk = 1000\nRequirements = true\n\n";
  const std::string slots = cara::test::write_temp_file(ads, ".ads");
  const std::string jobs = cara::test::write_temp_file(
      "MyType = \"Job\"\nClusterId = 7\nProcId = 0\nOwner = \"alice\"\nUser = \"alice@example.org\"\n"
      "JobStatus = 1\nRequestCpus = 2\nRequestMemory = 2048\n"
      "Requirements = TARGET.Cpus >= RequestCpus && TARGET.Memory >= RequestMemory\n\n",
      ".ads");
  const std::string acct = cara::test::write_temp_file("bob@example.org 100 1000 0 - -\n", ".txt");
  auto r = run_process(
      {CARA_BINARY, "negotiate", "--config", config, "--slots", slots, "--jobs", jobs, "--accountant", acct});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto out = nlohmann::json::parse(r.out);
  REQUIRE(out["matches"].size() == 1);
  CHECK(out["matches"][0]["slot"] == "slot1@wn");
  CHECK(out["matches"][0]["reason"] == "Priority");
  CHECK(out["matches"][0]["preempts"] == "bob@example.org");
  CHECK(out["matches"][0]["preempts_slots"] == nlohmann::json({"slot1_1@wn", "slot1_2@wn"}));
  for (const auto& f : {config, slots, jobs, acct}) std::filesystem::remove(f);
}

TEST_CASE("cara negotiate refuses bad input clearly", "[cli][negotiate]") {
  const std::string config = cara::test::write_temp_file("UID_DOMAIN = example.org\n", ".config");
  const std::string slots = cara::test::write_temp_file(worker_slots(1), ".ads");
  const std::string bad_ads = cara::test::write_temp_file("Name = \"x\"\nCpus = (1 +\n", ".ads");
  const std::string bad_acct = cara::test::write_temp_file("alice@example.org 1 notanumber\n", ".txt");
  auto usage = run_process({CARA_BINARY, "negotiate", "--slots", slots});
  CHECK(usage.exit_code == 1);
  CHECK_THAT(usage.err, Catch::Contains("--config FILE is required"));
  auto ads = run_process({CARA_BINARY, "negotiate", "--config", config, "--slots", bad_ads, "--jobs", slots});
  CHECK(ads.exit_code == 1);
  CHECK_THAT(ads.err, Catch::Contains("slots file " + bad_ads));
  auto acct = run_process({CARA_BINARY, "negotiate", "--config", config, "--slots", slots, "--jobs", slots,
                           "--accountant", bad_acct});
  CHECK(acct.exit_code == 1);
  CHECK_THAT(acct.err, Catch::Contains(bad_acct + ", line 1: factor 'notanumber' is not a number"));
  auto now = run_process(
      {CARA_BINARY, "negotiate", "--config", config, "--slots", slots, "--jobs", slots, "--now", "soon"});
  CHECK(now.exit_code == 1);
  CHECK_THAT(now.err, Catch::Contains("--now expects seconds since the epoch"));
  for (const auto& f : {config, slots, bad_ads, bad_acct}) std::filesystem::remove(f);
}
