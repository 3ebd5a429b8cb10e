// fmt, nlohmann-json and CLI11 link and work.
#include <CLI/CLI.hpp>
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

TEST_CASE("fmt, json and CLI11", "[deps]") {
  CHECK(fmt::format("{}-{:03}", "slot", 7) == "slot-007");
  auto j = nlohmann::json::parse(R"({"eval_per_s": 1.5e7})");
  CHECK(j["eval_per_s"].get<double>() == 1.5e7);
  CLI::App app;
  int n = 0;
  app.add_option("-n", n);
  const char* argv[] = {"prog", "-n", "42"};
  app.parse(3, const_cast<char**>(argv));
  CHECK(n == 42);
}
