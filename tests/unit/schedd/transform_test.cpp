// Job transforms (policy-configuration-ep-ap, "Job Transforms"): the
// spec's two examples verbatim, then each rule of the language.
#include <catch2/catch.hpp>

#include "model/classad/parser.h"
#include "model/config/map_file.h"
#include "model/schedd/job_transform.h"
#include "unit/schedd/support.h"

using namespace cara;
using namespace cara::schedd;
using namespace cara::schedd_test;

namespace {

// The spec's configuration, as written in the manual.
const std::string kSpecTransforms =
    "JOB_TRANSFORM_NAMES = AssignGroup, SL6ToDocker\n"
    "JOB_TRANSFORM_AssignGroup @=end\n"
    "   # map Owner to group using the existing accounting group attribute as requested group\n"
    "   EVALSET AcctGroup = userMap(\"Groups\",Owner,AcctGroup)\n"
    "   EVALSET AccountingGroup = join(\".\",AcctGroup,Owner)\n"
    "@end\n"
    "JOB_TRANSFORM_SL6ToDocker @=end\n"
    "   # match only vanilla jobs that have WantSL6 and do not already have a DockerImage\n"
    "   REQUIREMENTS JobUniverse==5 && WantSL6 && DockerImage =?= undefined\n"
    "   SET WantDocker = true\n"
    "   SET DockerImage = \"SL6\"\n"
    "   SET Requirements = TARGET.HasDocker && $(MY.Requirements)\n"
    "@end\n"
    "SCHEDD_CLASSAD_USER_MAP_NAMES = Groups\n"
    "CLASSAD_USER_MAPDATA_Groups @=end\n"
    "* cms001 group_cms,group_physics\n"
    "* /^atlas.*/ group_atlas\n"
    "@end\n";

struct Transforming : Submit {
  std::vector<JobTransform> transforms;
  std::shared_ptr<config::UserMapSet> maps;
  classad::EvalEnv env;

  explicit Transforming(const std::string& config_text) : Submit(config_text) {
    auto t = load_job_transforms(*config);
    if (!t) FAIL(t.error());
    transforms = std::move(*t);
    auto m = config::load_user_maps(*config, *host);
    if (!m) FAIL(m.error());
    maps = *m;
    env.user_maps = maps.get();
  }
  classad::ClassAd transformed(const std::string& submit_text) {
    classad::ClassAd job = ok(submit_text).at(0);
    auto s = apply_job_transforms(transforms, job, &*config, env);
    if (!s) FAIL(s.error());
    return job;
  }
};

classad::ClassAd ad(const std::string& text) {
  auto a = classad::parse_classad(text);
  if (!a) FAIL(a.error());
  return std::move(*a);
}

std::string apply_one(const std::string& rules, classad::ClassAd& job) {
  auto t = JobTransform::parse("T", rules);
  if (!t) return "parse: " + t.error();
  auto applied = t->apply(job, nullptr, {});
  if (!applied) return "apply: " + applied.error();
  return *applied ? "applied" : "skipped";
}

}  // namespace

TEST_CASE("the spec's AssignGroup transform maps the owner to a group with userMap",
          "[schedd][transform][spec]") {
  Transforming t(kSpecTransforms);
  // No group requested: the first group of the owner's map line.
  classad::ClassAd job = t.transformed(kExe + "queue\n");
  CHECK(value(job, "AcctGroup") == "\"group_cms\"");
  CHECK(value(job, "AccountingGroup") == "\"group_cms.cms001\"");
  // A requested group the map allows is kept (userMap's preferred group).
  job = t.transformed(kExe + "accounting_group = group_physics\nqueue\n");
  CHECK(value(job, "AcctGroup") == "\"group_physics\"");
  CHECK(value(job, "AccountingGroup") == "\"group_physics.cms001\"");
  // One it does not allow is replaced by the first allowed one.
  job = t.transformed(kExe + "accounting_group = group_atlas\nqueue\n");
  CHECK(value(job, "AcctGroup") == "\"group_cms\"");
  // EVALSET stores the value, not the expression.
  CHECK(attr(job, "AccountingGroup") == "\"group_cms.cms001\"");
}

TEST_CASE("the spec's SL6ToDocker transform applies only where its REQUIREMENTS hold",
          "[schedd][transform][spec]") {
  Transforming t(kSpecTransforms);
  classad::ClassAd plain = t.transformed(kExe + "queue\n");
  CHECK(attr(plain, "WantDocker") == "<none>");
  const std::string original = attr(plain, "Requirements");

  classad::ClassAd sl6 = t.transformed(kExe + "+WantSL6 = true\nqueue\n");
  CHECK(attr(sl6, "WantDocker") == "true");
  CHECK(attr(sl6, "DockerImage") == "\"SL6\"");
  // $(MY.Requirements) is the job's own Requirements as written.
  CHECK(attr(sl6, "Requirements") == "TARGET.HasDocker && " + original);

  classad::ClassAd has_image = t.transformed(kExe + "+WantSL6 = true\n+DockerImage = \"EL9\"\nqueue\n");
  CHECK(attr(has_image, "DockerImage") == "\"EL9\"");
  CHECK(attr(has_image, "WantDocker") == "<none>");
}

TEST_CASE("transform rules, one by one", "[schedd][transform]") {
  struct Row {
    const char* rules;
    const char* job;
    const char* attribute;
    const char* expected;  // unparsed, or <none>
  };
  const Row rows[] = {
      {"SET Foo = 1 + 2", "[ ]", "Foo", "1 + 2"},
      {"SET Foo 1 + 2", "[ ]", "Foo", "1 + 2"},  // '=' is optional
      {"set Foo = Bar", "[ Foo = 1 ]", "Foo", "Bar"},
      {"DEFAULT Foo = 7", "[ ]", "Foo", "7"},
      {"DEFAULT Foo = 7", "[ Foo = 3 ]", "Foo", "3"},
      {"EVALSET Foo = Bar * 2", "[ Bar = 21 ]", "Foo", "42"},
      {"EVALSET Foo = strcat(Owner, \"!\")", "[ Owner = \"ann\" ]", "Foo", "\"ann!\""},
      {"EVALMACRO n = Bar + 1\nSET Foo = $(n) * 10", "[ Bar = 4 ]", "Foo", "5 * 10"},
      {"EVALMACRO who = Owner\nSET Foo = \"$(who)-x\"", "[ Owner = \"ann\" ]", "Foo", "\"ann-x\""},
      {"prefix = big\nSET Foo = \"$(prefix)\"", "[ ]", "Foo", "\"big\""},
      {"SET Foo = \"$(undefined_macro:dflt)\"", "[ ]", "Foo", "\"dflt\""},
      {"SET Foo = $(MY.Bar) + 1", "[ Bar = x * 2 ]", "Foo", "x * 2 + 1"},
      {"COPY Bar Foo", "[ Bar = x + 1 ]", "Foo", "x + 1"},
      {"COPY Bar Foo", "[ Bar = x + 1 ]", "Bar", "x + 1"},
      {"RENAME Bar Foo", "[ Bar = 5 ]", "Foo", "5"},
      {"RENAME Bar Foo", "[ Bar = 5 ]", "Bar", "<none>"},
      {"DELETE Bar", "[ Bar = 5 ]", "Bar", "<none>"},
      {"DELETE Nothing", "[ Bar = 5 ]", "Bar", "5"},
      {"COPY /^Orig(.*)$/ Saved\\1", "[ OrigCpus = 4; OrigMemory = 10 ]", "SavedMemory", "10"},
      {"RENAME /^Orig(.*)$/ \\1", "[ OrigCpus = 4 ]", "Cpus", "4"},
      {"RENAME /^Orig(.*)$/ \\1", "[ OrigCpus = 4 ]", "OrigCpus", "<none>"},
      {"DELETE /^tmp_/", "[ tmp_a = 1; tmp_b = 2; keep = 3 ]", "tmp_b", "<none>"},
      {"DELETE /^tmp_/", "[ tmp_a = 1; tmp_b = 2; keep = 3 ]", "keep", "3"},
      {"UNIVERSE vanilla", "[ ]", "JobUniverse", "5"},
      {"REQUIREMENTS Owner == \"ann\"\nSET Foo = 1", "[ Owner = \"ann\" ]", "Foo", "1"},
      {"REQUIREMENTS Owner == \"ann\"\nSET Foo = 1", "[ Owner = \"bob\" ]", "Foo", "<none>"},
      // REQUIREMENTS decides wherever it is written, and undefined is no.
      {"SET Foo = 1\nREQUIREMENTS Missing", "[ ]", "Foo", "<none>"},
  };
  for (const Row& r : rows) {
    INFO(r.rules << "  on  " << r.job);
    classad::ClassAd job = ad(r.job);
    const std::string outcome = apply_one(r.rules, job);
    CHECK((outcome == "applied" || outcome == "skipped"));
    CHECK(attr(job, r.attribute) == r.expected);
  }
}

TEST_CASE("every matching transform applies, in JOB_TRANSFORM_NAMES order", "[schedd][transform]") {
  Transforming t(
      "JOB_TRANSFORM_NAMES = First Second Third\n"
      "JOB_TRANSFORM_First = SET Stage = 1\n"
      "JOB_TRANSFORM_Second @=end\n"
      "  REQUIREMENTS Stage == 1\n"
      "  EVALSET Stage = Stage + 1\n"
      "@end\n"
      "JOB_TRANSFORM_Third @=end\n"
      "  REQUIREMENTS Stage == 1\n"
      "  SET Unreached = true\n"
      "@end\n");
  classad::ClassAd job = t.transformed(kExe + "queue\n");
  CHECK(attr(job, "Stage") == "2");           // Second saw First's change
  CHECK(attr(job, "Unreached") == "<none>");  // Third saw Second's
}

TEST_CASE("transform errors name the transform, the line and what was expected",
          "[schedd][transform][errors]") {
  classad::ClassAd job = ad("[ A = 1 ]");
  CHECK_THAT(apply_one("SET A = 1\nFROB A", job),
             Catch::Contains("JOB_TRANSFORM_T, line 2: unknown rule 'FROB'"));
  CHECK_THAT(apply_one("SET A = (1 +", job), Catch::Contains("line 1: '(1 +' is not a ClassAd expression"));
  CHECK_THAT(apply_one("SET", job), Catch::Contains("expected an attribute name"));
  CHECK_THAT(apply_one("SET A", job), Catch::Contains("expected an expression after A"));
  CHECK_THAT(apply_one("COPY A", job),
             Catch::Contains("COPY expects an attribute (or /regex/) and a new name"));
  CHECK_THAT(apply_one("DELETE /(/", job), Catch::Contains("bad regular expression"));
  CHECK_THAT(apply_one("UNIVERSE grid", job), Catch::Contains("universe 'grid' is not supported"));
  // An expression that only breaks once expanded fails at apply time and
  // leaves the job untouched.
  CHECK_THAT(apply_one("SET B = 2\nSET A = $(MY.Missing) +", job),
             Catch::Contains("apply: JOB_TRANSFORM_T, line 2"));
  CHECK(attr(job, "B") == "<none>");

  Submit missing("JOB_TRANSFORM_NAMES = Ghost\n");
  auto t = load_job_transforms(*missing.config);
  REQUIRE_FALSE(t);
  CHECK_THAT(t.error(),
             Catch::Contains("JOB_TRANSFORM_NAMES lists Ghost but JOB_TRANSFORM_Ghost is not defined"));
}
