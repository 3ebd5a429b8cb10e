// The thesis's appendix configurations (RWTH, 2018) load unchanged and
// give the values they spell out. The files are kept, as printed, in
// tests/fixtures/thesis.
#include <fstream>
#include <sstream>

#include "tests/unit/config/support.h"

using namespace cara::config;
using namespace cara::config::test;

namespace {

Config thesis(const std::string& file, DaemonIdentity who = {"TOOL", ""}) {
  std::ifstream in(std::string(CARA_FIXTURES) + "/thesis/" + file);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  auto h = host();
  h->add_file("/etc/condor/condor_config", text.str());
  LoadOptions o;
  o.config_file = "/etc/condor/condor_config";
  o.who = who;
  auto c = load_config(o, h);
  if (!c) FAIL(c.error());
  return std::move(*c);
}

}  // namespace

TEST_CASE("thesis appendix A.1: the central manager", "[config][thesis]") {
  Config c = thesis("central_manager.config", {"NEGOTIATOR", ""});
  CHECK(*c.integer("PRIORITY_HALFLIFE") == 1136819);
  CHECK(*c.list("GROUP_NAMES") == std::vector<std::string>{"group_cms", "group_cms.cms", "group_cms.dcms",
                                                           "group_auger", "group_icecube"});
  CHECK(*c.boolean("GROUP_ACCEPT_SURPLUS"));
  CHECK(*c.real("GROUP_QUOTA_DYNAMIC_group_auger") == Approx(3.0 / 24));
  CHECK(*c.real("GROUP_QUOTA_DYNAMIC_group_icecube") == Approx(3.0 / 24));
  CHECK(*c.real("GROUP_QUOTA_DYNAMIC_group_cms") == Approx(18.0 / 24));
  CHECK(*c.real("GROUP_QUOTA_DYNAMIC_group_cms.dcms") == Approx(12.0 / 18));
  CHECK(*c.real("GROUP_QUOTA_DYNAMIC_group_cms.cms") == Approx(6.0 / 18));
  // The commented-out quotas stay out.
  CHECK(!c.defined("GROUP_QUOTA_DYNAMIC_group_dteam"));
  // if $(NEGOTIATOR_ENABLE) adds the negotiator.
  CHECK(*c.list("DAEMON_LIST") == std::vector<std::string>{"MASTER", "COLLECTOR", "SCHEDD", "NEGOTIATOR"});
  CHECK(val(c, "COLLECTOR_NAME") == "\"Condor Cluster at physik.rwth-aachen.de\"");
  CHECK(val(c, "SPOOL") == "/var/lib/condor/spool");
  CHECK(val(c, "SSH_TO_JOB_SSHD_CONFIG_TEMPLATE") == "/etc/condor/condor_ssh_to_job_sshd_config_template");
  CHECK(*c.integer("MAXWALLTIME") == 4320);
  CHECK(c.expression("NEGOTIATOR_POST_JOB_RANK").ok());
  auto remove = c.expression("SYSTEM_PERIODIC_REMOVE");
  REQUIRE(remove.ok());
  CHECK(val(c, "SYSTEM_PERIODIC_REMOVE") ==
        "(JobStatus == 5 && time() -EnteredCurrentStatus > 3600*48)|| ((JobStatus == 2)&&((4320>0)&&((time() "
        "-EnteredCurrentStatus) > (60*4320))))");
  // The second `use SECURITY : HOST_BASED` resets ALLOW_WRITE; ALLOW_READ is
  // reassigned after it.
  CHECK(val(c, "ALLOW_READ") == "grid-*.physik.rwth-aachen.de");
  CHECK(val(c, "ALLOW_DAEMON") == "condor_pool@physik.rwth-aachen.de");
}

TEST_CASE("thesis appendix A.2: the execution machine", "[config][thesis]") {
  Config c = thesis("execute_machine.config", {"STARTD", ""});
  CHECK(*c.integer("NUM_CPUS") == 25);
  CHECK(*c.integer("NUM_SLOTS") == 2);
  CHECK(val(c, "SLOT_TYPE_1") == "24/25");
  CHECK(*c.integer("NUM_SLOTS_TYPE_1") == 1);
  CHECK(*c.boolean("SLOT_TYPE_1_PARTITIONABLE"));
  CHECK(val(c, "SLOT_TYPE_2") == "cpu=1, 1/25");
  CHECK(!*c.boolean("SLOT_TYPE_2_PARTITIONABLE"));
  CHECK(*c.integer("CLAIM_WORKLIFE") == 0);
  CHECK(*c.integer("POLLING_INTERVAL") == 30);
  CHECK(!*c.boolean("WANT_VACATE"));
  CHECK(!*c.boolean("WANT_SUSPEND"));
  CHECK(*c.boolean("KILL"));
  CHECK(*c.boolean("START"));
  CHECK(*c.real("BackgroundLoad") == Approx(0.3));
  CHECK(*c.integer("MaxVacateTime") == 600);
  CHECK(val(c, "ActivationTimer") == "ifThenElse(JobStart != UNDEFINED, (time() - JobStart), 0)");
  CHECK(val(c, "PREEMPT") ==
        "ifThenElse(JobStart != UNDEFINED, (time() - JobStart), 0) > 3*(24 * (60 * 60))");
  CHECK(val(c, "SLOT_TYPE_1_START") ==
        "true && (stringListIMember(TARGET.Owner, \"cmss cmsp014 cmsp015 cmspi043 cmspi058\") || "
        "(TARGET.AcctGroup =?= \"group_ops\") || (TARGET.AcctGroup=?= \"group_dteam\")|| "
        "(TARGET.CreamQueue =?= \"short\")) != true");
  CHECK(c.expression("SLOT_TYPE_2_START").ok());
  CHECK_THAT(val(c, "ALLOW_WRITE"), Catch::EndsWith("condor@ root@"));
  // The printed file lost backslashes at six wrapped lines; each is reported.
  CHECK(c.warnings().size() == 6);
}
