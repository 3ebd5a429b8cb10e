// The central manager's web endpoint on a running pool (issue 24): jobs in
// two groups, then /metrics (checked by promtool), /api/v1 (checked against
// `cara status` and `cara q`), the pool history, bad requests, and the
// dashboard loaded in headless Chromium, whose DOM must show the groups and
// numbers of the pool; its screenshot is kept as a test artefact.
#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <thread>

#include "integration/pool_support.h"
#include "tests/support/http_client.h"

namespace fs = std::filesystem;
using namespace cara::test;
using nlohmann::json;

namespace {

std::optional<json> get_json(int port, const std::string& path) {
  auto r = http_get(port, path);
  if (!r || r->status != 200) return std::nullopt;
  return json::parse(r->body, nullptr, false);
}

// How many lines of `cara q -af JobStatus` (of `which`) say `status`.
int jobs_in(Pool& pool, const fs::path& ap, const std::string& which, int status) {
  std::vector<std::string> args{"q"};
  if (!which.empty()) args.push_back(which);
  for (const char* a : {"-af", "JobStatus"}) args.push_back(a);
  auto r = pool.tool(ap, args);
  std::istringstream lines(r.out);
  int n = 0, s = 0;
  while (lines >> s) n += s == status;
  return n;
}

// Slots by "State/Activity" as `cara status` shows them.
std::map<std::string, int> status_slots(const std::string& conf) {
  auto r = run_process({CARA_BINARY, "status", "--config", conf, "-af", "State", "Activity"});
  std::map<std::string, int> out;
  std::istringstream lines(r.out);
  std::string state, activity;
  while (lines >> state >> activity) ++out[state + "/" + activity];
  return out;
}

std::map<std::string, int> api_slots(const json& status) {
  std::map<std::string, int> out;
  for (const json& s : status["slots"])
    out[s["state"].get<std::string>() + "/" + s["activity"].get<std::string>()] = s["slots"].get<int>();
  return out;
}

const json* group_in(const json& groups, const std::string& name) {
  for (const json& g : groups["groups"])
    if (g["name"] == name) return &g;
  return nullptr;
}

}  // namespace

TEST_CASE("the web endpoint shows the running pool: metrics, API and dashboard", "[integration][pool][web]") {
  Pool pool;
  const int web = free_port();
  // Four cpus; group_a may use three, group_b one: one of group_a's four
  // jobs waits. The history is sampled every second.
  const fs::path ap = pool.start_all("NUM_CPUS = 2\n",
                                     "GROUP_NAMES = group_a, group_b\nGROUP_QUOTA_group_a = 3\n"
                                     "GROUP_QUOTA_group_b = 1\nWEB_PORT = " +
                                         std::to_string(web) +
                                         "\nWEB_REFRESH_INTERVAL = 0.2\nKEEP_POOL_HISTORY = True\n"
                                         "POOL_HISTORY_SAMPLING_INTERVAL = 1\n",
                                     "CLAIM_PARTITIONABLE_LEFTOVERS = False\n");
  require_within(
      pool, "the web endpoint starts",
      [&] {
        return read(pool.dir / "cm/log/MasterLog").find("web endpoint on http://127.0.0.1:") !=
               std::string::npos;
      },
      30);
  auto submit = [&](const std::string& name, const std::string& group, int n) {
    const fs::path sub = pool.dir / (name + ".sub");
    std::ofstream(sub) << "executable = /bin/sleep\narguments = 600\nrequest_cpus = 1\naccounting_group = "
                       << group << "\nqueue " << n << "\n";
    auto r = pool.tool(ap, {"submit", sub.string()});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
  };
  submit("a", "group_a", 4);  // cluster 1
  submit("b", "group_b", 1);  // cluster 2
  require_within(
      pool, "three of group_a's jobs and group_b's one run",
      [&] { return jobs_in(pool, ap, "1", 2) == 3 && jobs_in(pool, ap, "2", 2) == 1; }, 90);
  CHECK(jobs_in(pool, ap, "1", 1) == 1);
  const std::string reader = pool.client("reader", ap);

  // The API agrees with cara q (the Submitter ads follow the queue).
  json groups, queue, status;
  require_within(
      pool, "the API's groups and queue agree with cara q",
      [&] {
        auto g = get_json(web, "/api/v1/groups");
        auto q = get_json(web, "/api/v1/queue");
        if (!g || !q) return false;
        groups = *g;
        queue = *q;
        const json* a = group_in(groups, "group_a");
        const json* b = group_in(groups, "group_b");
        return a && b && (*a)["jobs"]["running"] == 3 && (*a)["jobs"]["idle"] == 1 &&
               (*b)["jobs"]["running"] == 1 && queue["jobs"]["running"] == 4 && queue["jobs"]["idle"] == 1;
      },
      60);
  CHECK(queue["jobs"]["running"].get<int>() == jobs_in(pool, ap, "", 2));
  CHECK(queue["jobs"]["idle"].get<int>() == jobs_in(pool, ap, "", 1));
  // Quotas from the negotiator's groups.
  require_within(
      pool, "the negotiator's quotas reach the API",
      [&] {
        auto g = get_json(web, "/api/v1/groups");
        if (!g) return false;
        groups = *g;
        const json* a = group_in(groups, "group_a");
        return a && a->contains("quota") && (*a)["quota"] == 3.0 && (*a)["in_use"] == 3.0;
      },
      60);
  // Slots as cara status shows them.
  require_within(
      pool, "the API's slots agree with cara status",
      [&] {
        auto s = get_json(web, "/api/v1/status");
        if (!s) return false;
        status = *s;
        return api_slots(status) == status_slots(reader);
      },
      60);
  CHECK(status["jobs"]["running"] == 4);
  CHECK(status["negotiators"].size() == 1);
  CHECK(status["negotiators"][0]["name"] == "cm.pool");
  CHECK(status["negotiators"][0]["cycles"].get<int>() >= 1);
  CHECK(status["negotiators"][0]["last_cycle"]["duration_seconds"].get<double>() > 0);  // timed, not 0
  bool all_up = true;
  for (const json& d : status["daemons"]) all_up = all_up && d["up"] == true;
  CHECK(all_up);
  CHECK(status["daemons"].size() == 9);  // cm: MASTER COLLECTOR NEGOTIATOR; ep1, ep2, ap: MASTER and one
  auto users = get_json(web, "/api/v1/submitters");
  REQUIRE(users);
  bool has_priority = false;
  for (const json& u : (*users)["submitters"])
    has_priority = has_priority || u.contains("effective_priority");
  CHECK(has_priority);

  // /metrics: what the API says, in a text promtool accepts.
  auto m = http_get(web, "/metrics");
  REQUIRE(m);
  CHECK(m->status == 200);
  CHECK(m->header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8");
  INFO(m->body);
  CHECK(m->body.find("caracara_group_jobs{group=\"group_a\",status=\"running\"} 3\n") != std::string::npos);
  CHECK(m->body.find("caracara_group_jobs{group=\"group_b\",status=\"running\"} 1\n") != std::string::npos);
  CHECK(m->body.find("caracara_group_quota{group=\"group_a\"} 3\n") != std::string::npos);
  CHECK(m->body.find("caracara_daemon_up{machine=\"ep1.pool\",daemon=\"STARTD\"} 1\n") != std::string::npos);
  CHECK(m->body.find("caracara_negotiation_cycles_total{negotiator=\"cm.pool\"}") != std::string::npos);
  std::ofstream(pool.dir / "metrics.txt") << m->body;
  auto lint =
      run_process({"/bin/sh", "-c", "promtool check metrics < " + (pool.dir / "metrics.txt").string()});
  INFO(lint.out + lint.err);
  CHECK(lint.exit_code == 0);
  CHECK(lint.out + lint.err == "");

  // The pool history, by time range.
  require_within(
      pool, "the pool history has group_a's three running jobs",
      [&] {
        auto h = get_json(web, "/api/v1/history?from=-600&type=Group");
        if (!h) return false;
        for (const json& r : (*h)["rows"])
          if (r["Name"] == "group_a" && r["RunningJobs"] == 3) return true;
        return false;
      },
      30);

  // Bad requests.
  auto missing = http_get(web, "/nope");
  REQUIRE(missing);
  CHECK(missing->status == 404);
  CHECK(missing->body == "no page /nope: try /, /metrics or /api/v1\n");
  auto post = http_get(web, "/metrics", "POST");
  REQUIRE(post);
  CHECK(post->status == 405);
  auto bad = http_get(web, "/api/v1/history?from=x");
  REQUIRE(bad);
  CHECK(bad->status == 400);

  // The dashboard in headless Chromium: its DOM after the scripts ran.
  const fs::path artefacts = CARA_ARTEFACT_DIR;
  fs::create_directories(artefacts);
  const std::vector<std::string> chromium{"/usr/bin/chromium",
                                          "--headless",
                                          "--no-sandbox",
                                          "--disable-gpu",
                                          "--disable-quic",
                                          "--no-first-run",
                                          "--disable-background-networking",
                                          "--disable-component-update",
                                          "--disable-sync",
                                          "--user-data-dir=" + (pool.dir / "chromium").string(),
                                          "--virtual-time-budget=15000",
                                          "--window-size=1400,2400"};
  const std::string url = "http://127.0.0.1:" + std::to_string(web) + "/";
  auto dom_args = chromium;
  dom_args.push_back("--dump-dom");
  dom_args.push_back(url);
  auto dom = run_process(dom_args, "", 120000);
  INFO(dom.err);
  REQUIRE(dom.exit_code == 0);
  const std::string& d = dom.out;
  CHECK(d.find("data-ready=\"1\"") != std::string::npos);
  // The groups table and charts name the groups with their numbers.
  const std::regex a_running(R"(<tr data-group="group_a">.*?<td data-field="running" class="n">3</td>)");
  const std::regex a_idle(R"(<tr data-group="group_a">.*?<td data-field="idle" class="n">1</td>)");
  const std::regex b_running(R"(<tr data-group="group_b">.*?<td data-field="running" class="n">1</td>)");
  const std::regex a_quota(R"(<tr data-group="group_a">.*?<td data-field="quota" class="n">3</td>)");
  CHECK(std::regex_search(d, a_running));
  CHECK(std::regex_search(d, a_idle));
  CHECK(std::regex_search(d, b_running));
  CHECK(std::regex_search(d, a_quota));
  CHECK(d.find("<span data-series=\"group_a\" data-value=\"3\"") !=
        std::string::npos);                                         // running chart legend
  CHECK(d.find("<g data-name=\"group_a\">") != std::string::npos);  // quota bars
  CHECK(d.find("data-card=\"running\"><div class=\"value\">4</div>") != std::string::npos);
  CHECK(d.find("<tr data-negotiator=\"cm.pool\">") != std::string::npos);
  CHECK(d.find("history: kept") != std::string::npos);  // the graphs read the pool history
  // And a screenshot to look at.
  const fs::path shot = artefacts / "dashboard.png";
  fs::remove(shot);
  auto shot_args = chromium;
  shot_args.push_back("--screenshot=" + shot.string());
  shot_args.push_back(url);
  auto s = run_process(shot_args, "", 120000);
  INFO(s.err);
  CHECK(s.exit_code == 0);
  CHECK(fs::exists(shot));
  CHECK(fs::file_size(shot) > 10000);

  // A bounded load loop of 10,000 requests while silent and half-sent
  // clients hold connections open: every request is answered, and the
  // collector keeps answering the pool's tools meanwhile.
  std::vector<std::unique_ptr<HttpConnection>> stuck;
  for (int i = 0; i < 16; ++i) {
    stuck.push_back(std::make_unique<HttpConnection>(web));
    if (i % 2) stuck.back()->send_raw("GET /metrics HTTP/1.1\r\nHost: 12");
  }
  std::atomic<int> answered{0}, failed{0};
  std::vector<std::thread> load;
  for (int t = 0; t < 4; ++t)
    load.emplace_back([&, t] {
      auto c = std::make_unique<HttpConnection>(web);
      for (int i = 0; i < 2500; ++i) {
        if (!c->open()) c = std::make_unique<HttpConnection>(web);
        auto r = c->request(i % 3 == 0 ? "/metrics" : (t % 2 ? "/api/v1/status" : "/api/v1/groups"));
        (r && r->status == 200 ? answered : failed)++;
        if (!r) c->close();
      }
    });
  const auto t0 = std::chrono::steady_clock::now();
  const auto during = status_slots(reader);  // the collector, under the load
  const double status_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (auto& th : load) th.join();
  CHECK(failed == 0);
  CHECK(answered == 10000);
  CHECK(!during.empty());
  CHECK(status_seconds < 20);
  for (auto& c : stuck) CHECK(c->closed_within(std::chrono::seconds(30)));

  // A daemon that goes down shows as down.
  const std::string admin = pool.client("admin", ap);
  auto off = run_process({CARA_BINARY, "off", "--config", admin, "-daemon", "SCHEDD", "ap.pool"});
  INFO(off.err);
  REQUIRE(off.exit_code == 0);
  CHECK(await(
      [&] {
        auto metrics = http_get(web, "/metrics");
        return metrics &&
               metrics->body.find("caracara_daemon_up{machine=\"ap.pool\",daemon=\"SCHEDD\"} 0\n") !=
                   std::string::npos;
      },
      30));
}
