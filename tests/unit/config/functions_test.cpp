// Function macros ($ENV, $RANDOM_INTEGER, $INT, $SUBSTR, $F..., ...), with
// the manual's examples.
#include "tests/unit/config/support.h"

using namespace cara::config;
using namespace cara::config::test;

TEST_CASE("$ENV reads the environment", "[config]") {
  auto h = host();
  h->set_env("HOME", "/home/alice");
  Config c = load("A = $ENV(HOME)\nB = $ENV(NOPE)\nC = $ENV(NOPE:fallback)\n", h);
  CHECK(val(c, "A") == "/home/alice");
  CHECK(val(c, "B") == "");
  CHECK(val(c, "C") == "fallback");
}

TEST_CASE("$RANDOM_INTEGER and $RANDOM_CHOICE are fixed when read", "[config]") {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    auto h = std::make_shared<MemoryHost>(seed);
    Config c = load(
        "EVEN = $RANDOM_INTEGER(0, 8, 2)\nPICK = $RANDOM_CHOICE(a, b, c)\nHI = 9\n"
        "R = $RANDOM_INTEGER(3, $(HI))\n",
        h);
    int even = std::stoi(val(c, "EVEN"));
    CHECK((even >= 0 && even <= 8 && even % 2 == 0));
    CHECK((val(c, "PICK") == "a" || val(c, "PICK") == "b" || val(c, "PICK") == "c"));
    int r = std::stoi(val(c, "R"));
    CHECK((r >= 3 && r <= 9));
    CHECK(val(c, "EVEN") == val(c, "EVEN"));  // the same on every read
  }
  CHECK_THAT(load_error("X = $RANDOM_INTEGER(5, 1)\n"),
             Catch::Contains("line 1") && Catch::Contains("min <= max"));
}

TEST_CASE("$INT, $REAL, $STRING and $EVAL", "[config]") {
  // The manual's examples.
  Config c = load(
      "X = 2\nY = 6\nXYArea = $(X) * $(Y)\n"
      "I1 = $INT(XYArea)\nI2 = $INT(XYArea,%04d)\nI3 = $INT(XYArea,Area=%d)\n"
      "FULL_HOSTNAME = host.DOMAIN\nLCFullHostname = toLower(\"$(FULL_HOSTNAME)\")\n"
      "S1 = $STRING(LCFullHostname)\nS2 = $STRING(LCFullHostname,Name: %s)\n"
      "slist = \"a,B,c\"\nlcslist = tolower($(slist))\nlist = split($(slist))\nclist = size($(list)) * 10\n"
      "semilist = join(\";\",split($(lcslist)))\n"
      "E1 = $EVAL(slist)\nE2 = $EVAL(lcslist)\nE3 = $EVAL(list)\nE4 = $EVAL(clist)\nE5 = $EVAL(semilist)\n"
      "HALF = 1/4.0\nR1 = $REAL(HALF,%.2f)\n");
  CHECK(val(c, "I1") == "12");
  CHECK(val(c, "I2") == "0012");
  CHECK(val(c, "I3") == "Area=12");
  CHECK(val(c, "S1") == "host.domain");
  CHECK(val(c, "S2") == "Name: host.domain");
  CHECK(val(c, "E1") == "a,B,c");
  CHECK(val(c, "E2") == "a,b,c");
  CHECK(val(c, "E3") == "{ \"a\",\"B\",\"c\" }");
  CHECK(val(c, "E4") == "30");
  CHECK(val(c, "E5") == "a;b;c");
  CHECK(val(c, "R1") == "0.25");
  // A format that could read a missing argument is refused.
  CHECK_THAT(val(load("X = 1\nB = $INT(X,%d%s)\n"), "B"), Catch::Contains("conversion"));
  CHECK_THAT(val(load("X = 1\nB = $INT(X,%s)\n"), "B"), Catch::Contains("expected one conversion"));
  CHECK_THAT(val(load("X = abc\nB = $INT(X)\n"), "B"), Catch::Contains("not evaluate to a number"));
}

TEST_CASE("$SUBSTR and $CHOICE", "[config]") {
  // The manual's examples, with Name = abcdef.
  Config c = load(
      "Name = abcdef\n"
      "A = $SUBSTR(Name, 2)\nB = $SUBSTR(Name, 0, -2)\nC = $SUBSTR(Name, 1, 3)\nD = $SUBSTR(Name, -1)\n"
      "E = $SUBSTR(Name, 4, -3)\n"
      "LIST = red, green, blue\nP = $CHOICE(1, LIST)\nQ = $CHOICE(2, x, y, z)\n");
  CHECK(val(c, "A") == "cdef");
  CHECK(val(c, "B") == "abcd");
  CHECK(val(c, "C") == "bcd");
  CHECK(val(c, "D") == "f");
  CHECK(val(c, "E") == "");
  CHECK(val(c, "P") == "green");
  CHECK(val(c, "Q") == "z");
  CHECK_THAT(val(load("R = $CHOICE(5, x, y)\n"), "R"), Catch::Contains("outside the list"));
  // A length past the end, however large, ends at the end (the fuzzer
  // found 1 + INT64_MAX overflowing here).
  CHECK(val(load("Name = abcdef\nL = $SUBSTR(Name, 1, 99999999999999999999)\n"), "L") == "bcdef");
  // A field width past 1024 is refused: $INT(N,%01605775876d) would make
  // a 1.6 GB string (the submit fuzzer found it).
  CHECK_THAT(val(load("N = 3\nW = $INT(N,%01605775876d)\n"), "W"),
             Catch::Contains("a field width or precision is at most 1024"));
  CHECK(val(load("N = 3\nW = $INT(N,%05d)\n"), "W") == "00003");
}

TEST_CASE("$F path functions, $DIRNAME and $BASENAME", "[config]") {
  Config c = load(
      "EXE = /tmp/simulate.exe\n"
      "N = $Fn(EXE)\nX = $Fx(EXE)\nNX = $Fnx(EXE)\nP = $Fp(EXE)\nD = $Fd(EXE)\nDB = $Fdb(EXE)\nXB = "
      "$Fxb(EXE)\n"
      "Q = $Fqn(EXE)\nQA = $Fqan(EXE)\nDIR = $DIRNAME(EXE)\nBASE = $BASENAME(EXE)\n"
      "LIT = $Fn(/a/b/job.sh)\nUNKNOWN = $NOTAFUNCTION(x)\n");
  CHECK(val(c, "N") == "simulate");
  CHECK(val(c, "X") == ".exe");
  CHECK(val(c, "NX") == "simulate.exe");
  CHECK(val(c, "P") == "/tmp/");
  CHECK(val(c, "D") == "tmp/");
  CHECK(val(c, "DB") == "tmp");
  CHECK(val(c, "XB") == "exe");
  CHECK(val(c, "Q") == "\"simulate\"");
  CHECK(val(c, "QA") == "'simulate'");
  CHECK(val(c, "DIR") == "/tmp/");
  CHECK(val(c, "BASE") == "simulate.exe");
  CHECK(val(c, "LIT") == "job");
  CHECK(val(c, "UNKNOWN") == "$NOTAFUNCTION(x)");
}
