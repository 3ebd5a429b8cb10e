// Canonical printing and the round trip parse(unparse(e)) == e.
#include <random>

#include "support.h"

using namespace cara::classad;
using cara::classad::test::ev;

namespace {

std::string reprint(const std::string& text) {
  auto e = parse_expression(text);
  REQUIRE(e.ok());
  return unparse(**e);
}

void round_trips(const std::string& text) {
  auto e = parse_expression(text);
  INFO(text);
  REQUIRE(e.ok());
  std::string once = unparse(**e);
  auto again = parse_expression(once);
  INFO(once);
  REQUIRE(again.ok());
  CHECK((*again)->same_as(**e));
  CHECK(unparse(**again) == once);
}

}  // namespace

TEST_CASE("canonical forms", "[unparse]") {
  CHECK(reprint("a+b*c") == "a + b * c");
  CHECK(reprint("(a+b)*c") == "(a + b) * c");
  CHECK(reprint("x is y") == "x =?= y");
  CHECK(reprint("MY.a && target.b || .c") == "MY.a && TARGET.b || .c");
  CHECK(reprint("f( 1 , 2 )") == "f(1,2)");
  CHECK(reprint("{1, 2}") == "{ 1,2 }");
  CHECK(reprint("[a=1;b=[c=2]]") == "[ a = 1; b = [ c = 2 ] ]");
  CHECK(reprint("a ? b : c") == "a ? b : c");
  CHECK(reprint("a ?: c") == "a ?: c");
  CHECK(reprint("-x") == "-x");
  CHECK(reprint("- 3") == "-3");
  CHECK(reprint("2K") == "2K");
  CHECK(reprint("'a b'.c") == "'a b'.c");
  CHECK(reprint("x[1]") == "x[1]");
  CHECK(reprint("1.0") == "1.0");
  CHECK(reprint("0.1") == "0.1");
  CHECK(reprint("1e100") == "1E+100");
  CHECK(reprint("\"tab\\there\"") == "\"tab\\there\"");
}

TEST_CASE("values print as HTCondor prints them", "[unparse]") {
  CHECK(ev("string(real(\"INF\"))") == "\"real(\\\"INF\\\")\"");
  CHECK(ev("real(\"-INF\")") == "real(\"-INF\")");
  CHECK(ev("real(\"NaN\")") == "real(\"NaN\")");
  CHECK(ev("-0.0") == "-0.0");
  CHECK(ev("string(0.0)") == "\"0.0\"");
  CHECK(ev("string(-0.0)") == "\"-0.0\"");
  CHECK(ev("0.1 + 0.2") == "0.30000000000000004");  // shortest text that reads back exactly
  CHECK(ev("\"\\001\"") == "\"\\001\"");
  CHECK(ev("\"–\"") == "\"–\"");  // UTF-8 stays as it is
}

TEST_CASE("round trips of hand-written expressions", "[unparse]") {
  for (const char* text : {
           "a + b * c - d / e % f",
           "(a + b) * (c - d)",
           "!a || ~b && -c",
           "a << 2 >> 3 >>> 4",
           "a < b && b <= c || c > d && d >= e",
           "a == b != c =?= d =!= e",
           "a & b | c ^ d",
           "x ? y : z ? w : v",
           "x ?: y",
           "f(g(1, 2), {3, [a = 4; b = \"s\"]})",
           "MY.a + TARGET.b + .c",
           "a.b.c[1][\"d\"]",
           "-(-(3))",
           "- -3",
           "2 - -3",
           "1.5G + 3K",
           "'odd name' + 'x\\'y'",
           "\"quote \\\" backslash \\\\ newline \\n\"",
           "undefined =?= error",
           "true || false",
           "-9223372036854775808",
           "0.30000000000000004",
           "1E-300",
           "((((x))))",
           "ifThenElse(isUndefined(Mips), 1000, Mips) - SlotID - 1.0e10*(Offline!=True)",
           "3 .'odd name'",
           "2.5 .'~+' + 1",
           "3K .x",
           "(3).'y'",
       }) {
    round_trips(text);
  }
}

TEST_CASE("round trips of random expressions", "[unparse]") {
  std::mt19937 rng(12345);
  const char* atoms[] = {"1",         "-2",    "3.5",   "\"s\"", "x",    "MY.y", "TARGET.z", "true",
                         "undefined", "error", "{1,2}", "[a=1]", "f(x)", "-0.0", "2K"};
  const char* binops[] = {"+",   "-",   "*",  "/",  "%", "<", "<=", ">",  ">=", "==", "!=",
                          "=?=", "=!=", "&&", "||", "&", "|", "^",  "<<", ">>", ">>>"};
  std::function<std::string(int)> gen = [&](int depth) -> std::string {
    int k = static_cast<int>(rng() % 8);
    if (depth == 0 || k < 3) return atoms[rng() % std::size(atoms)];
    switch (k) {
      case 3: return "(" + gen(depth - 1) + ")";
      case 4: return std::string(rng() % 2 ? "!" : "-") + gen(depth - 1);
      case 5: return gen(depth - 1) + " ? " + gen(depth - 1) + " : " + gen(depth - 1);
      case 6: return "strcat(" + gen(depth - 1) + ", " + gen(depth - 1) + ")";
      default: return gen(depth - 1) + " " + binops[rng() % std::size(binops)] + " " + gen(depth - 1);
    }
  };
  for (int i = 0; i < 2000; ++i) round_trips(gen(5));
}

TEST_CASE("an overflowing real literal round-trips (fuzzer finding)", "[unparse]") {
  round_trips("1e999");
  round_trips("-1e999 + x");
  CHECK(ev("1e999") == "real(\"INF\")");
}
