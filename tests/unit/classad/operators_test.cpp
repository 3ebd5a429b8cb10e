// Every operator with HTCondor's old-ClassAd semantics (operators.cpp).
#include "support.h"

using cara::classad::test::ev;

TEST_CASE("arithmetic", "[operators]") {
  CHECK(ev("7 / 2") == "3");  // integer division truncates
  CHECK(ev("-7 / 2") == "-3");
  CHECK(ev("7 % 3") == "1");
  CHECK(ev("-7 % 3") == "-1");
  CHECK(ev("7.0 / 2") == "3.5");
  CHECK(ev("1 / 0") == "error");
  CHECK(ev("1 % 0") == "error");
  // operators.cpp turns a result equal to HUGE_VAL into error (not -HUGE_VAL).
  CHECK(ev("1.0 / 0") == "error");
  CHECK(ev("-1.0 / 0") == "real(\"-INF\")");
  CHECK(ev("-9223372036854775808 / -1") == "9223372036854775807");
  CHECK(ev("2 + 3 * 4") == "14");
  CHECK(ev("(2 + 3) * 4") == "20");
  CHECK(ev("10 - 2 - 3") == "5");  // left associative
  CHECK(ev("1.5 % 1") == "error");
  CHECK(ev("true + true") == "2");  // booleans act as 0/1
  CHECK(ev("(1 == 1) + (1 == 2) * 10") == "1");
  CHECK(ev("\"a\" + 1") == "error");
  CHECK(ev("undefined + 1") == "undefined");
  CHECK(ev("error + undefined") == "error");
  CHECK(ev("undefined + error") == "error");  // error wins in strict operators
  CHECK(ev("{1} + 1") == "error");
}

TEST_CASE("unary operators", "[operators]") {
  CHECK(ev("-(3)") == "-3");
  CHECK(ev("- -3") == "3");
  CHECK(ev("+4") == "4");
  CHECK(ev("+\"a\"") == "error");
  CHECK(ev("+true") == "error");
  CHECK(ev("-true") == "error");
  CHECK(ev("-undefined") == "undefined");
  CHECK(ev("!true") == "false");
  CHECK(ev("!0") == "true");
  CHECK(ev("!2.5") == "false");
  CHECK(ev("!undefined") == "undefined");
  CHECK(ev("!error") == "error");
  CHECK(ev("!\"x\"") == "error");
  CHECK(ev("~0") == "-1");
  CHECK(ev("~true") == "error");
}

TEST_CASE("comparisons", "[operators]") {
  CHECK(ev("1 < 2") == "true");
  CHECK(ev("2 <= 2") == "true");
  CHECK(ev("3 > 4") == "false");
  CHECK(ev("3 >= 4.5") == "false");
  CHECK(ev("1 == 1.0") == "true");
  CHECK(ev("1 != 2") == "true");
  CHECK(ev("\"abc\" == \"ABC\"") == "true");  // case-insensitive
  CHECK(ev("\"abc\" != \"ABD\"") == "true");
  CHECK(ev("\"a\" < \"B\"") == "true");
  CHECK(ev("\"a\" == 1") == "error");  // strings and numbers do not compare
  CHECK(ev("\"1\" < 2") == "error");
  CHECK(ev("true == 1") == "true");
  CHECK(ev("true > false") == "true");
  CHECK(ev("true == \"true\"") == "error");
  CHECK(ev("x == 1") == "undefined");
  CHECK(ev("undefined == undefined") == "undefined");
  CHECK(ev("error == 1") == "error");
  CHECK(ev("{1} == {1}") == "error");
  CHECK(ev("[a=1] == [a=1]") == "error");
}

TEST_CASE("meta comparisons never yield undefined", "[operators]") {
  CHECK(ev("undefined =?= undefined") == "true");
  CHECK(ev("x =?= undefined") == "true");
  CHECK(ev("x =!= undefined") == "false");
  CHECK(ev("error =?= error") == "true");
  CHECK(ev("1 =?= 1") == "true");
  CHECK(ev("1 =?= 1.0") == "false");  // type and value
  CHECK(ev("1 =?= true") == "false");
  CHECK(ev("\"abc\" =?= \"ABC\"") == "false");  // case-sensitive
  CHECK(ev("\"abc\" is \"abc\"") == "true");
  CHECK(ev("\"abc\" isnt \"ABC\"") == "true");
  CHECK(ev("1 =!= \"1\"") == "true");
  CHECK(ev("false =?= false") == "true");
}

TEST_CASE("logical operators are non-strict", "[operators]") {
  // The full three-valued tables.
  const char* values[] = {"false", "true", "undefined", "error"};
  const char* and_table[4][4] = {{"false", "false", "false", "false"},
                                 {"false", "true", "undefined", "error"},
                                 {"false", "undefined", "undefined", "error"},
                                 {"error", "error", "error", "error"}};
  const char* or_table[4][4] = {{"false", "true", "undefined", "error"},
                                {"true", "true", "true", "true"},
                                {"undefined", "true", "undefined", "error"},
                                {"error", "error", "error", "error"}};
  for (int a = 0; a < 4; ++a) {
    for (int b = 0; b < 4; ++b) {
      std::string l = values[a], r = values[b];
      CHECK(ev(l + " && " + r) == and_table[a][b]);
      CHECK(ev(l + " || " + r) == or_table[a][b]);
    }
  }
  CHECK(ev("0 || 2") == "true");  // numbers count as booleans
  CHECK(ev("1 && 0.0") == "false");
  CHECK(ev("\"foo\" && error") == "error");
  CHECK(ev("false || \"x\"") == "error");
  CHECK(ev("false && (1/0 == 1)") == "false");  // short circuit
}

TEST_CASE("conditional and elvis", "[operators]") {
  CHECK(ev("true ? 1 : 2") == "1");
  CHECK(ev("0 ? 1 : 2") == "2");
  CHECK(ev("undefined ? 1 : 2") == "undefined");
  CHECK(ev("error ? 1 : 2") == "error");
  CHECK(ev("\"x\" ? 1 : 2") == "error");
  CHECK(ev("false ? 1 : true ? 2 : 3") == "2");  // right associative
  CHECK(ev("undefined ?: 7") == "7");
  CHECK(ev("3 ?: 7") == "3");
  CHECK(ev("x ?: 1977") == "1977");
}

TEST_CASE("bitwise operators and shifts", "[operators]") {
  CHECK(ev("6 & 3") == "2");
  CHECK(ev("6 | 3") == "7");
  CHECK(ev("6 ^ 3") == "5");
  CHECK(ev("1 << 4") == "16");
  CHECK(ev("-16 >> 2") == "-4");
  CHECK(ev("-1 >>> 60") == "15");
  CHECK(ev("1 << 64") == "1");  // shift counts are modulo 64
  CHECK(ev("1.0 & 1") == "error");
  CHECK(ev("true | 1") == "error");
  CHECK(ev("1 | 2 ^ 3 & 4") == "3");  // & binds tighter than ^, ^ than |
}

TEST_CASE("precedence, low to high", "[operators]") {
  CHECK(ev("1 + 2 == 3") == "true");  // + above ==
  CHECK(ev("1 < 2 == true") == "true");
  CHECK(ev("2 | 1 == 1") == "error");  // == above |: 2 | true
  CHECK(ev("(2 | 1) == 3") == "true");
  CHECK(ev("false && false || true") == "true");
  CHECK(ev("true || false && false") == "true");
  CHECK(ev("1 + 1 << 1") == "4");      // + above <<
  CHECK(ev("-2 * -2") == "4");
}

TEST_CASE("subscripts", "[operators]") {
  CHECK(ev("{10, 20, 30}[1]") == "20");
  CHECK(ev("{10, 20}[2]") == "error");
  CHECK(ev("{10, 20}[-1]") == "error");
  CHECK(ev("{10}[\"a\"]") == "error");
  CHECK(ev("[a = 3; ab = 4][strcat(\"a\", \"b\")]") == "4");
  CHECK(ev("[a = 3][\"A\"]") == "3");
  CHECK(ev("[a = 3][\"c\"]") == "undefined");
  CHECK(ev("x[0]") == "undefined");
}

TEST_CASE("time arithmetic", "[operators]") {
  CHECK(ev("absTime(\"2004-01-01T00:00:00Z\") + relTime(\"1+00:00:00\")") ==
        "absTime(\"2004-01-02T00:00:00+00:00\")");
  CHECK(ev("absTime(\"2004-01-02T00:00:00Z\") - absTime(\"2004-01-01T00:00:00Z\")") == "relTime(\"1+00:00:00\")");
  CHECK(ev("relTime(60) * 2") == "relTime(\"2:00\")");
  CHECK(ev("relTime(60) < relTime(61)") == "true");
  CHECK(ev("absTime(0) == 0") == "error");
}
