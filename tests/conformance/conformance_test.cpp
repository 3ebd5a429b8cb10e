// HTCondor's own ClassAd test data (../shared/conformance/classad/, JSON
// lines, see its README), read at run time and never copied into the repo.
// Every row must pass except those listed in classad_exclusions.txt, each
// with its reason. Prints a pass/fail line per file.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/classad/unparse.h"
#include "integration/process.h"

using namespace cara::classad;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const fs::path kDir = CARA_CONFORMANCE_DIR;

// "file.jsonl#row" -> reason
std::map<std::string, std::string> load_exclusions() {
  std::map<std::string, std::string> out;
  std::ifstream in(CARA_EXCLUSIONS_FILE);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    auto space = line.find(' ');
    REQUIRE(space != std::string::npos);
    out[line.substr(0, space)] = line.substr(space + 1);
  }
  return out;
}

bool have_data() {
  if (fs::exists(kDir)) return true;
  WARN("skipped: " << kDir << " is absent (a clone without ../shared); conformance data not checked");
  return false;
}

// Runs `check` on every row of `file`; a false return is a failure unless
// the row is excluded. Reports one line per file.
template <class Check>
void run_file(const std::string& file, Check check) {
  static const auto exclusions = load_exclusions();
  std::ifstream in(kDir / file);
  REQUIRE(in);
  std::string line;
  int row = 0, passed = 0, failed = 0, excluded = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    ++row;
    json j = json::parse(line);
    std::string key = file + "#" + std::to_string(row);
    bool excluded_row = exclusions.count(key) > 0;
    std::string detail;
    bool ok = check(j, detail);
    if (excluded_row) {
      ++excluded;
      continue;
    }
    if (ok) {
      ++passed;
    } else {
      ++failed;
      FAIL_CHECK(key << ": " << j.dump() << "\n  got: " << detail);
    }
  }
  std::cout << "conformance " << file << ": " << passed << " passed, " << failed << " failed, " << excluded
            << " excluded\n";
}

ExprPtr must_parse(const std::string& text, StringSyntax syntax, std::string& detail) {
  auto e = parse_expression(text, syntax);
  if (!e) {
    detail = "parse error: " + e.error();
    return nullptr;
  }
  return *e;
}

}  // namespace

TEST_CASE("conformance: version_comparison.jsonl", "[conformance]") {
  if (!have_data()) return;
  run_file("version_comparison.jsonl", [](const json& j, std::string& detail) {
    auto e = must_parse(j["expr"], StringSyntax::New, detail);
    if (!e) return false;
    Value v = evaluate(*e, nullptr);
    detail = unparse(v);
    if (j.contains("expect_sign")) {
      int sign = j["expect_sign"];
      return v.is_int() && ((v.as_int() > 0) - (v.as_int() < 0)) == sign;
    }
    return detail == j["expect"].get<std::string>();
  });
}

TEST_CASE("conformance: functional_tests_same_diff.jsonl", "[conformance]") {
  if (!have_data()) return;
  run_file("functional_tests_same_diff.jsonl", [](const json& j, std::string& detail) {
    auto a = must_parse(j["expr"], StringSyntax::New, detail);
    auto b = must_parse(j["other"], StringSyntax::New, detail);
    if (!a || !b) return false;
    Value va = evaluate(*a, nullptr), vb = evaluate(*b, nullptr);
    detail = unparse(va) + " vs " + unparse(vb);
    bool same = va.identical(vb);
    return j["assert"] == "same" ? same : !same;
  });
}

TEST_CASE("conformance: test_classad_funcs_expect.jsonl", "[conformance]") {
  if (!have_data()) return;
  run_file("test_classad_funcs_expect.jsonl", [](const json& j, std::string& detail) {
    ClassAd my, target;
    for (const auto& l : j["my_ad"]) REQUIRE(insert_long_form_line(my, l.get<std::string>()).ok());
    for (const auto& l : j["target_ad"]) REQUIRE(insert_long_form_line(target, l.get<std::string>()).ok());
    auto e = must_parse(j["expr"], StringSyntax::Old, detail);
    if (!e) return false;
    Value v = evaluate(*e, &my, &target);
    detail = unparse(v);
    std::string expect = j["expect"];
    // Strings compare case-insensitively with the expected text; anything
    // else must be identical to the expected text parsed as a literal.
    if (v.is_string()) return iequals(v.as_string(), expect);
    auto want = parse_expression(expect, StringSyntax::Old);
    if (!want) return false;
    return v.identical(evaluate(**want, nullptr));
  });
}

TEST_CASE("conformance: old_classads_lookup.jsonl", "[conformance]") {
  if (!have_data()) return;
  run_file("old_classads_lookup.jsonl", [](const json& j, std::string& detail) {
    ClassAd ad;
    for (const auto& l : j["my_ad"]) {
      auto r = insert_long_form_line(ad, l.get<std::string>());
      if (!r) {
        detail = r.error();
        return false;
      }
    }
    Value v = evaluate_attr(ad, j["attr"].get<std::string>());
    detail = unparse(v);
    std::string type = j["lookup"];
    // Typed lookups as HTCondor's LookupInteger/Float (any number),
    // LookupBool (boolean or number) and LookupString.
    bool found = false;
    double num = 0;
    bool b = false;
    if (type == "Integer" || type == "Float") found = v.number(num);
    else if (type == "Bool") found = v.bool_equiv(b);
    else if (type == "String") found = v.is_string();
    if (!j["expect_found"].get<bool>()) return !found;
    if (!found) return false;
    std::string expect = j["expect"];
    std::string relation = j["relation"];
    if (type == "String") return v.as_string() == expect;
    if (type == "Bool") return b == (expect == "true");
    if (!expect.empty() && expect.back() == 'f') expect.pop_back();
    double want = std::stod(expect);
    if (relation == "<") return num < want;
    return std::fabs(num - want) <= 1e-5 * std::max(1.0, std::fabs(want));
  });
}

TEST_CASE("conformance: condor_classad_eval_tool.jsonl", "[conformance]") {
  if (!have_data()) return;
  run_file("condor_classad_eval_tool.jsonl", [](const json& j, std::string& detail) {
    std::map<std::string, std::string> files;
    std::vector<std::string> argv = {CARA_BINARY, "eval", "--print-ad"};  // classad_eval prints the ad
    for (const auto& [key, content] : j["fixtures"].items()) {
      auto path = fs::temp_directory_path() / ("cara-conf-" + std::to_string(::getpid()) + "-" +
                                               std::to_string(files.size()) + ".ad");
      std::ofstream(path) << content.get<std::string>();
      files[key] = path.string();
    }
    for (const auto& a : j["args"]) {
      std::string arg = a;
      argv.push_back(files.count(arg) ? files[arg] : arg);
    }
    auto r = cara::test::run_process(argv);
    for (const auto& [key, path] : files) std::remove(path.c_str());
    detail = r.out + r.err;
    return r.exit_code == 0 && r.out == j["expected_stdout"].get<std::string>();
  });
}
