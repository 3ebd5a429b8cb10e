// The submit description language (condor_submit), with the thesis's
// submit file (figure 10) and script (figure 22) as fixtures.
#include <catch2/catch.hpp>

#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/classad/unparse.h"
#include "unit/schedd/support.h"

using namespace cara;
using namespace cara::schedd;
using namespace cara::schedd_test;

TEST_CASE("the thesis's submit file (figure 10) makes the jobs of figure 9", "[schedd][submit][thesis]") {
  Submit s;
  auto jobs = s.ok(fixture("thesis/testjob.submit"));
  REQUIRE(jobs.size() == 3);
  for (int p = 0; p < 3; ++p) {
    const classad::ClassAd& j = jobs[static_cast<std::size_t>(p)];
    CHECK(attr(j, "ClusterId") == "1");
    CHECK(attr(j, "ProcId") == std::to_string(p));
    CHECK(attr(j, "Args") == "\"" + std::to_string(p) + "\"");
    CHECK(attr(j, "Out") == "\"0" + std::to_string(p) + ".out\"");
    CHECK(attr(j, "JobStatus") == "1");
  }
  const classad::ClassAd& j = jobs[0];
  CHECK(attr(j, "Cmd") == "\"/home/cms001/testjob.sh\"");
  CHECK(attr(j, "JobUniverse") == "5");
  CHECK(attr(j, "Owner") == "\"cms001\"");
  CHECK(attr(j, "User") == "\"cms001@physik.rwth-aachen.de\"");
  CHECK(attr(j, "AcctGroup") == "\"group_cms.cms\"");
  CHECK(attr(j, "AcctGroupUser") == "\"cms001\"");
  CHECK(attr(j, "AccountingGroup") == "\"group_cms.cms.cms001\"");
  CHECK(attr(j, "UserLog") == "\"/home/cms001/testjob.log\"");
  CHECK(attr(j, "custom_ClassAd_attr") == "true");
  CHECK(attr(j, "Rank") == "0.0");
  CHECK(attr(j, "QDate") == "1535000000");
  CHECK(attr(j, "RequestMemory") ==
        "ifThenElse(MemoryUsage =!= undefined,MemoryUsage,(ImageSize + 1023) / 1024)");
  CHECK(value(j, "RequestMemory") == "1");
  CHECK_THAT(attr(j, "Requirements"),
             Catch::Contains("(TARGET.OpSys == \"") && Catch::Contains("(TARGET.Memory >= RequestMemory)"));
  // A Linux slot with enough memory matches.
  auto slot =
      *classad::parse_classad("[ Arch = \"" + *s.config->string("ARCH") + "\"; OpSys = \"" +
                              *s.config->string("OPSYS") + "\"; Memory = 2048; Disk = 100000; Cpus = 1 ]");
  bool met = false;
  CHECK((classad::evaluate_attr(j, "Requirements", &slot, {}).bool_equiv(met) && met));
}

TEST_CASE("the thesis's submit script (figure 22): -append and -queue", "[schedd][submit][thesis]") {
  Submit s;
  const std::string file = fixture("thesis/testjob.submit");
  auto cms = s.ok(file, {"accounting_group=group_cms.cms"}, "2500");
  REQUIRE(cms.size() == 2500);
  CHECK(attr(cms[2499], "ProcId") == "2499");
  CHECK(attr(cms[2499], "Out") == "\"2499.out\"");
  CHECK(attr(cms[0], "AcctGroup") == "\"group_cms.cms\"");
  auto dcms = s.ok(file, {"accounting_group=group_cms.dcms", "+CreamQueue=\"short\""}, "1");
  REQUIRE(dcms.size() == 1);
  CHECK(attr(dcms[0], "AcctGroup") == "\"group_cms.dcms\"");
  CHECK(attr(dcms[0], "CreamQueue") == "\"short\"");
  // The 10,000-job expansion.
  auto big = s.ok(file, {"accounting_group=group_auger"}, "10000");
  REQUIRE(big.size() == 10000);
  CHECK(attr(big[9999], "Args") == "\"9999\"");
  CHECK(attr(big[9999], "AccountingGroup") == "\"group_auger.cms001\"");
}

TEST_CASE("submit commands become job attributes", "[schedd][submit]") {
  Submit s;
  struct Row {
    std::string commands;
    std::string attribute;
    std::string expected;  // unparsed; "<none>" when absent
  };
  const std::vector<Row> rows = {
      {"executable = job.sh\n", "Cmd", "\"/home/cms001/job.sh\""},
      {"executable = /opt/x\n", "Cmd", "\"/opt/x\""},
      {kExe + "args = a b c\n", "Args", "\"a b c\""},
      {kExe + "arguments = \"one 'two three'\"\n", "Arguments", "\"one 'two three'\""},
      {kExe + "universe = vanilla\n", "JobUniverse", "5"},
      {kExe, "In", "\"/dev/null\""},
      {kExe + "input = in.txt\n", "In", "\"in.txt\""},
      {kExe + "output = out.txt\n", "Out", "\"out.txt\""},
      {kExe + "error = err.txt\n", "Err", "\"err.txt\""},
      {kExe + "log = /tmp/job.log\n", "UserLog", "\"/tmp/job.log\""},
      {kExe + "initialdir = /data\nexecutable = run\n", "Cmd", "\"/data/run\""},
      {kExe + "initialdir = /data\n", "Iwd", "\"/data\""},
      {kExe + "environment = A=1;B=2\n", "Environment", "\"A=1 B=2\""},
      {kExe + "environment = \"A=1 B='x y'\"\n", "Environment", "\"A=1 B='x y'\""},
      {kExe + "request_cpus = 4\n", "RequestCpus", "4"},
      {kExe + "request_memory = 2GB\n", "RequestMemory", "2048"},
      {kExe + "request_memory = 512\n", "RequestMemory", "512"},
      {kExe + "request_memory = 1.5 G\n", "RequestMemory", "1536"},
      {kExe + "request_memory = 100K\n", "RequestMemory", "1"},
      {kExe + "request_memory = MemoryUsage * 2\n", "RequestMemory", "MemoryUsage * 2"},
      {kExe + "request_disk = 1G\n", "RequestDisk", "1048576"},
      {kExe + "request_disk = 10240\n", "RequestDisk", "10240"},
      {kExe + "request_GPUs = 2\n", "RequestGPUs", "2"},
      {kExe, "RequestCpus", "1"},
      {kExe, "RequestDisk", "DiskUsage"},
      {kExe + "rank = Memory\n", "Rank", "Memory"},
      {kExe + "priority = 10\n", "JobPrio", "10"},
      {kExe, "JobPrio", "0"},
      {kExe + "accounting_group = group_physics\naccounting_group_user = alice\n", "AccountingGroup",
       "\"group_physics.alice\""},
      {kExe + "nice_user = true\n", "NiceUser", "true"},
      {kExe + "nice_user = true\n", "AccountingGroup", "\"nice-user.cms001\""},
      {kExe + "nice_user = true\n", "MaxJobRetirementTime", "0"},
      {kExe + "hold = true\n", "JobStatus", "5"},
      {kExe + "hold = true\n", "HoldReasonCode", "15"},
      {kExe + "hold = false\n", "JobStatus", "1"},
      {kExe, "NiceUser", "false"},
      {kExe + "concurrency_limits = DB_Server:2, LIC\n", "ConcurrencyLimits", "\"db_server:2, lic\""},
      {kExe + "concurrency_limits_expr = strcat(\"db\", \":\", 2)\n", "ConcurrencyLimitsExpr",
       "strcat(\"db\",\":\",2)"},
      {kExe + "max_retirement_time = 3600\n", "MaxJobRetirementTime", "3600"},
      {kExe + "job_max_vacate_time = 120\n", "JobMaxVacateTime", "120"},
      {kExe + "kill_sig = SIGUSR1\n", "KillSig", "\"SIGUSR1\""},
      {kExe + "+Department = \"physics\"\n", "Department", "\"physics\""},
      {kExe + "MY.Weight = 2 * 3\n", "Weight", "2 * 3"},
      {kExe + "favorite = blue\n", "favorite", "<none>"},  // a plain macro, not an attribute
      {kExe, "NumJobStarts", "0"},
      {kExe, "EnteredCurrentStatus", "1535000000"},
  };
  for (const Row& row : rows) {
    INFO(row.commands);
    auto jobs = s.ok(row.commands + "queue\n");
    REQUIRE(jobs.size() == 1);
    CHECK(attr(jobs[0], row.attribute) == row.expected);
  }
}

TEST_CASE("getenv copies the submitter's environment, explicit settings follow it", "[schedd][submit]") {
  Submit s;
  s.ctx.environment = {{"PATH", "/usr/bin"}, {"HOME", "/home/cms001"}};
  auto j = s.ok(kExe + "getenv = True\nenvironment = A=1\nqueue\n");
  CHECK(attr(j[0], "Environment") == "\"PATH=/usr/bin HOME=/home/cms001 A=1\"");
}

TEST_CASE("requirements get the automatic clauses, unless they name the attribute", "[schedd][submit]") {
  Submit s;
  auto j = s.ok(kExe + "requirements = Memory > 4000 && HasDocker\nrequest_GPUs = 1\nqueue\n");
  std::string req = attr(j[0], "Requirements");
  CHECK_THAT(req, Catch::StartsWith("(Memory > 4000 && HasDocker) && "));
  CHECK_THAT(req, Catch::Contains("(TARGET.Arch == ") && Catch::Contains("(TARGET.OpSys == ") &&
                      Catch::Contains("(TARGET.Disk >= RequestDisk)") &&
                      Catch::Contains("(TARGET.Cpus >= RequestCpus)") &&
                      Catch::Contains("(TARGET.GPUs >= RequestGPUs)"));
  CHECK_THAT(req, !Catch::Contains("TARGET.Memory >= RequestMemory"));
  auto own = s.ok(kExe + "requirements = TARGET.OpSys == \"WINDOWS\"\nqueue\n");
  CHECK_THAT(attr(own[0], "Requirements"), !Catch::Contains("\"LINUX\""));
}

TEST_CASE("the jobs of a submission, and of the next alike, hold one tree per expression text",
          "[schedd][submit]") {
  // What the negotiator works out per tree (the names a job reads) is then
  // worked out once for all of them.
  Submit s;
  auto first = s.ok(kExe + "requirements = Memory > 4000\nrank = KFlops\nrequest_cpus = 2 * 2\nqueue 3\n");
  auto again = s.ok(kExe + "requirements = Memory > 4000\nrank = KFlops\nrequest_cpus = 2 * 2\nqueue\n");
  auto other = s.ok(kExe + "requirements = Memory > 8000\nqueue\n");
  auto tree = [](const classad::ClassAd& j, const char* name) { return j.find(name)->expr.get(); };
  for (const char* name : {"Requirements", "Rank", "RequestCpus"}) {
    INFO(name);
    CHECK(tree(first[1], name) == tree(first[0], name));
    CHECK(tree(first[2], name) == tree(first[0], name));
    CHECK(tree(again[0], name) == tree(first[0], name));
  }
  CHECK(tree(other[0], "Requirements") != tree(first[0], "Requirements"));
  CHECK_THAT(attr(other[0], "Requirements"), Catch::StartsWith("(Memory > 8000) && "));
  CHECK(value(first[2], "RequestCpus") == "4");
}

TEST_CASE("JOB_DEFAULT_REQUEST* come from the configuration", "[schedd][submit]") {
  Submit s;
  s.config = *config::config_from_text(
      "JOB_DEFAULT_REQUESTCPUS = 2\nJOB_DEFAULT_REQUESTMEMORY = 1024\n"
      "JOB_DEFAULT_REQUESTDISK = 4096\n",
      {"SUBMIT", ""}, s.host);
  s.ctx.config = &*s.config;
  auto j = s.ok(kExe + "queue\n");
  CHECK(attr(j[0], "RequestCpus") == "2");
  CHECK(attr(j[0], "RequestMemory") == "1024");
  CHECK(attr(j[0], "RequestDisk") == "4096");
}

TEST_CASE("queue forms and their macros", "[schedd][submit]") {
  Submit s;
  auto n = s.ok(kExe + "args = $(Cluster) $(ClusterId) $(Process) $(ProcId)\nqueue 2\n");
  REQUIRE(n.size() == 2);
  CHECK(attr(n[1], "Args") == "\"1 1 1 1\"");
  auto in = s.ok(kExe + "args = $(Item)\nqueue in (alpha, beta, gamma)\n");
  REQUIRE(in.size() == 3);
  CHECK(attr(in[2], "Args") == "\"gamma\"");
  auto named = s.ok(kExe + "args = $(x)-$(Step)-$(Row)\nqueue 2 x in (a, b)\n");
  REQUIRE(named.size() == 4);
  CHECK(attr(named[0], "Args") == "\"a-0-0\"");
  CHECK(attr(named[1], "Args") == "\"a-1-0\"");
  CHECK(attr(named[3], "Args") == "\"b-1-1\"");
  auto lines = s.ok(kExe + "args = $(f)\nqueue f in (\n  one\n  two\n)\nqueue\n");
  REQUIRE(lines.size() == 3);
  CHECK(attr(lines[1], "Args") == "\"two\"");
  CHECK(attr(lines[2], "ProcId") == "2");
  s.host->add_file("/home/cms001/items.txt", "# a comment\nrun1 10\nrun2 20\n");
  auto file = s.ok(kExe + "args = $(name) $(size)\nqueue name, size from items.txt\n");
  REQUIRE(file.size() == 2);
  CHECK(attr(file[1], "Args") == "\"run2 20\"");
  s.host->add_file("/home/cms001/data/a.dat", "");
  s.host->add_file("/home/cms001/data/b.dat", "");
  s.host->add_file("/home/cms001/data/c.txt", "");
  auto match = s.ok(kExe + "input = $(Item)\nqueue matching data/*.dat\n");
  REQUIRE(match.size() == 2);
  CHECK(attr(match[0], "In") == "\"data/a.dat\"");
  CHECK(attr(match[1], "In") == "\"data/b.dat\"");
  auto helpers = s.ok(
      "executable = /opt/bin/sim.exe\nN = 7\nHALF = 1/4.0\n"
      "args = $INT(N,%03d) $REAL(HALF,%.2f) $Fnx(executable) $Fn(executable)\nqueue\n");
  CHECK(attr(helpers[0], "Args") == "\"007 0.25 sim.exe sim\"");
  // Commands between queue statements change later jobs only.
  auto twice = s.ok(kExe + "args = first\nqueue\nargs = second\nqueue 2\n");
  REQUIRE(twice.size() == 3);
  CHECK(attr(twice[0], "Args") == "\"first\"");
  CHECK(attr(twice[2], "Args") == "\"second\"");
  auto count = s.ok(kExe + "JOBS = 3\nqueue $(JOBS)\n");
  CHECK(count.size() == 3);
}

TEST_CASE("submit errors name the line and what was expected", "[schedd][submit]") {
  Submit s;
  CHECK_THAT(s.error("executable = x\nthis line is wrong\nqueue\n"),
             Catch::Contains("testjob.submit, line 2") && Catch::Contains("expected 'command = value'"));
  CHECK_THAT(s.error(kExe + "universe = docker\nqueue\n"),
             Catch::Contains("line 2") && Catch::Contains("universe docker is not supported"));
  CHECK_THAT(s.error(kExe + "+Bad = (1 +\nqueue\n"), Catch::Contains("line 2") && Catch::Contains("+Bad"));
  CHECK_THAT(s.error("args = 1\nqueue\n"), Catch::Contains("no executable"));
  CHECK_THAT(s.error(kExe + "concurrency_limits = a\nconcurrency_limits_expr = \"b\"\nqueue\n"),
             Catch::Contains("line 3") && Catch::Contains("cannot both be given"));
  CHECK_THAT(s.error(kExe + "queue lots\n"), Catch::Contains("line 2"));
  CHECK_THAT(s.error(kExe + "queue x in (a, b\n"), Catch::Contains("no ')'"));
  CHECK_THAT(s.error(kExe), Catch::Contains("no queue statement"));
  CHECK_THAT(s.error(kExe + "queue\nqueue\n", {}, "5"), Catch::Contains("more than one queue statement"));
  CHECK_THAT(s.error(kExe + "queue 1 from missing.txt\n"), Catch::Contains("missing.txt"));
  CHECK_THAT(s.error(kExe + "queue\n", {"no equals sign"}), Catch::Contains("-append"));
  CHECK_THAT(s.error(kExe + "request_cpus = $(Nope\nqueue\n"), Catch::Contains("line 2"));
}

TEST_CASE("job arguments split in both syntaxes", "[schedd][submit]") {
  Submit s;
  auto old = s.ok(kExe + "args = a  b c\nqueue\n");
  CHECK(job_arguments(old[0]) == std::vector<std::string>{"a", "b", "c"});
  auto modern = s.ok(kExe + "arguments = \"one 'two three' 'it''s' \"\"q\"\"\"\nqueue\n");
  CHECK(job_arguments(modern[0]) == std::vector<std::string>{"one", "two three", "it's", "\"q\""});
  // Quotes left open are refused, naming the line (condor_submit does too).
  for (const auto& [line, why] : std::vector<std::pair<std::string, std::string>>{
           {"arguments = \"a b\n", "the value opens a double quote and does not close it"},
           {"arguments = \"a 'b c\"\n", "a single quote is not closed"},
           {"arguments = \"a \" b\"\n", "a double quote inside the value must be doubled"},
           {"arguments = a b\"\n", "a double quote in old-syntax arguments needs a backslash"}}) {
    INFO(line);
    const std::string error = s.error(kExe + line + "queue\n");
    CHECK_THAT(error, Catch::Contains("testjob.submit, line 2: arguments: " + why));
  }
  CHECK(job_arguments(s.ok(kExe + "args = say \\\"hi\\\"\nqueue\n")[0]).size() == 2);
  CHECK(size_in_units("2 GB", 1024) == 2048);
  CHECK(!size_in_units("2 XB", 1024));
  CHECK(!size_in_units("2111111111111111111111111G", 1024));  // no int64 holds it: not a size
}

TEST_CASE("ImageSize and DiskUsage are the executable's size in KiB, at least 1", "[schedd][submit]") {
  Submit s;
  s.host->add_file("/home/cms001/big.exe", std::string(5000, 'x'));
  auto jobs = s.ok("executable = /home/cms001/big.exe\nqueue 2\n");
  REQUIRE(jobs.size() == 2);
  for (const auto& job : jobs) {
    CHECK(attr(job, "ImageSize") == "5");  // 5000 bytes: 4.9 KiB, rounded up
    CHECK(attr(job, "DiskUsage") == "5");
  }
  s.host->add_file("/home/cms001/empty.exe", "");
  CHECK(attr(s.ok("executable = /home/cms001/empty.exe\nqueue\n")[0], "ImageSize") == "1");
  // What the submit file says wins.
  CHECK(attr(s.ok("executable = /home/cms001/big.exe\n+ImageSize = 40\nqueue\n")[0], "ImageSize") == "40");
}

TEST_CASE("the first job's executable, worked out alone, is the Cmd the built job gets", "[schedd][submit]") {
  // cara submit checks this path as the user before it sends the
  // description (condor_submit's check); the schedd then builds the jobs.
  Submit s;
  s.host->add_file("/home/cms001/items.txt", "alpha\nbeta\n");
  const std::vector<std::string> descriptions = {
      "executable = /bin/true\nqueue\n",
      "executable = run.sh\nqueue 3\n",
      "initialdir = /data\nexecutable = run\nqueue\n",
      "initialdir = sub/dir\nexecutable = ../bin/run\nqueue\n",
      "+Iwd = \"/from/attribute\"\nexecutable = tool\nqueue\n",
      "executable = /opt/$(Cluster)/p$(Process)_$(Step)\nqueue 2\n",
      "executable = $(item).sh\nqueue item in (one, two)\n",
      "executable = $(item)/run\nqueue item from items.txt\n",
      "executable = first\nqueue 0\nexecutable = second\nqueue 1\n",
      "executable = a\nqueue\nexecutable = b\nqueue\n",
      "dir = /x\nexecutable = $(dir)/y\nrequest_memory = 2 GB\narguments = \"-v 1\"\nqueue\n",
      "executable = $ENV(HOME)/bin/job\nqueue\n",
  };
  s.ctx.environment = {{"HOME", "/home/cms001"}};
  for (const std::string& text : descriptions) {
    INFO(text);
    auto d = parse_submit(text, s.ctx.label, {}, "");
    REQUIRE(d.ok());
    auto first = first_job_command(*d, s.ctx);
    REQUIRE(first.ok());
    auto jobs = s.ok(text);
    REQUIRE(!jobs.empty());
    REQUIRE(first->has_value());
    CHECK("\"" + **first + "\"" == attr(jobs[0], "Cmd"));
  }
  // No job, no executable to check; a description with no executable, or
  // one that does not expand, is an error (the schedd says why).
  auto none = parse_submit("executable = x\nqueue 0\n", "f", {}, "");
  REQUIRE(none.ok());
  CHECK(first_job_command(*none, s.ctx).ok());
  CHECK_FALSE(first_job_command(*none, s.ctx)->has_value());
  auto missing = parse_submit("output = o\nqueue\n", "f", {}, "");
  REQUIRE(missing.ok());
  CHECK_THAT(first_job_command(*missing, s.ctx).error(), Catch::Contains("no executable"));
}

TEST_CASE("$ENV(NAME) expands from the submitter's environment, the one the request carries",
          "[schedd][submit]") {
  // condor_submit reads $ENV() from its own environment: the user's, not
  // the schedd's (which builds the jobs here).
  Submit s;
  s.ctx.environment = {{"HOME", "/home/cms001"}, {"RUN", "7"}};
  auto jobs = s.ok(
      "executable = $ENV(HOME)/bin/job\narguments = run$ENV(RUN) $ENV(UNSET:fallback) [$ENV(UNSET)]\n"
      "queue $ENV(RUN)\n");
  REQUIRE(jobs.size() == 7);
  CHECK(attr(jobs[0], "Cmd") == "\"/home/cms001/bin/job\"");
  CHECK(attr(jobs[6], "Args") == "\"run7 fallback []\"");
  // Without an environment, a name without a default is empty.
  s.ctx.environment.clear();
  CHECK(attr(s.ok("executable = /bin/true\narguments = [$ENV(HOME)]\nqueue\n")[0], "Args") == "\"[]\"");
}
