// `use CATEGORY : TEMPLATE`: the templates the spec and the thesis use.
#include "model/config/templates.h"

#include "tests/unit/config/support.h"

using namespace cara::config;
using namespace cara::config::test;

TEST_CASE("POLICY : Desktop", "[config][templates]") {
  Config c = load("use POLICY : Desktop\n");
  CHECK(val(c, "IS_OWNER") == "(START =?= False)");  // spec: IS_OWNER follows START
  CHECK(*c.integer("StartIdleTime") == 15 * 60);
  CHECK(*c.integer("ContinueIdleTime") == 5 * 60);
  CHECK(*c.integer("MaxSuspendTime") == 10 * 60);
  for (const char* knob :
       {"START", "SUSPEND", "CONTINUE", "PREEMPT", "KILL", "WANT_SUSPEND", "WANT_VACATE"}) {
    INFO(knob);
    CHECK(c.expression(knob).ok());
    CHECK(c.definition(knob)->origin.file == "<template POLICY:Desktop>");
  }
}

TEST_CASE("POLICY : Always_Run_Jobs", "[config][templates]") {
  Config c = load("use policy:always_run_jobs\n");
  CHECK(*c.boolean("START"));
  CHECK(!*c.boolean("SUSPEND"));
  CHECK(!*c.boolean("PREEMPT"));
  CHECK(!*c.boolean("KILL"));
  CHECK(!*c.boolean("WANT_VACATE"));
}

TEST_CASE("a later line overrides what a template set", "[config][templates]") {
  // The thesis (section 4.4): ALLOW_READ is reassigned after the template.
  Config c = load("use SECURITY : HOST_BASED\nALLOW_READ = grid-*.physik.rwth-aachen.de\n");
  CHECK(val(c, "ALLOW_READ") == "grid-*.physik.rwth-aachen.de");
  CHECK(c.defined("ALLOW_WRITE"));
  CHECK(val(load("use SECURITY : Host_Based\n"), "ALLOW_READ") == "*");
}

TEST_CASE("FEATURE : StaticSlots and PartitionableSlot", "[config][templates]") {
  Config s = load("use FEATURE : StaticSlots\n");
  CHECK(val(s, "SLOT_TYPE_1") == "cpus=1");
  CHECK(!*s.boolean("SLOT_TYPE_1_PARTITIONABLE"));
  CHECK(val(s, "NUM_SLOTS_TYPE_1") == val(s, "NUM_CPUS"));
  Config p = load("use FEATURE : PartitionableSlot\nuse FEATURE : PartitionableSlot(2, 25%)\n");
  CHECK(val(p, "SLOT_TYPE_1") == "100%");
  CHECK(*p.boolean("SLOT_TYPE_1_PARTITIONABLE"));
  CHECK(val(p, "SLOT_TYPE_2") == "25%");
  CHECK(*p.integer("NUM_SLOTS_TYPE_2") == 1);
}

TEST_CASE("FEATURE : AssignAccountingGroup(file)", "[config][templates]") {
  Config c = load("USE Feature: AssignAccountingGroup(/etc/cara/groups.map)\n");
  CHECK(val(c, "CLASSAD_USER_MAPFILE_AssignAccountingGroup") == "/etc/cara/groups.map");
  CHECK(*c.list("SCHEDD_CLASSAD_USER_MAP_NAMES") == std::vector<std::string>{"AssignAccountingGroup"});
  CHECK(*c.list("JOB_TRANSFORM_NAMES") == std::vector<std::string>{"AssignAccountingGroup"});
  CHECK_THAT(val(c, "JOB_TRANSFORM_AssignAccountingGroup"),
             Catch::Contains("userMap(\"AssignAccountingGroup\""));
  CHECK(*c.list("SUBMIT_REQUIREMENT_NAMES") == std::vector<std::string>{"AssignAccountingGroup"});
  CHECK(c.expression("SUBMIT_REQUIREMENT_AssignAccountingGroup").ok());
  Config lax = load("use FEATURE : AssignAccountingGroup(/m, false)\n");
  CHECK(lax.list("SUBMIT_REQUIREMENT_NAMES")->empty());
  CHECK_THAT(load_error("use FEATURE : AssignAccountingGroup\n"), Catch::Contains("takes 1 to 2 arguments"));
  CHECK_THAT(load_error("use FEATURE : AssignAccountingGroup(/m, perhaps)\n"),
             Catch::Contains("true or false"));
}

TEST_CASE("an unknown template is a clear error", "[config][templates]") {
  std::string e = load_error("X = 1\nuse POLICY : Sometimes\n");
  CHECK_THAT(e, Catch::Contains("line 2") &&
                    Catch::Contains("unknown configuration template POLICY:Sometimes") &&
                    Catch::Contains("POLICY:Desktop"));
  CHECK_THAT(load_error("use NOCATEGORY : Desktop\n"), Catch::Contains("unknown configuration template"));
  CHECK(template_names().size() >= 6);
}
