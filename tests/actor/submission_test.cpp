// A real submission to the schedd actor and `cara submit -dry-run` go one
// way (model/schedd/submission.h): the same submit file and configuration
// give the same job ads, transforms and submit requirements included.
#include <fstream>
#include <sstream>

#include "actor/pool_fixture.h"
#include "apps/commands/submit_command.h"
#include "model/classad/parser.h"

using namespace cara;
using namespace cara::actors;
using namespace cara::actors::testing;

namespace {

// The thesis's AssignGroup transform (userMap() over the schedd's own map)
// and a submit warning: the parts of admission that depend on the schedd's
// configuration.
const std::string kSchedd =
    "JOB_TRANSFORM_NAMES = AssignGroup\n"
    "JOB_TRANSFORM_AssignGroup @=end\n"
    "   EVALSET AcctGroup = userMap(\"Groups\",Owner,AcctGroup)\n"
    "@end\n"
    "SCHEDD_CLASSAD_USER_MAP_NAMES = Groups\n"
    "CLASSAD_USER_MAPDATA_Groups @=end\n"
    "* alice group_physics\n"
    "@end\n"
    "SUBMIT_REQUIREMENT_NAMES = MinMemory\n"
    "SUBMIT_REQUIREMENT_MinMemory = RequestMemory >= 2048\n"
    "SUBMIT_REQUIREMENT_MinMemory_IS_WARNING = true\n";

std::string read_fixture(const std::string& name) {
  std::ifstream in(std::string(CARA_FIXTURES) + "/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE_METHOD(PoolFixture,
                 "the dry run and the schedd queue the same job ads for the thesis's submit file",
                 "[actors][submit]") {
  const std::string submit_file = read_fixture("thesis/testjob.submit");
  start({}, "", kSchedd);
  SubmitReply reply = submit(submit_file);
  REQUIRE(reply.ok);
  CHECK_FALSE(reply.warning.empty());
  const std::vector<classad::ClassAd> queued = queue();
  REQUIRE(queued.size() == 3);

  auto host = std::make_shared<config::MemoryHost>();
  host->add_file("/etc/cara.conf", std::string(kAccessPoint) + kSchedd);
  host->add_file("test.submit", submit_file);
  // The same moment as the schedd's clock.
  apps::SubmitEnvironment env{"alice", "/tmp", num(queued[0], "QDate"), {}, false};
  std::ostringstream out, err;
  REQUIRE(apps::run_submit({"-dry-run", "-", "test.submit", "--config", "/etc/cara.conf"}, out, err, host,
                           env) == 0);
  CHECK_THAT(err.str(), Catch::Contains("WARNING: " + reply.warning));
  auto dry = classad::parse_long_form_ads(out.str());
  REQUIRE(dry);
  REQUIRE(dry->size() == queued.size());
  for (std::size_t i = 0; i < queued.size(); ++i) {
    INFO("job " << i);
    CHECK(classad::unparse_long_form((*dry)[i]) == classad::unparse_long_form(queued[i]));
  }
  // The transform saw the schedd's map in both.
  CHECK(str(queued[0], "AcctGroup") == "group_physics");
  CHECK(str(queued[0], "User") == "alice@test");
}

TEST_CASE_METHOD(PoolFixture, "a new submitter is advertised as its submission is stored, not a tick later",
                 "[actors][submit]") {
  // The negotiator learns who submits from the collector: a cycle between
  // a new submitter's first submission and its Submitter ad would give its
  // share to the submitters it knows (two negotiators sharding a pool saw
  // one user take a whole shard so).
  start({});
  auto submitters = [&] {
    std::vector<std::string> names;
    for (const WireAd& a : ads(collector::AdType::Submitter).ads) names.push_back(str(a.ad, "Name"));
    return names;
  };
  CHECK(submitters().empty());
  // No virtual time passes: no tick of the schedd's.
  REQUIRE(submit("executable = /bin/true\nqueue 2\n", "alice").ok);
  CHECK(submitters() == std::vector<std::string>{"alice@test"});
  REQUIRE(submit("executable = /bin/true\naccounting_group = physics\nqueue\n", "bob").ok);
  CHECK(submitters() == std::vector<std::string>{"alice@test", "physics.bob@test"});
}
