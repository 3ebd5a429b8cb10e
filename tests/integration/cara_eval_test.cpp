// `cara eval` as a real process: arguments, standard input, ad files,
// bad input.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "integration/process.h"

using cara::test::run_process;

namespace {

std::string temp_file(const std::string& content) {
  return cara::test::write_temp_file(content, ".ad");
}

}  // namespace

TEST_CASE("cara eval prints one value per expression", "[cli]") {
  auto r = run_process({CARA_BINARY, "eval", "1 + 1", "strcat(\"a\", \"b\")", "{1, 2.5}", "x", "1/0"});
  CHECK(r.exit_code == 0);
  CHECK(r.out == "2\n\"ab\"\n{ 1,2.5 }\nundefined\nerror\n");
}

TEST_CASE("cara eval reads expressions from standard input", "[cli]") {
  auto r = run_process({CARA_BINARY, "eval"}, "1 + 2\nx = 5\nx * 2\n\n\"done\"\n");
  CHECK(r.exit_code == 0);
  CHECK(r.out == "3\n10\n\"done\"\n");
}

TEST_CASE("cara eval with MY and TARGET ads in both syntaxes", "[cli]") {
  std::string my = temp_file("[ RequestMemory = 2048; Owner = \"alice\" ]");
  std::string target = temp_file("OpSys = \"LINUX\"\nMemory = 4096\n");
  auto r = run_process({CARA_BINARY, "eval", "--my", my, "--target", target,
                        "TARGET.Memory >= MY.RequestMemory && OpSys == \"linux\"", "Owner"});
  CHECK(r.exit_code == 0);
  CHECK(r.out == "true\n\"alice\"\n");
  auto s = run_process({CARA_BINARY, "eval", "--my", "-", "Memory * 2"}, "Memory = 21\n");
  CHECK(s.out == "42\n");
  std::remove(my.c_str());
  std::remove(target.c_str());
}

TEST_CASE("cara eval reports parse errors and goes on", "[cli]") {
  auto r = run_process({CARA_BINARY, "eval", "1 +", "2 * 3", "(4"});
  CHECK(r.exit_code == 1);
  CHECK(r.out == "6\n");
  CHECK(r.err.find("parse error: line 1, column 4: expected an expression but found end of input") !=
        std::string::npos);
  CHECK(r.err.find("expected ')'") != std::string::npos);
}

TEST_CASE("cara eval refuses bad files and options clearly", "[cli]") {
  auto r = run_process({CARA_BINARY, "eval", "--my", "/nonexistent/ad", "1"});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("cannot read /nonexistent/ad") != std::string::npos);
  std::string bad = temp_file("A = 1\nB = (2\n");
  r = run_process({CARA_BINARY, "eval", "--target", bad, "1"});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find(bad + ": line 2, column 7: in the value of B") != std::string::npos);
  std::remove(bad.c_str());
  r = run_process({CARA_BINARY, "eval", "--bogus"});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("unknown option --bogus") != std::string::npos);
  r = run_process({CARA_BINARY, "eval", "--my"});
  CHECK(r.exit_code == 1);
  r = run_process({CARA_BINARY, "nosuchcommand"});
  CHECK(r.exit_code != 0);
  r = run_process({CARA_BINARY, "eval", "--help"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("usage: cara eval") != std::string::npos);
}
