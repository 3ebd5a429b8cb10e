// `cara submit -dry-run` as a real process, on the thesis's submit file.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "integration/process.h"
#include "tests/support/scratch.h"

using cara::test::run_process;

namespace {
const std::string kSubmitFile = std::string(CARA_FIXTURES) + "/thesis/testjob.submit";

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("cara submit -dry-run writes one long-form ad per job", "[cli][submit]") {
  auto r = run_process({CARA_BINARY, "submit", "-dry-run", "-", kSubmitFile, "--owner", "cms001"});
  CHECK(r.exit_code == 0);
  CHECK(count(r.out, "ClusterId = 1\n") == 3);
  CHECK_THAT(r.out, Catch::Contains("ProcId = 0\n") && Catch::Contains("ProcId = 2\n"));
  CHECK_THAT(r.out, Catch::Contains("Out = \"02.out\"\n") && Catch::Contains("custom_ClassAd_attr = true\n"));
  CHECK(count(r.out, "\n\n") == 2);  // ads separated by a blank line
}

TEST_CASE("cara submit -dry-run with -append and -queue (the thesis's script)", "[cli][submit]") {
  std::string out = cara::test::write_temp_file("", ".ads");
  auto r =
      run_process({CARA_BINARY, "submit", "-dry-run", out, "-append", "accounting_group=group_cms.dcms",
                   "-append", "+CreamQueue=\"short\"", kSubmitFile, "-queue", "1250", "--owner", "dcms001"});
  CHECK(r.exit_code == 0);
  std::ifstream in(out);
  std::stringstream ads;
  ads << in.rdbuf();
  CHECK(count(ads.str(), "ClusterId = 1\n") == 1250);
  CHECK_THAT(ads.str(),
             Catch::Contains("ProcId = 1249\n") && Catch::Contains("AcctGroup = \"group_cms.dcms\"") &&
                 Catch::Contains("CreamQueue = \"short\"") && Catch::Contains("Owner = \"dcms001\""));
  std::filesystem::remove(out);
}

TEST_CASE("cara submit refuses bad input clearly", "[cli][submit]") {
  std::string bad =
      cara::test::write_temp_file("executable = /bin/true\nuniverse = standard\nqueue\n", ".sub");
  auto r = run_process({CARA_BINARY, "submit", "-dry-run", "-", bad});
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.err,
             Catch::Contains(bad + ", line 2") && Catch::Contains("universe standard is not supported"));
  std::filesystem::remove(bad);
  auto missing = run_process({CARA_BINARY, "submit", "-dry-run", "-", "/nonexistent.sub"});
  CHECK(missing.exit_code == 1);
  CHECK_THAT(missing.err, Catch::Contains("/nonexistent.sub"));
  // Without -dry-run it goes to this node's schedd; with none running, it
  // says where it looked.
  const std::string runnable = cara::test::write_temp_file("executable = /bin/true\nqueue\n", ".sub");
  auto no_schedd = run_process({CARA_BINARY, "submit", runnable});
  std::filesystem::remove(runnable);
  CHECK(no_schedd.exit_code == 2);
  CHECK_THAT(no_schedd.err, Catch::Contains("schedd.sock") && Catch::Contains("cara master"));
  auto flag = run_process({CARA_BINARY, "submit", "-dry-run"});
  CHECK(flag.exit_code == 1);
  // A description that does not parse is not "failed to commit".
  CHECK_THAT(r.err, !Catch::Contains("Failed to commit"));
  // condor_submit's own checks: an executable that is not there, an
  // argument string left open.
  const std::string gone = cara::test::write_temp_file("executable = /no/such/program\nqueue\n", ".sub");
  auto no_exe = run_process({CARA_BINARY, "submit", gone});
  CHECK(no_exe.exit_code == 1);
  CHECK(no_exe.err == "ERROR: Executable file /no/such/program does not exist\n");
  std::filesystem::remove(gone);
  const std::string open_quote =
      cara::test::write_temp_file("executable = /bin/echo\narguments = \"a 'b c\"\nqueue\n", ".sub");
  auto quote = run_process({CARA_BINARY, "submit", "-dry-run", "-", open_quote});
  CHECK(quote.exit_code == 1);
  CHECK_THAT(quote.err, Catch::Contains(open_quote + ", line 2") && Catch::Contains("single quote"));
  std::filesystem::remove(open_quote);
}

TEST_CASE("cara submit checks the executable the first job will have, queue variables expanded",
          "[cli][submit]") {
  // The first job of `queue item in (...)` runs $(item).sh: the check made
  // before sending sees that path, not one with the variable left empty.
  const cara::scratch::TempDir scratch{"submit-items"};
  const std::filesystem::path& dir = scratch.path;
  for (const char* name : {"first.sh", "second.sh"}) {
    std::ofstream(dir / name) << "#!/bin/sh\ntrue\n";
    std::filesystem::permissions(dir / name, std::filesystem::perms::owner_all);
  }
  const std::string sub = cara::test::write_temp_file(
      "executable = " + dir.string() + "/$(item).sh\nqueue item in (first, second)\n", ".sub");
  // With no schedd running it gets as far as looking for one.
  auto r = run_process({CARA_BINARY, "submit", sub});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("schedd.sock") && !Catch::Contains("Executable file"));
  // The first item's executable gone: refused here, naming that path.
  std::filesystem::remove(dir / "first.sh");
  r = run_process({CARA_BINARY, "submit", sub});
  CHECK(r.exit_code == 1);
  CHECK(r.err == "ERROR: Executable file " + (dir / "first.sh").string() + " does not exist\n");
  std::filesystem::remove(sub);
}

TEST_CASE("cara submit -dry-run applies the configuration's transforms and submit requirements",
          "[cli][submit][transform]") {
  const std::string map =
      cara::test::write_temp_file("* cms001 group_cms\n* /^dcms/ group_cms.dcms\n", ".map");
  const std::string config = cara::test::write_temp_file(
      "JOB_TRANSFORM_NAMES = AssignGroup\n"
      "JOB_TRANSFORM_AssignGroup @=end\n"
      "   EVALSET AcctGroup = userMap(\"Groups\",Owner,AcctGroup)\n"
      "   EVALSET AccountingGroup = join(\".\",AcctGroup,Owner)\n"
      "@end\n"
      "SCHEDD_CLASSAD_USER_MAP_NAMES = Groups\n"
      "CLASSAD_USER_MAPFILE_Groups = " +
          map +
          "\n"
          "SUBMIT_REQUIREMENT_NAMES = OneGig, NotChris\n"
          "SUBMIT_REQUIREMENT_OneGig = RequestMemory > 1024\n"
          "SUBMIT_REQUIREMENT_OneGig_REASON = \"the minimum requested memory will be 1024\"\n"
          "SUBMIT_REQUIREMENT_OneGig_IS_WARNING = TRUE\n"
          "SUBMIT_REQUIREMENT_NotChris = Owner != \"chris\"\n"
          "SUBMIT_REQUIREMENT_NotChris_REASON = \"Chris, you may only submit jobs to the instructional "
          "pool.\"\n",
      ".config");
  // The thesis's file requests 1000 MB: a warning, and the jobs are written.
  auto r = run_process(
      {CARA_BINARY, "submit", "-dry-run", "-", kSubmitFile, "--config", config, "--owner", "dcms042"});
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("AccountingGroup = \"group_cms.dcms.dcms042\"\n"));
  CHECK(count(r.out, "AcctGroup = \"group_cms.dcms\"\n") == 3);
  CHECK_THAT(r.err, Catch::Contains("WARNING: the minimum requested memory will be 1024"));

  auto chris = run_process(
      {CARA_BINARY, "submit", "-dry-run", "-", kSubmitFile, "--config", config, "--owner", "chris"});
  CHECK(chris.exit_code == 1);
  CHECK(chris.out.empty());
  CHECK_THAT(chris.err, Catch::Contains("ERROR: Chris, you may only submit jobs to the instructional pool."));

  const std::string broken = cara::test::write_temp_file(
      "JOB_TRANSFORM_NAMES = Bad\nJOB_TRANSFORM_Bad = FROBNICATE Owner\n", ".config");
  auto bad = run_process({CARA_BINARY, "submit", "-dry-run", "-", kSubmitFile, "--config", broken});
  CHECK(bad.exit_code == 1);
  CHECK_THAT(bad.err, Catch::Contains("JOB_TRANSFORM_Bad, line 1: unknown rule 'FROBNICATE'"));
  for (const std::string& f : {map, config, broken}) std::filesystem::remove(f);
}
