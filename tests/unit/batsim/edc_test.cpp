// caracara as Batsim's external decision component (batsim/): the shared
// library loaded as Batsim loads it (dlopen, its entry points by name),
// driven by recorded message sequences of Batsim's JSON protocol.
#include <dlfcn.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace {

using json = nlohmann::json;

constexpr std::uint32_t kBinary = 0x1, kJson = 0x2;

// The library's entry points, as Batsim finds them.
struct Edc {
  void* handle = nullptr;
  std::uint8_t (*init)(const std::uint8_t*, std::uint32_t, std::uint32_t) = nullptr;
  std::uint8_t (*deinit)() = nullptr;
  std::uint8_t (*take_decisions)(const std::uint8_t*, std::uint32_t, std::uint8_t**,
                                 std::uint32_t*) = nullptr;
  const char* (*last_error)() = nullptr;

  Edc() {
    handle = ::dlopen(CARA_EDC_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!handle) FAIL(::dlerror());
    init = reinterpret_cast<decltype(init)>(::dlsym(handle, "batsim_edc_init"));
    deinit = reinterpret_cast<decltype(deinit)>(::dlsym(handle, "batsim_edc_deinit"));
    take_decisions = reinterpret_cast<decltype(take_decisions)>(::dlsym(handle, "batsim_edc_take_decisions"));
    last_error = reinterpret_cast<decltype(last_error)>(::dlsym(handle, "caracara_edc_last_error"));
    REQUIRE(init);
    REQUIRE(deinit);
    REQUIRE(take_decisions);
    REQUIRE(last_error);
  }
  ~Edc() {
    deinit();
    ::dlclose(handle);
  }
  std::uint8_t start(const std::string& data, std::uint32_t flags = kJson) {
    return init(reinterpret_cast<const std::uint8_t*>(data.data()), static_cast<std::uint32_t>(data.size()),
                flags);
  }
  // Batsim's message in, the decisions out (or the failure as an error).
  json call(const json& message) {
    const std::string text = message.dump();
    std::uint8_t* out = nullptr;
    std::uint32_t size = 0;
    const std::uint8_t rc = take_decisions(reinterpret_cast<const std::uint8_t*>(text.data()),
                                           static_cast<std::uint32_t>(text.size()), &out, &size);
    if (rc != 0) return json{{"error", last_error()}};
    return json::parse(std::string(reinterpret_cast<const char*>(out), size));
  }
};

std::vector<json> of_type(const json& decisions, const std::string& type) {
  std::vector<json> out;
  for (const json& e : decisions.at("events"))
    if (e.at("event_type") == type) out.push_back(e);
  return out;
}

json fixture(const std::string& name) {
  std::ifstream in(std::string(CARA_FIXTURES) + "/batsim/" + name);
  REQUIRE(in);
  std::stringstream s;
  s << in.rdbuf();
  return json::parse(s.str());
}

TEST_CASE("Batsim's EDC executes jobs on hosts and rejects a parallel job and follows completions",
          "[batsim]") {
  Edc edc;
  REQUIRE(edc.start("") == 0);
  const json messages = fixture("two-hosts.json");
  std::vector<std::string> started;  // Batsim job ids, in the order caracara ran them
  std::map<std::string, std::string> host_of;
  std::vector<json> rejected;
  double last_now = 0;

  // Each decision message: its events at its time, in order; the jobs
  // executed noted, a requested call answered before the next message.
  std::function<void(const json&)> take;
  take = [&](const json& message) {
    json d = edc.call(message);
    REQUIRE_FALSE(d.contains("error"));
    CHECK(d.at("now") == message.at("now"));
    for (const json& e : d.at("events")) CHECK(e.at("timestamp").get<double>() <= d.at("now").get<double>());
    for (const json& e : of_type(d, "ExecuteJobEvent")) {
      const std::string id = e["event"]["job_id"];
      started.push_back(id);
      host_of[id] = e["event"]["allocation"]["host_allocation"];
      CHECK(e["event"]["allocation"]["executor_placement_type"] ==
            "PredefinedExecutorPlacementStrategyWrapper");
    }
    for (const json& e : of_type(d, "RejectJobEvent")) rejected.push_back(e);
    for (const json& e : of_type(d, "CallMeLaterEvent")) {
      const double at = e["event"]["when"]["time"];
      CHECK(at > message.at("now").get<double>());
      CHECK(e["event"]["when_type"] == "OneShot");
      if (at <= last_now) continue;
      take(json{
          {"now", at},
          {"events",
           {{{"timestamp", at},
             {"event_type", "RequestedCallEvent"},
             {"event",
              {{"call_me_later_id", e["event"]["call_me_later_id"]}, {"last_periodic_call", false}}}}}}});
    }
  };

  // Hello: the EDC answers with its own.
  json hello = edc.call(messages[0]);
  REQUIRE(of_type(hello, "EDCHelloEvent").size() == 1);
  CHECK(of_type(hello, "EDCHelloEvent")[0]["event"]["decision_component_name"] == "caracara");

  // The simulation begins with four jobs: two run at once on the two
  // hosts, the one asking for four hosts is rejected, the third waits.
  take(messages[1]);
  REQUIRE(started.size() == 2);
  CHECK(host_of[started[0]] != host_of[started[1]]);
  for (const std::string& id : started) CHECK((host_of[id] == "0" || host_of[id] == "1"));
  REQUIRE(rejected.size() == 1);
  CHECK(rejected[0]["event"]["job_id"] == "w0!4");

  // Completions, as Batsim reports them: the waiting job runs on the host
  // the first left.
  for (std::size_t i = 2; i <= 4; ++i) {
    json m = messages[i];
    const char* placeholder[] = {"FIRST_STARTED", "SECOND_STARTED", "THIRD_STARTED"};
    REQUIRE(started.size() >= i - 1);
    std::string text = m.dump();
    text.replace(text.find(placeholder[i - 2]), std::string(placeholder[i - 2]).size(), started[i - 2]);
    last_now = m.at("now");
    take(json::parse(text));
    if (i == 2) {
      REQUIRE(started.size() == 3);
      CHECK(host_of[started[2]] == host_of[started[0]]);
    }
  }
  std::vector<std::string> sorted = started;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == std::vector<std::string>{"w0!1", "w0!2", "w0!3"});
  // The end.
  json end = edc.call(messages[5]);
  CHECK(end.at("events").empty());
}

TEST_CASE("Batsim's EDC refuses the binary protocol and bad input with a clear message", "[batsim]") {
  Edc edc;
  CHECK(edc.start("", kBinary) != 0);
  CHECK_THAT(edc.last_error(), Catch::Contains("JSON") && Catch::Contains("Flatbuffers"));
  CHECK(edc.call(json{{"now", 0}, {"events", json::array()}}).contains("error"));  // not initialized
  CHECK(edc.start("{\"colour\": \"blue\"}") != 0);
  CHECK_THAT(edc.last_error(), Catch::Contains("unknown key \"colour\""));
  CHECK(edc.start("{\"machine\": \"START = (\\n\"}") == 0);

  // A configuration that does not read: the pool says where, at the start.
  json begins = fixture("two-hosts.json")[1];
  begins["events"] = json::array({begins["events"][0]});
  json d = edc.call(begins);
  REQUIRE(d.contains("error"));
  CHECK_THAT(d["error"].get<std::string>(), Catch::Contains("the EDC's machine configuration, line 1"));

  REQUIRE(edc.start("{\"seed\": 7}") == 0);
  std::string junk = "not json";
  std::uint8_t* out = nullptr;
  std::uint32_t size = 0;
  CHECK(edc.take_decisions(reinterpret_cast<const std::uint8_t*>(junk.data()), 8, &out, &size) != 0);
  CHECK_THAT(edc.last_error(), Catch::Contains("not a JSON object"));
  CHECK_FALSE(edc.call(begins).contains("error"));
  json unknown{{"now", 5},
               {"events",
                {{{"timestamp", 5},
                  {"event_type", "JobCompletedEvent"},
                  {"event", {{"job_id", "w0!99"}, {"state", "COMPLETED_SUCCESSFULLY"}}}}}}};
  d = edc.call(unknown);
  REQUIRE(d.contains("error"));
  CHECK_THAT(d["error"].get<std::string>(), Catch::Contains("w0!99"));
}

}  // namespace
