// The web endpoint's routes and pages (apps/web/web_routes.h,
// api_json.h): what each path asks for, 4xx with a message for what is
// wrong, the JSON documents, the dashboard's files.
#include "apps/web/web_routes.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "web_fixture.h"

using namespace cara;
using nlohmann::json;

namespace {

constexpr std::int64_t kNow = 1700000000;

web::Route at(const std::string& target, const std::string& method = "GET") {
  return web::route(net::HttpRequest{method, target, "127.0.0.1"}, kNow);
}

net::HttpResponse now(const web::Route& r) {
  const auto* a = std::get_if<net::HttpResponse>(&r);
  REQUIRE(a);
  return *a;
}

json api(web::ApiPage page) {
  const auto s = monitor::summarize(test_web::small_pool(), test_web::groups());
  const net::HttpResponse r = web::render_api(page, s);
  CHECK(r.content_type == "application/json");
  return json::parse(r.body);
}

}  // namespace

TEST_CASE("the routes name the page each path asks for", "[web][routes]") {
  CHECK(std::holds_alternative<web::MetricsPage>(at("/metrics")));
  CHECK(std::get<web::ApiPage>(at("/api/v1/status")) == web::ApiPage::Status);
  CHECK(std::get<web::ApiPage>(at("/api/v1/queue")) == web::ApiPage::Queue);
  CHECK(std::get<web::ApiPage>(at("/api/v1/submitters")) == web::ApiPage::Submitters);
  CHECK(std::get<web::ApiPage>(at("/api/v1/groups")) == web::ApiPage::Groups);
  CHECK(std::get<web::ApiPage>(at("/api/v1/cycles", "HEAD")) == web::ApiPage::Cycles);
  const auto index = now(at("/api/v1"));
  CHECK(json::parse(index.body)["pages"].size() == 6);
}

TEST_CASE("the dashboard's files are served from the binary", "[web][routes]") {
  const auto page = now(at("/"));
  CHECK(page.status == 200);
  CHECK(page.content_type == "text/html; charset=utf-8");
  CHECK(page.body.find("<script src=\"/dashboard.js\">") != std::string::npos);
  // Nothing is loaded from anywhere else (usable with no connection out).
  CHECK(page.body.find("http://") == std::string::npos);
  CHECK(page.body.find("https://") == std::string::npos);
  const auto js = now(at("/dashboard.js"));
  CHECK(js.content_type == "text/javascript; charset=utf-8");
  CHECK(js.body.find("/api/v1/history") != std::string::npos);
  CHECK(js.body.find("https://") == std::string::npos);
  CHECK(now(at("/dashboard.css")).content_type == "text/css; charset=utf-8");
}

TEST_CASE("the history range: defaults, relative times, the type", "[web][routes]") {
  auto h = std::get<web::HistoryPage>(at("/api/v1/history"));
  CHECK(h.from == kNow - 3600);
  CHECK(h.to == kNow);
  CHECK(h.constraint().empty());
  h = std::get<web::HistoryPage>(at("/api/v1/history?from=-600&type=Group"));
  CHECK(h.from == kNow - 600);
  CHECK(h.constraint() == "MyType == \"GroupHistory\"");
  h = std::get<web::HistoryPage>(at("/api/v1/history?from=1000&to=2000&type=Submitter"));
  CHECK(h.from == 1000);
  CHECK(h.to == 2000);
}

TEST_CASE("bad requests get a 4xx naming what is wrong", "[web][routes]") {
  struct Case {
    std::string target, method;
    unsigned status;
    std::string message;
  };
  const Case cases[] = {
      {"/metrics", "POST", 405, "method POST not allowed: the web endpoint is read-only (GET, HEAD)\n"},
      {"/nothing", "GET", 404, "no page /nothing: try /, /metrics or /api/v1\n"},
      {"/api/v2/status", "GET", 404, "no page /api/v2/status: try /, /metrics or /api/v1\n"},
      {"*", "GET", 400, "request target must be a path starting with '/'\n"},
      {"/metrics?debug=1", "GET", 400, "unknown query parameter 'debug': /metrics takes none\n"},
      {"/api/v1/history?from=yesterday", "GET", 400,
       "query parameter 'from': expected Unix seconds (or -N for N seconds ago), got 'yesterday'\n"},
      {"/api/v1/history?from=20&to=10", "GET", 400, "query parameters: from (20) is after to (10)\n"},
      {"/api/v1/history?type=Slot", "GET", 400,
       "query parameter 'type': expected Machine, Submitter, Group or Negotiator, got 'Slot'\n"},
      {"/api/v1/history?limit=5", "GET", 400,
       "unknown query parameter 'limit': /api/v1/history takes from, to and type\n"},
      {"/api/v1/history?from=%zz", "GET", 400, "bad %-escape in query parameter 'from=%zz'\n"},
      {"/api/v1/history?from=%4", "GET", 400, "bad %-escape in query parameter 'from=%4'\n"},
  };
  for (const Case& c : cases) {
    INFO(c.method << " " << c.target);
    const auto r = now(at(c.target, c.method));
    CHECK(r.status == c.status);
    CHECK(r.body == c.message);
  }
  CHECK(web::unavailable(503, "the pool cannot be read now: x").status == 503);
}

TEST_CASE("/api/v1/status: slots, jobs, daemons, negotiators, HA", "[web][api]") {
  const json s = api(web::ApiPage::Status);
  CHECK(s["time"] == 1700000000);
  CHECK(s["machines"] == 2);
  CHECK(s["total_slots"] == 5);
  CHECK(s["cpus_in_use"] == 5.0);
  CHECK(s["jobs"] == json{{"running", 3}, {"idle", 9}, {"held", 3}});
  CHECK(s["slots"].size() == 4);
  CHECK(s["ads"]["Machine"] == 5);
  CHECK(s["negotiators"][0]["last_cycle"]["duration_seconds"] == 0.25);
  CHECK(s["negotiators"][0]["term"] == 3);
  CHECK(s["ha"]["active"] == true);
  bool startd_down = false;
  for (const json& d : s["daemons"])
    if (d["machine"] == "ep1" && d["daemon"] == "STARTD") startd_down = d["up"] == false;
  CHECK(startd_down);
}

TEST_CASE("/api/v1/queue, submitters, groups and cycles", "[web][api]") {
  const json q = api(web::ApiPage::Queue);
  CHECK(q["jobs"]["idle"] == 9);
  const json users = api(web::ApiPage::Submitters)["submitters"];
  REQUIRE(users.size() == 4);  // by name: carol, dave, group_atlas.bob, group_cms.alice
  CHECK(users[3]["name"] == "group_cms.alice@pool");
  CHECK(users[3]["jobs"]["running"] == 3);
  CHECK(users[3]["effective_priority"] == 2500.0);
  CHECK(users[0]["name"] == "carol@pool");
  CHECK_FALSE(users[0].contains("effective_priority"));  // no accountant record yet
  const json groups = api(web::ApiPage::Groups)["groups"];
  REQUIRE(groups.size() == 3);
  CHECK(groups[2]["name"] == "group_cms");
  CHECK(groups[2]["quota"] == 4.0);
  CHECK(groups[2]["allocated"] == 5.0);
  CHECK(groups[2]["in_use"] == 3.0);
  CHECK(groups[2]["jobs"]["running"] == 3);
  const json cycles = api(web::ApiPage::Cycles)["negotiators"];
  CHECK(cycles[0]["cycles"] == 42);
  CHECK(cycles[0]["last_cycle"]["matches"] == 3);
}

TEST_CASE("/api/v1/history: each row an object of its attributes", "[web][api]") {
  const std::vector<classad::ClassAd> rows = {
      test_ads::ad(
          R"([ MyType = "GroupHistory"; Time = 100; Name = "group_cms"; RunningJobs = 2; IdleJobs = 1 ])"),
      test_ads::ad(R"([ MyType = "NegotiatorHistory"; Time = 100; Name = "cm"; CycleDuration = 0.5 ])")};
  const auto r = web::render_history(web::HistoryPage{50, 150, {}}, rows);
  const json h = json::parse(r.body);
  CHECK(h["from"] == 50);
  CHECK(h["to"] == 150);
  REQUIRE(h["rows"].size() == 2);
  CHECK(h["rows"][0] == json{{"MyType", "GroupHistory"},
                             {"Time", 100},
                             {"Name", "group_cms"},
                             {"RunningJobs", 2},
                             {"IdleJobs", 1}});
  CHECK(h["rows"][1]["CycleDuration"] == 0.5);
}

TEST_CASE("a name that is not UTF-8 does not break the JSON", "[web][api]") {
  monitor::PoolSummary s;
  monitor::SubmitterSummary u;
  u.name = "bad\xff@pool";
  s.submitters.push_back(u);
  const auto r = web::render_api(web::ApiPage::Submitters, s);
  CHECK(json::parse(r.body)["submitters"][0]["name"] == "bad\xef\xbf\xbd@pool");
}
