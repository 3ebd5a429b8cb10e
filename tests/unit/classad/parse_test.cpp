// Lexer and parser: literals, both ad syntaxes, names, errors with position.
#include "support.h"

using namespace cara::classad;
using cara::classad::test::ad;
using cara::classad::test::ev;

TEST_CASE("literals of every kind", "[parse]") {
  CHECK(ev("42") == "42");
  CHECK(ev("-7") == "-7");
  CHECK(ev("2.5") == "2.5");
  CHECK(ev("1e3") == "1000.0");
  CHECK(ev("1.5E-2") == "0.015");
  CHECK(ev(".5") == "0.5");
  CHECK(ev("2K") == "2048.0");  // unit suffixes make reals (Value::ApplyFactor)
  CHECK(ev("1M") == "1048576.0");
  CHECK(ev("0x1F") == "31");
  CHECK(ev("010") == "10");  // old-ClassAd semantics: no octal
  CHECK(ev("\"a\\\"b\\\\c\\n\"") == "\"a\\\"b\\\\c\\n\"");
  CHECK(ev("\"one\" \"two\"") == "\"onetwo\"");  // adjacent strings concatenate
  CHECK(ev("TRUE") == "true");
  CHECK(ev("False") == "false");
  CHECK(ev("UNDEFINED") == "undefined");
  CHECK(ev("Error") == "error");
  CHECK(ev("{1, \"a\", {2}}") == "{ 1,\"a\",{ 2 } }");
  CHECK(ev("{}") == "{  }");
  CHECK(ev("[a = 1; b = \"x\"]") == "[ a = 1; b = \"x\" ]");
  CHECK(ev("9223372036854775807") == "9223372036854775807");
  CHECK(ev("-9223372036854775808") == "-9223372036854775808");
  CHECK(ev("99999999999999999999") == "9223372036854775807");  // saturates like strtoll
}

TEST_CASE("comments and white space", "[parse]") {
  CHECK(ev("1 + /* two */ 2 // rest") == "3");
  CHECK(ev("time\n  () >= 0") == "true");  // the thesis splits time() across lines
}

TEST_CASE("new-syntax ads", "[parse]") {
  ClassAd a = ad("[ a = 1; B = a + 1; ;; 'odd name' = \"x\"; ]");
  CHECK(a.size() == 3);
  CHECK(a.find("b"));  // names are case-insensitive
  CHECK(a.find("ODD NAME"));
  CHECK(unparse(*a.lookup("odd name")) == "\"x\"");
  CHECK(ev("B", &a) == "2");
}

TEST_CASE("old long form, as condor_status -l prints", "[parse]") {
  ClassAd a =
      ad("MyType = \"Machine\"\n"
         "Name = \"slot1@host\"\n"
         "\n"
         "# comment\n"
         "Cpus = 4\n"
         "Path = \"C:\\temp\\new\"\n"
         "Requirements = (START)\n"
         "START = (KeyboardIdle > 15*60) && (LoadAvg <= 0.3)\n");
  CHECK(a.size() == 6);
  CHECK(ev("Cpus", &a) == "4");
  // A backslash in an old-syntax string is literal.
  CHECK(ev("size(Path)", &a) == "11");
  CHECK(unparse_long_form(a).find("Path = \"C:\\temp\\new\"\n") != std::string::npos);
  auto ads = parse_long_form_ads("A = 1\nB = 2\n\nA = 3\n");
  REQUIRE(ads.ok());
  CHECK(ads->size() == 2);
}

TEST_CASE("old long form quote escapes", "[parse]") {
  ClassAd a = ad("S = \"say \\\"hi\\\"\"\nT = \"ends with \\\"\n");
  CHECK(ev("S", &a) == "\"say \\\"hi\\\"\"");
  CHECK(ev("T", &a) == "\"ends with \\\\\"");
}

TEST_CASE("parse errors name line, column and what was expected", "[parse]") {
  auto e = parse_expression("(1 + 2");
  REQUIRE_FALSE(e.ok());
  CHECK(e.error() == "line 1, column 7: expected ')' but found end of input");
  e = parse_expression("a +\n  * b");
  REQUIRE_FALSE(e.ok());
  CHECK(e.error() == "line 2, column 3: expected an expression but found '*'");
  e = parse_expression("1 2");
  REQUIRE_FALSE(e.ok());
  CHECK(e.error() == "line 1, column 3: unexpected '2' after the expression");
  e = parse_expression("\"open");
  REQUIRE_FALSE(e.ok());
  CHECK(e.error().find("unterminated string") != std::string::npos);
  e = parse_expression("a @ b");
  REQUIRE_FALSE(e.ok());
  CHECK(e.error().find("column 3: unexpected character '@'") != std::string::npos);
  auto bad = parse_long_form("A = 1\nB = (2\n");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error() == "line 2, column 7: in the value of B: expected ')' but found end of input");
  bad = parse_long_form("A = 1\n= 2\n");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error() == "line 2, column 1: expected an attribute name at the start of the line");
  auto nad = parse_new_classad("[ a = 1 b = 2 ]");
  REQUIRE_FALSE(nad.ok());
  CHECK(nad.error() == "line 1, column 9: expected ';' or ']' after the value of a but found 'b'");
}

TEST_CASE("nesting is bounded, never a stack overflow", "[parse]") {
  std::string deep(100000, '(');
  auto e = parse_expression(deep + "1" + std::string(100000, ')'));
  REQUIRE_FALSE(e.ok());
  CHECK(e.error().find("nested too deeply") != std::string::npos);
  std::string minus(100000, '-');
  CHECK_FALSE(parse_expression(minus + "x").ok());
  std::string lists(100000, '{');
  CHECK_FALSE(parse_expression(lists).ok());
}

TEST_CASE("NUL bytes are refused in strings (fuzzer finding)", "[parse]") {
  CHECK_FALSE(parse_expression(std::string("\"a\0b\"", 5)).ok());
  CHECK_FALSE(parse_expression(std::string("\"a\\\0\"", 5)).ok());
  CHECK_FALSE(parse_expression("\"\\000\"").ok());
  CHECK_FALSE(parse_expression(std::string("A = \"\0\"", 7), StringSyntax::Old).ok());
}

TEST_CASE("a query constraint that does not parse is named as a constraint", "[parse]") {
  CHECK(cara::classad::parse_constraint("Cpus > 2").ok());
  auto bad = cara::classad::parse_constraint("Cpus >");
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error(), Catch::StartsWith("constraint 'Cpus >' does not parse: "));
}

TEST_CASE("strings with and without escapes, alone and adjacent", "[parse]") {
  // The lexer views the source for a string without escapes and decodes
  // into a buffer otherwise; every mix must read the same.
  CHECK(ev("\"a\\\"b\" \"c\"") == "\"a\\\"bc\"");
  CHECK(ev("\"c\" \"a\\\"b\"") == "\"ca\\\"b\"");
  CHECK(ev("\"x\\ty\" \"\\n\" \"z\"") == "\"x\\ty\\nz\"");
  CHECK(ev("strcat(\"p\\\\q\", \"r\")") == "\"p\\\\qr\"");
  CHECK(ev("'quoted \\'name'") == "undefined");
  ClassAd a = ad("[ 'we\\'ird' = 7; b = 'we\\'ird' + 1 ]");
  CHECK(unparse(evaluate(*a.lookup("b"), &a, nullptr)) == "8");
  // Old syntax: a backslash is literal except before a quote.
  auto old = parse_long_form("S = \"C:\\dir\\file\" \"x\"\nQ = \"say \\\"hi\\\"\" \"!\"\n");
  REQUIRE(old.ok());
  CHECK(unparse(evaluate(*old->lookup("S"), nullptr, nullptr)) == "\"C:\\\\dir\\\\filex\"");
  CHECK(unparse(evaluate(*old->lookup("Q"), nullptr, nullptr)) == "\"say \\\"hi\\\"!\"");
}
