// The configuration language: macros, continuations, multi-line values,
// conditionals, includes, errors (HTCondor's introduction-to-configuration;
// its worked examples are the test cases).
#include "tests/unit/config/support.h"

using namespace cara::config;
using namespace cara::config::test;

TEST_CASE("names are case-insensitive and macros bind late", "[config]") {
  Config c = load("A = xxx\nC = $(A)\nmy_Name = 1\n");
  CHECK(val(c, "c") == "xxx");
  CHECK(val(c, "MY_NAME") == "1");
  // The manual: C is bound to $(A), not its value.
  CHECK(val(load("A = xxx\nC = $(A)\nA = yyy\n"), "C") == "yyy");
}

TEST_CASE("a self-referencing macro is expanded at once", "[config]") {
  // The manual's example: the resulting value of A is xxxyyyzzz.
  Config c = load("A = xxx\nB = $(A)\nA = $(A)yyy\nA = $(A)zzz\n");
  CHECK(val(c, "A") == "xxxyyyzzz");
  CHECK(val(c, "B") == "xxxyyyzzz");
  CHECK(val(load("X = $(X) more\n"), "X") == "more");
  CHECK(val(load("X = $(X:start) more\n"), "X") == "start more");
  CHECK(val(load("DAEMON_LIST = $(DAEMON_LIST) SCHEDD\n"), "DAEMON_LIST") == "MASTER SCHEDD");
}

TEST_CASE("undefined macros, defaults, and reference cycles", "[config]") {
  // The manual: MAX_ALLOC_CPUS = $(NUMCPUS)-1 becomes -1; with a default 4-1.
  CHECK(val(load("MAX_ALLOC_CPUS = $(NUMCPUS)-1\n"), "MAX_ALLOC_CPUS") == "-1");
  CHECK(val(load("MAX_ALLOC_CPUS = $(NUMCPUS:4)-1\n"), "MAX_ALLOC_CPUS") == "4-1");
  CHECK(val(load("L = 7\nMAX = $(NUMCPUS:$(L))-1\n"), "MAX") == "7-1");
  CHECK(val(load("X = 1\n"), "NOPE") == "<undefined>");
  // Recursively defined macros are refused, naming the chain.
  std::string e = val(load("A = $(B)\nB = $(A)\n"), "A");
  CHECK_THAT(e, Catch::Contains("refers to itself") && Catch::Contains("A -> B -> A"));
  CHECK_THAT(val(load("A = x $(A_)\nA_ = $(A)\n"), "A"), Catch::Contains("refers to itself"));
  CHECK(val(load("A = $$(Memory) and $(DOLLAR)\n"), "A") == "$$(Memory) and $");
}

TEST_CASE("comments and line continuations", "[config]") {
  // The manual's examples, including a comment line inside a continuation.
  Config c = load(
      "# a comment\n"
      "START = (KeyboardIdle > 15 * $(MINUTE)) && \\\n"
      "((LoadAvg - CondorLoadAvg) <= 0.3)\n"
      "ADMIN_MACHINES = condor.cs.wisc.edu, raven.cs.wisc.edu, \\\n"
      "stork.cs.wisc.edu, ostrich.cs.wisc.edu, \\\n"
      "   bigbird.cs.wisc.edu\n"
      "A = $(B) \\\n"
      "# $(C)\n"
      "$(D)\n"
      "A2 = $(B) \\\n"
      "# $(C) \\\n"
      "$(D)\n"
      "B = b\nD = d\n"
      "HASH = a#b\n"
      "[HTCondor Settings]\n");
  CHECK(val(c, "START") == "(KeyboardIdle > 15 * ) && ((LoadAvg - CondorLoadAvg) <= 0.3)");
  CHECK(val(c, "ADMIN_MACHINES") ==
        "condor.cs.wisc.edu, raven.cs.wisc.edu, stork.cs.wisc.edu, ostrich.cs.wisc.edu, bigbird.cs.wisc.edu");
  CHECK(val(c, "A") == "b d");
  CHECK(val(c, "A2") == "b d");
  CHECK(val(c, "HASH") == "a#b");  // '#' starts a comment only at the start of a line
}

TEST_CASE("multi-line values", "[config]") {
  // The manual's JOB_ROUTER_DEFAULTS example: the brackets are part of it.
  Config c = load(
      "JOB_ROUTER_DEFAULTS @=jrd\n"
      "  [\n"
      "    MaxJobs = 200;\n"
      "  ]\n"
      "  @jrd\n"
      "AFTER = 1\n");
  CHECK(val(c, "JOB_ROUTER_DEFAULTS") == "[\n    MaxJobs = 200;\n  ]");
  CHECK(val(c, "AFTER") == "1");
  CHECK_THAT(load_error("X @=end\nline\n"), Catch::Contains("line 1") && Catch::Contains("no closing @end"));
}

TEST_CASE("wrapped lines without a backslash continue the definition, with a warning", "[config]") {
  Config c = load(
      "ActivationTimer = ifThenElse(JobStart =!= UNDEFINED, (time\n"
      "    () - JobStart), 0)\n"
      "NEXT = 1\n"
      "    OTHER = 2\n");
  CHECK(val(c, "ActivationTimer") == "ifThenElse(JobStart =!= UNDEFINED, (time() - JobStart), 0)");
  CHECK(val(c, "OTHER") == "2");  // an indented statement is still a statement
  REQUIRE(c.warnings().size() == 1);
  CHECK_THAT(c.warnings()[0], Catch::Contains("line 2"));
}

TEST_CASE("if, elif, else and endif", "[config]") {
  // The manual: X = -1 when MY_UNDEFINED_VARIABLE is not defined.
  Config c = load(
      "if defined MY_UNDEFINED_VARIABLE\n  X = 12\nelse\n  X = -1\nendif\n"
      "if version >= 8.1.6\n  DO_X = True\nelse\n  DO_Y = True\nendif\n"
      "if version == 23.0\n  V23 = yes\nendif\n"
      "if version < 8.6\n  OLD = yes\nendif\n"
      "Y = 1\nif ! defined Y\n  Z = no\nelif defined Y\n  Z = yes\nelse\n  Z = never\nendif\n"
      "ON = true\nif $(ON)\n  B1 = 1\nendif\n"
      "if $(EMPTY)\n  B2 = 1\nendif\n"
      "if no\n  B3 = 1\nelif 0\n  B3 = 2\nelif YES\n  B3 = 3\nendif\n"
      "if false\n  if true\n    INNER = 1\n  else\n    INNER = 2\n  endif\nendif\n"
      "N = 5\nif $(N) > 3\n  BIG = 1\nendif\n");
  CHECK(val(c, "X") == "-1");
  CHECK(val(c, "DO_X") == "True");
  CHECK(val(c, "DO_Y") == "<undefined>");
  CHECK(val(c, "V23") == "yes");
  CHECK(val(c, "OLD") == "<undefined>");
  CHECK(val(c, "Z") == "yes");
  CHECK(val(c, "B1") == "1");
  CHECK(val(c, "B2") == "<undefined>");
  CHECK(val(c, "B3") == "3");
  CHECK(val(c, "INNER") == "<undefined>");
  CHECK(val(c, "BIG") == "1");
  // Built-in defaults do not count as defined.
  CHECK(val(load("if defined PRIORITY_HALFLIFE\nP = 1\nendif\n"), "P") == "<undefined>");
}

TEST_CASE("conditional errors name the line", "[config]") {
  CHECK_THAT(load_error("X = 1\nendif\n"),
             Catch::Contains("line 2") && Catch::Contains("'endif' without 'if'"));
  CHECK_THAT(load_error("else\n"), Catch::Contains("'else' without 'if'"));
  CHECK_THAT(load_error("if true\nX = 1\n"), Catch::Contains("line 1") && Catch::Contains("without 'endif'"));
  CHECK_THAT(load_error("if true\nelse\nelse\nendif\n"), Catch::Contains("line 3"));
  CHECK_THAT(load_error("if maybe\nendif\n"), Catch::Contains("cannot evaluate the condition 'maybe'"));
  CHECK_THAT(load_error("if version >= eight\nendif\n"), Catch::Contains("not a version"));
}

TEST_CASE("error and warning statements", "[config]") {
  CHECK_THAT(load_error("if ! defined stuff\n  error : stuff is needed!\nendif\n"),
             Catch::Contains("line 2") && Catch::Contains("stuff is needed!"));
  Config c = load("warning : careful with $(X)\nX = 1\n");
  REQUIRE(c.warnings().size() == 1);
  CHECK_THAT(c.warnings()[0], Catch::Contains("careful with"));
}

TEST_CASE("bad lines are refused with file and line", "[config]") {
  CHECK_THAT(load_error("A = 1\nthis is not a statement\n"),
             Catch::Contains("<text>, line 2") && Catch::Contains("expected 'NAME = value'"));
  CHECK_THAT(load_error("A.B. = 1\n"), Catch::Contains("not a valid name"));
  CHECK_THAT(load_error("use POLICY\n"), Catch::Contains("expected 'use CATEGORY : TEMPLATE'"));
  CHECK_THAT(load_error(std::string("A = 1\0\n", 7)), Catch::Contains("NUL"));
}
