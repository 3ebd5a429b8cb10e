#include "model/sim/swf_submissions.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "model/classad/eval.h"
#include "model/classad/unparse.h"
#include "model/config/config.h"
#include "model/config/config_host.h"

using namespace cara;
using namespace cara::sim;

namespace {

SwfTrace small_trace() {
  std::ifstream in(std::string(CARA_FIXTURES) + "/swf/small.swf");
  std::stringstream s;
  s << in.rdbuf();
  auto t = parse_swf(s.str(), "small.swf");
  REQUIRE(t.ok());
  return *t;
}

std::string value(const classad::ClassAd& ad, const std::string& name) {
  return classad::unparse(classad::evaluate_attr(ad, name, nullptr, {}));
}

}  // namespace

TEST_CASE("an SWF trace as submissions, built by the schedd's own submission path", "[sim][swf]") {
  SwfMapping mapping;
  mapping.groups = true;
  const SwfSubmissions subs = swf_submissions(small_trace(), mapping, "small.swf");
  // Job 3 was cancelled before it ran: there is no run time to replay.
  REQUIRE(subs.jobs.size() == 4);
  REQUIRE(subs.skipped.size() == 1);
  CHECK(subs.skipped[0] == "small.swf, line 13, job 3: no run time (status 5)");
  CHECK(subs.jobs[0].at == 0);
  CHECK(subs.jobs[1].at == 30);
  CHECK(subs.jobs[3].run_time == 12.5);

  auto host = std::make_shared<config::MemoryHost>();
  auto config = config::config_from_text("", {"SCHEDD", ""}, host);
  REQUIRE(config.ok());
  const schedd::SubmitSite site{"sim.pool", &*config, host.get()};
  std::vector<classad::ClassAd> ads;
  for (std::size_t i = 0; i < subs.jobs.size(); ++i) {
    auto built = schedd::build_submission(static_cast<std::int64_t>(i + 1), subs.jobs[i].submission, site,
                                          1700000000 + static_cast<std::int64_t>(subs.jobs[i].at));
    INFO(subs.jobs[i].submission.description);
    REQUIRE(built.ok());
    REQUIRE(built->size() == 1);
    ads.push_back((*built)[0]);
  }
  const classad::ClassAd& first = ads[0];
  CHECK(value(first, "Owner") == "\"u1\"");
  CHECK(value(first, "RequestCpus") == "8");
  CHECK(value(first, "AcctGroup") == "\"group_g1\"");
  CHECK(value(first, "AcctGroupUser") == "\"u1\"");
  CHECK(value(first, "SimulatedRunTime") == "3600.0");
  CHECK(value(first, "SimulatedRequestedTime") == "7200.0");
  CHECK(value(first, "SwfJobId") == "1");
  CHECK(value(first, "QDate") == "1700000000");
  // Job 4 gave no processors: one; job 5 ran 12.5 s on the two it was given.
  CHECK(value(ads[2], "RequestCpus") == "1");
  CHECK(value(ads[2], "AcctGroup") == "\"group_g2\"");
  CHECK(value(ads[3], "RequestCpus") == "2");
  CHECK(value(ads[3], "SimulatedRunTime") == "12.5");
  CHECK(value(ads[3], "QDate") == "1700000090");

  SECTION("without groups, no accounting group") {
    const SwfSubmissions plain = swf_submissions(small_trace(), SwfMapping{}, "small.swf");
    CHECK(plain.jobs[0].submission.description.find("accounting_group") == std::string::npos);
    CHECK(plain.jobs[0].submission.owner == "u1");
  }
  SECTION("requested memory, kilobytes per processor, becomes the job's MiB") {
    SwfTrace t;
    SwfJob j;
    j.id = 1;
    j.submit_time = 0;
    j.run_time = 10;
    j.allocated_processors = 4;
    j.requested_memory = 1000;
    j.user = 7;
    t.jobs.push_back(j);
    const SwfSubmissions m = swf_submissions(t, SwfMapping{}, "m.swf");
    auto built = schedd::build_submission(1, m.jobs[0].submission, site, 0);
    REQUIRE(built.ok());
    CHECK(value((*built)[0], "RequestMemory") == "4");  // ceil(4 × 1000 KB / 1024)
    CHECK(value((*built)[0], "Owner") == "\"u7\"");
  }
}
