#include "model/sim/swf_trace.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

using namespace cara::sim;

namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(CARA_FIXTURES) + "/swf/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string error_of(const std::string& text) {
  auto t = parse_swf(text, "t.swf");
  REQUIRE_FALSE(t.ok());
  return t.error();
}

const std::string kJob = "1 0 10 3600 8 -1 -1 8 7200 -1 1 1 1 -1 1 -1 -1 -1\n";

}  // namespace

TEST_CASE("SWF: the header and every field of each job", "[sim][swf]") {
  auto t = parse_swf(fixture("small.swf"), "small.swf");
  INFO((t.ok() ? "" : t.error()));
  REQUIRE(t.ok());
  CHECK(t->header.at("Version") == "2.2");
  CHECK(t->header.at("Computer") == "caracara test pool");
  CHECK(t->header.count("Written for caracara's tests (issue 29)") == 0);  // prose, not a field
  CHECK(t->unix_start_time() == 1700000000);
  CHECK(t->max_processors() == 32);
  REQUIRE(t->jobs.size() == 5);
  const SwfJob& first = t->jobs[0];
  CHECK(first.id == 1);
  CHECK(first.submit_time == 0);
  CHECK(first.wait_time == 10);
  CHECK(first.run_time == 3600);
  CHECK(first.allocated_processors == 8);
  CHECK(first.requested_time == 7200);
  CHECK(first.status == 1);
  CHECK(first.user == 1);
  CHECK(first.group == 1);
  CHECK(first.line == 11);
  // Missing values stay -1; processors fall back to the request, then to one.
  const SwfJob& cancelled = t->jobs[2];
  CHECK(cancelled.run_time == -1);
  CHECK(cancelled.status == 5);
  CHECK(cancelled.processors() == 4);
  const SwfJob& fourth = t->jobs[3];
  CHECK(fourth.processors() == 1);
  CHECK(fourth.preceding_job == 2);
  CHECK(fourth.think_time == 30);
  // Tabs separate fields as well as spaces; run times may have fractions.
  CHECK(t->jobs[4].run_time == 12.5);
  CHECK(t->jobs[4].status == 0);
}

TEST_CASE("SWF: MaxNodes when MaxProcs is absent, nothing when neither is", "[sim][swf]") {
  CHECK(parse_swf("; MaxNodes: 16\n" + kJob, "t.swf")->max_processors() == 16);
  CHECK_FALSE(parse_swf(kJob, "t.swf")->max_processors().has_value());
  CHECK_FALSE(parse_swf("; UnixStartTime: soon\n" + kJob, "t.swf")->unix_start_time().has_value());
  CHECK(parse_swf("", "t.swf")->jobs.empty());
}

TEST_CASE("SWF: a bad line is refused naming the file, the line and the field", "[sim][swf]") {
  CHECK(error_of(kJob + "2 5 0 10 1 -1 -1 1 60 -1 1 2 1 -1 1 -1 -1\n") ==
        "t.swf, line 2: expected the 18 fields of a Standard Workload Format job, found 17");
  CHECK(error_of("; header\n\n1 0 10 1h 8 -1 -1 8 7200 -1 1 1 1 -1 1 -1 -1 -1\n") ==
        "t.swf, line 3: field 4 (run time): '1h' is not a number");
  CHECK(error_of("1 0 10 60 8.5 -1 -1 8 7200 -1 1 1 1 -1 1 -1 -1 -1\n") ==
        "t.swf, line 1: field 5 (allocated processors): '8.5' is not a whole number");
  CHECK(error_of("1 0 10 60 8 -1 -1 8 7200 -1 1 -7 1 -1 1 -1 -1 -1\n") ==
        "t.swf, line 1: field 12 (user id): -7 is negative (only -1, for a missing value, may be)");
  CHECK_THAT(error_of(kJob + kJob), Catch::Contains("line 2: field 1 (job number): 1 does not follow 1"));
  CHECK_THAT(error_of("1 -1 10 60 8 -1 -1 8 7200 -1 1 1 1 -1 1 -1 -1 -1\n"),
             Catch::Contains("line 1: field 2 (submit time): a job must say when it arrived"));
  CHECK_THAT(error_of("1 50 0 60 1 -1 -1 1 60 -1 1 1 1 -1 1 -1 -1 -1\n"
                      "2 40 0 60 1 -1 -1 1 60 -1 1 1 1 -1 1 -1 -1 -1\n"),
             Catch::Contains("line 2: field 2 (submit time): 40 is before the previous job's"));
  CHECK_THAT(error_of("0 0 0 60 1 -1 -1 1 60 -1 1 1 1 -1 1 -1 -1 -1\n"),
             Catch::Contains("job number of 1 or more"));
}
