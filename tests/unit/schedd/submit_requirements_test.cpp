// Submit requirements and warnings (policy-configuration-ep-ap, "Submit
// Requirements", "Submit Warnings"), with the spec's examples verbatim.
#include "model/schedd/submit_requirements.h"

#include <catch2/catch.hpp>

#include "model/schedd/queue_policy.h"
#include "unit/schedd/support.h"

using namespace cara;
using namespace cara::schedd;
using namespace cara::schedd_test;

namespace {

const std::string kSpec =
    "SUBMIT_REQUIREMENT_NAMES = NotStandardUniverse, MinimalRequestMemory, NotChris\n"
    "SUBMIT_REQUIREMENT_NotStandardUniverse = JobUniverse != 1\n"
    "SUBMIT_REQUIREMENT_MinimalRequestMemory = RequestMemory > 512\n"
    "SUBMIT_REQUIREMENT_NotChris = Owner != \"chris\"\n"
    "SUBMIT_REQUIREMENT_NotStandardUniverse_REASON = \"This pool does not accept standard universe jobs.\"\n"
    "SUBMIT_REQUIREMENT_MinimalRequestMemory_REASON = strcat( \"The job only requested \", \\\n"
    "  RequestMemory, \" Megabytes. If that small amount is really enough, please contact ...\" )\n"
    "SUBMIT_REQUIREMENT_NotChris_REASON = \"Chris, you may only submit jobs to the instructional pool.\"\n";

struct Admitting : Submit {
  QueuePolicy policy;
  explicit Admitting(const std::string& config_text) : Submit(config_text) {
    auto p = QueuePolicy::from_config(*config, "ap.example.org");
    if (!p) FAIL(p.error());
    policy = std::move(*p);
  }
  Result<Admission> admit(const std::string& submit_text, std::vector<classad::ClassAd>* out = nullptr,
                          int universe = 5) {
    std::vector<classad::ClassAd> jobs = ok(submit_text);
    for (classad::ClassAd& j : jobs) j.set("JobUniverse", universe);
    auto a = admit_cluster(policy, jobs, {});
    if (out) *out = jobs;
    return a;
  }
};

}  // namespace

TEST_CASE("the spec's three submit requirements", "[schedd][submit-requirements][spec]") {
  Admitting a(kSpec);
  CHECK(a.admit(kExe + "request_memory = 1024\nqueue\n"));
  // A standard-universe job (JobUniverse 1) fails the first and only that
  // one is reported, though it fails the memory requirement too.
  // (submit refuses universe = standard, so the ad is made one by hand)
  auto standard = a.admit(kExe + "request_memory = 100\nqueue\n", nullptr, 1);
  REQUIRE_FALSE(standard);
  CHECK(standard.error() == "This pool does not accept standard universe jobs.");
  auto small = a.admit(kExe + "request_memory = 100\nqueue\n");
  REQUIRE_FALSE(small);
  CHECK(small.error() ==
        "The job only requested 100 Megabytes. If that small amount is really enough, please contact ...");
  a.ctx.owner = "chris";
  auto chris = a.admit(kExe + "request_memory = 1024\nqueue\n");
  REQUIRE_FALSE(chris);
  CHECK(chris.error() == "Chris, you may only submit jobs to the instructional pool.");
}

TEST_CASE("one rejected job rejects its whole cluster and leaves it unchanged",
          "[schedd][submit-requirements]") {
  Admitting a(kSpec + "JOB_TRANSFORM_NAMES = Mark\nJOB_TRANSFORM_Mark = SET Marked = true\n");
  std::vector<classad::ClassAd> jobs;
  auto r = a.admit(kExe + "request_memory = $(Process) * 1000\nqueue 3\n", &jobs);
  REQUIRE_FALSE(r);  // job 0 asks for 0 MB
  CHECK_THAT(r.error(), Catch::StartsWith("The job only requested 0 Megabytes."));
  REQUIRE(jobs.size() == 3);
  CHECK(attr(jobs[1], "Marked") == "<none>");
}

TEST_CASE("requirements see the schedd's ad as MY and the transformed job as TARGET",
          "[schedd][submit-requirements]") {
  Admitting a(
      "SCHEDD_ATTRS = MaxJobCpus\nMaxJobCpus = 8\n"
      "JOB_TRANSFORM_NAMES = Double\nJOB_TRANSFORM_Double = EVALSET RequestCpus = RequestCpus * 2\n"
      "SUBMIT_REQUIREMENT_NAMES = Cpus\n"
      "SUBMIT_REQUIREMENT_Cpus = TARGET.RequestCpus <= MY.MaxJobCpus && MY.Name == \"ap.example.org\"\n");
  CHECK(a.admit(kExe + "request_cpus = 4\nqueue\n"));
  auto r = a.admit(kExe + "request_cpus = 5\nqueue\n");
  REQUIRE_FALSE(r);
  // Without a _REASON, the message names the requirement.
  CHECK(r.error() == "Submit requirement Cpus evaluated to non-true");
}

TEST_CASE("undefined is a failure: only true admits", "[schedd][submit-requirements]") {
  Admitting a(
      "SUBMIT_REQUIREMENT_NAMES = Project\nSUBMIT_REQUIREMENT_Project = ProjectName =!= undefined && "
      "ProjectName != \"\"\nSUBMIT_REQUIREMENT_Loose = NoSuchAttr\n");
  CHECK_FALSE(a.admit(kExe + "queue\n"));
  CHECK(a.admit(kExe + "+ProjectName = \"x\"\nqueue\n"));
}

TEST_CASE("the spec's submit warning admits the job and reports the last warning",
          "[schedd][submit-requirements][spec]") {
  Admitting a(
      "SUBMIT_REQUIREMENT_NAMES = MinimalRequestMemory\n"
      "SUBMIT_REQUIREMENT_MinimalRequestMemory = RequestMemory > 512\n"
      // The spec's example, verbatim (it prepends to the list).
      "SUBMIT_REQUIREMENT_NAMES = OneGig $(SUBMIT_REQUIREMENT_NAMES)\n"
      "SUBMIT_REQUIREMENT_OneGig = RequestMemory > 1024\n"
      "SUBMIT_REQUIREMENT_OneGig_REASON = \"As of <date>, the minimum requested memory will be 1024.\"\n"
      "SUBMIT_REQUIREMENT_OneGig_IS_WARNING = TRUE\n");
  auto mid = a.admit(kExe + "request_memory = 800\nqueue\n");
  REQUIRE(mid);
  REQUIRE(mid->warning);
  CHECK(*mid->warning == "As of <date>, the minimum requested memory will be 1024.");
  auto big = a.admit(kExe + "request_memory = 2048\nqueue\n");
  REQUIRE(big);
  CHECK_FALSE(big->warning);
  // A warning does not stop the evaluation: the hard requirement after it
  // still rejects.
  auto small = a.admit(kExe + "request_memory = 100\nqueue\n");
  REQUIRE_FALSE(small);
  CHECK(small.error() == "Submit requirement MinimalRequestMemory evaluated to non-true");
}

TEST_CASE("bad submit requirement configuration is reported by name",
          "[schedd][submit-requirements][errors]") {
  Submit missing("SUBMIT_REQUIREMENT_NAMES = Ghost\n");
  auto r = load_submit_requirements(*missing.config);
  REQUIRE_FALSE(r);
  CHECK_THAT(r.error(), Catch::Contains("SUBMIT_REQUIREMENT_NAMES lists Ghost but SUBMIT_REQUIREMENT_Ghost"));
  Submit bad("SUBMIT_REQUIREMENT_NAMES = B\nSUBMIT_REQUIREMENT_B = RequestMemory >\n");
  r = load_submit_requirements(*bad.config);
  REQUIRE_FALSE(r);
  CHECK_THAT(r.error(), Catch::Contains("SUBMIT_REQUIREMENT_B (<text>, line 2)"));
  CHECK_THAT(r.error(), Catch::Contains("is not a ClassAd expression"));
}
