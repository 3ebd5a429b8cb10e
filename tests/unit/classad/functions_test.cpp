// Every built-in function (spec: HTCondor "Predefined Functions").
#include "support.h"

using namespace cara::classad;
using cara::classad::test::ad;
using cara::classad::test::ev;

TEST_CASE("type predicates", "[functions]") {
  CHECK(ev("isUndefined(x)") == "true");
  CHECK(ev("isUndefined(1)") == "false");
  CHECK(ev("isError(1/0)") == "true");
  CHECK(ev("isString(\"a\")") == "true");
  CHECK(ev("isInteger(3)") == "true");
  CHECK(ev("isInteger(3.0)") == "false");
  CHECK(ev("isReal(3.0)") == "true");
  CHECK(ev("isBoolean(true)") == "true");
  CHECK(ev("isBoolean(1)") == "false");
  CHECK(ev("isList({})") == "true");
  CHECK(ev("isClassAd([])") == "true");
  CHECK(ev("isAbsTime(absTime(0))") == "true");
  CHECK(ev("isRelTime(relTime(5))") == "true");
  CHECK(ev("isReal(3, 1)") == "error");
}

TEST_CASE("conversions", "[functions]") {
  CHECK(ev("int(3.9)") == "3");
  CHECK(ev("int(-3.9)") == "-3");
  CHECK(ev("int(\"3.9\")") == "3");
  CHECK(ev("int(\"2K\")") == "2048");
  CHECK(ev("int(true)") == "1");
  CHECK(ev("int(\"nope\")") == "error");
  CHECK(ev("int(undefined)") == "error");
  CHECK(ev("real(3)") == "3.0");
  CHECK(ev("real(\"-3.4\")") == "-3.4");
  CHECK(ev("real(false)") == "0.0");
  CHECK(ev("real(\"x\")") == "error");
  CHECK(ev("string(1)") == "\"1\"");
  CHECK(ev("string(2.5)") == "\"2.5\"");
  CHECK(ev("string({1,\"a\"})") == "\"{ 1,\\\"a\\\" }\"");
  CHECK(ev("string(undefined)") == "error");
  CHECK(ev("bool(1)") == "true");
  CHECK(ev("bool(0.0)") == "false");
  CHECK(ev("bool(\"TRUE\")") == "true");
  CHECK(ev("bool(\"maybe\")") == "error");
  CHECK(ev("bool(undefined)") == "undefined");
}

TEST_CASE("rounding and math", "[functions]") {
  CHECK(ev("floor(3.9)") == "3");
  CHECK(ev("floor(\"-3.4\")") == "-4");
  CHECK(ev("floor(5)") == "5");
  CHECK(ev("ceiling(3.1)") == "4");
  CHECK(ev("ceil(\"-3.4\")") == "-3");
  CHECK(ev("round(3.5)") == "4");
  CHECK(ev("round(2.5)") == "2");  // half to even (spec)
  CHECK(ev("round(-3.5)") == "-4");
  CHECK(ev("round(1e12)") == "error");  // does not fit 32 bits
  CHECK(ev("floor(\"x\")") == "error");
  CHECK(ev("pow(2, 10)") == "1024");
  CHECK(ev("pow(2, -1)") == "0.5");
  CHECK(ev("pow(2.0, 3)") == "8.0");
  CHECK(ev("pow(0, 0)") == "1");
  CHECK(ev("pow(\"2\", 2)") == "error");
  // The spec's quantize examples.
  CHECK(ev("quantize(3, 8)") == "8");
  CHECK(ev("quantize(3, 2)") == "4");
  CHECK(ev("quantize(0, 4)") == "0");
  CHECK(ev("quantize(1.5, 6.8)") == "6.8");
  CHECK(ev("quantize(10, 5.1)") == "10.2");
  CHECK(ev("quantize(0, {4})") == "4");
  CHECK(ev("quantize(2, {1, 2, \"A\"})") == "2");
  CHECK(ev("quantize(3, {1, 2, 0.5})") == "3.0");
  CHECK(ev("quantize(2.7, {1, 2, 0.5})") == "3.0");
  CHECK(ev("quantize(3, {1, 2, \"A\"})") == "error");
}

namespace {
struct Counter : RandomSource {
  std::uint64_t n = 0;
  std::uint64_t next() override { return n++ * 0x9E3779B97F4A7C15ull; }
};
}  // namespace

TEST_CASE("random draws from the environment's source", "[functions]") {
  Counter c;
  EvalEnv env;
  env.random = &c;
  for (int i = 0; i < 100; ++i) {
    Value r = evaluate(**parse_expression("random(5)"), nullptr, nullptr, env);
    REQUIRE(r.is_int());
    CHECK(r.as_int() >= 0);
    CHECK(r.as_int() < 5);
    Value u = evaluate(**parse_expression("random()"), nullptr, nullptr, env);
    REQUIRE(u.is_real());
    CHECK(u.as_real() < 1.0);
    Value f = evaluate(**parse_expression("random(3.5)"), nullptr, nullptr, env);
    CHECK(f.as_real() < 3.5);
  }
  CHECK(unparse(evaluate(**parse_expression("random(\"-3\")"), nullptr)) == "error");
}

TEST_CASE("string functions", "[functions]") {
  CHECK(ev("strcat(\"a\", 1, 2.5, true)") == "\"a12.5true\"");
  CHECK(ev("strcat()") == "\"\"");
  CHECK(ev("strcat(\"a\", x)") == "error");  // spec: undefined gives error
  CHECK(ev("join(\", \", \"a\", \"b\", \"c\")") == "\"a, b, c\"");
  CHECK(ev("join(split(\"a b c\"))") == "\"abc\"");
  CHECK(ev("join(\";\", split(\"a b c\"))") == "\"a;b;c\"");
  CHECK(ev("substr(\"abcdefg\", 3)") == "\"defg\"");
  CHECK(ev("substr(\"abcdefg\", -2, 1)") == "\"f\"");
  CHECK(ev("substr(\"abcdefg\", 3, -1)") == "\"def\"");
  CHECK(ev("substr(\"abcdefg\", 9, 3)") == "\"\"");
  CHECK(ev("substr(\"abcdefg\", -9, 3)") == "\"abc\"");
  CHECK(ev("substr(\"abcdefg\", 3.3)") == "error");
  CHECK(ev("substr(x, 1)") == "undefined");
  CHECK(ev("toUpper(\"aBc\")") == "\"ABC\"");
  CHECK(ev("toLower(\"aBc\")") == "\"abc\"");
  CHECK(ev("toLower(true)") == "\"true\"");
  CHECK(ev("strcmp(\"a\", \"b\")") == "-1");
  CHECK(ev("strcmp(\"b\", \"a\")") == "1");
  CHECK(ev("strcmp(\"a\", \"A\") != 0") == "true");
  CHECK(ev("stricmp(\"a\", \"A\")") == "0");
  CHECK(ev("strcmp(x, \"a\")") == "error");
  CHECK(ev("size(\"abc\")") == "3");
  CHECK(ev("size({1,2})") == "2");
  CHECK(ev("size([a=1;b=2])") == "2");
  CHECK(ev("size(3)") == "error");
  CHECK(ev("size(x)") == "undefined");
  CHECK(ev("split(\"a, b  c\")") == "{ \"a\",\"b\",\"c\" }");
  CHECK(ev("split(\"a,B,c\")") == "{ \"a\",\"B\",\"c\" }");  // the manual's $EVAL example
  CHECK(ev("split(\"a,b;c\", \",;\")") == "{ \"a\",\"b\",\"c\" }");
  CHECK(ev("splitUserName(\"user@domain\")") == "{ \"user\",\"domain\" }");
  CHECK(ev("splitUserName(\"user\")") == "{ \"user\",\"\" }");
  CHECK(ev("splitSlotName(\"slot1@host\")") == "{ \"slot1\",\"host\" }");
  CHECK(ev("splitSlotName(\"host\")") == "{ \"\",\"host\" }");
}

TEST_CASE("list functions", "[functions]") {
  CHECK(ev("member(1, {1, 2, 3})") == "true");
  CHECK(ev("member(\"A\", {\"a\"})") == "true");
  CHECK(ev("member(4, {1, 2, 3})") == "false");
  CHECK(ev("member(x, {1})") == "undefined");
  CHECK(ev("member(1, 1)") == "error");
  CHECK(ev("identicalMember(\"A\", {\"a\"})") == "false");
  CHECK(ev("identicalMember(x, {undefined})") == "true");
  CHECK(ev("sum({1, 2, 3})") == "6");
  CHECK(ev("sum({1, 2.5})") == "3.5");
  CHECK(ev("sum({})") == "0");
  CHECK(ev("sum({undefined})") == "undefined");
  CHECK(ev("sum({1, undefined, 2})") == "3");
  CHECK(ev("sum({1, \"a\"})") == "error");
  CHECK(ev("avg({1, 2})") == "1.5");
  CHECK(ev("avg({})") == "0.0");
  CHECK(ev("min({3, 1, 2})") == "1");
  CHECK(ev("max({3, 1, 2.5})") == "3.0");
  CHECK(ev("min({})") == "undefined");
  CHECK(ev("max(x)") == "undefined");
  CHECK(ev("anyCompare(\"<\", {5, 1}, 3)") == "true");
  CHECK(ev("allCompare(\"<\", {5, 1}, 3)") == "false");
  CHECK(ev("anyCompare(\"<\", {}, 3)") == "false");
  CHECK(ev("allCompare(\"<\", {}, 3)") == "true");
  CHECK(ev("allCompare(\"is\", {1, 1}, 1)") == "true");
  CHECK(ev("anyCompare(\"~\", {1}, 1)") == "error");
  CHECK(ev("anyCompare(\"==\", {\"a\"}, 1)") == "error");
}

TEST_CASE("time functions", "[functions]") {
  EvalEnv env;
  env.now = 1174737600;  // 2007-03-24 12:00:00 UTC
  CHECK(ev("time()", nullptr, nullptr, env) == "1174737600");
  CHECK(ev("formatTime(1174737600, \"%m/%d/%y\")", nullptr, nullptr, env) == "\"03/24/07\"");
  CHECK(ev("formatTime(\"%H\")", nullptr, nullptr, env) == "error");
  CHECK(ev("formatTime()", nullptr, nullptr, env) == "\"Sat Mar 24 12:00:00 2007\"");
  env.local_offset = 3600;
  CHECK(ev("formatTime(0, \"%H:%M %Z\")", nullptr, nullptr, env) == "\"01:00 +0100\"");
  CHECK(ev("absTime()", nullptr, nullptr, env) == "absTime(\"2007-03-24T13:00:00+01:00\")");
  CHECK(ev("absTime(\"2004-01-01\")", nullptr, nullptr, env) == "absTime(\"2004-01-01T00:00:00+01:00\")");
  CHECK(ev("int(absTime(\"1970-01-01T:00:00:01Z\"))") == "1");
  CHECK(ev("int(relTime(\"01:00:01\"))") == "3601");
  CHECK(ev("relTime(\"1d2h3m4.5s\")") == "relTime(\"1+02:03:04.500\")");
  CHECK(ev("absTime(\"not a time\")") == "error");
  CHECK(ev("splitTime(relTime(\"1d2h3m4.5s\")).Seconds") == "4.5");
  CHECK(ev("splitTime(absTime(\"1997-08-30T16:04:05-0500\")).Offset") == "-18000");
  CHECK(ev("formatTime(absTime(\"1997-08-30T16:04:05-0500\"), \"%A %a %B %b %j\")") ==
        "\"Saturday Sat August Aug 242\"");
  CHECK(ev("formatTime(splitTime(absTime(\"1997-08-30T16:04:05-0500\")), \"%H:%M:%S\")") == "\"16:04:05\"");
  CHECK(ev("formatTime(absTime(\"1997-08-30T16:04:05-0500\"))") == "\"Sat Aug 30 16:04:05 1997\"");
  CHECK(ev("interval(1)") == "\"1\"");
  CHECK(ev("interval(60)") == "\"1:00\"");
  CHECK(ev("interval(3600*3 + 60*2 + 1)") == "\"3:02:01\"");
  CHECK(ev("interval(86400)") == "\"1+00:00:00\"");
}

TEST_CASE("regular expressions", "[functions]") {
  CHECK(ev("regexp(\"Alain.*Roy\", \"Alain Aslag Roy\")") == "true");
  CHECK(ev("regexp(\"alain.*roy\", \"Alain Aslag Roy\")") == "false");
  CHECK(ev("regexp(\"alain.*roy\", \"Alain Aslag Roy\", \"i\")") == "true");
  CHECK(ev("regexp(\"(\", \"x\")") == "error");
  CHECK(ev("regexp(20, \"x\")") == "error");
  CHECK(ev("regexpMember(\"b.*\", {\"aa\", \"bb\"})") == "true");
  CHECK(ev("regexpMember(\"b.*\", {1, \"bb\"})") == "error");
  CHECK(ev("regexpMember(\"b.*\", {\"a\", undefined})") == "undefined");
  CHECK(ev("regexps(\"[abc]*([def]*)[ghi]*\", \"aaabbbdddeeeggg\", \"\\\\1\")") == "\"dddeee\"");
  CHECK(ev("regexps(\"[abc]*([def]*)[ghi]*\", \"abc\", \"\\\\2\")") == "error");
  CHECK(ev("regexps(\"s(.)\", \"thisisalist\", \"S\\\\1\", \"fg\")") == "\"thiSiSaliSt\"");
  CHECK(ev("replace(\"s(.)\", \"thisis\", \"S\\\\1\")") == "\"thiSis\"");
  CHECK(ev("replaceAll(\"s(.)\", \"thisisx\", \"S\\\\1\")") == "\"thiSiSx\"");
  CHECK(ev("replace(\"zz\", \"thisis\", \"y\")") == "\"thisis\"");
  CHECK(ev("stringList_regexpMember(\"gr.en\", \"red, blue, green\")") == "true");
  CHECK(ev("stringList_regexpMember(\"gr.en\", \"\")") == "undefined");
}

TEST_CASE("string lists", "[functions]") {
  CHECK(ev("stringListSize(\"a, b ,c\")") == "3");
  CHECK(ev("stringListSize(\"\")") == "0");
  CHECK(ev("stringListSize(\"a;b\", \";\")") == "2");
  CHECK(ev("stringListSum(\"1,2,3\")") == "6");
  CHECK(ev("stringListSum(\"1,2.0,3\")") == "6.0");
  CHECK(ev("stringListSum(\"\")") == "0.0");
  CHECK(ev("stringListSum(\"a,b\")") == "error");
  CHECK(ev("stringListAvg(\"10, 20, 30, 40\")") == "25.0");
  CHECK(ev("stringListMin(\"-1,2,-3\")") == "-3");
  CHECK(ev("stringListMax(\"1 , 4.5, -5\")") == "4.5");
  CHECK(ev("stringListMin(\"\")") == "undefined");
  CHECK(ev("stringListMember(\"green\", \"red, blue, green\")") == "true");
  CHECK(ev("stringListMember(\"GREEN\", \"red, blue, green\")") == "false");
  CHECK(ev("stringListIMember(\"GREEN\", \"red, blue, green\")") == "true");
  CHECK(ev("stringListMember(x, x)") == "undefined");
  CHECK(ev("stringListMember(\"a\", {\"a\"})") == "error");
  CHECK(ev("stringListSubsetMatch(\"a,b\", \"b, c, a\")") == "true");
  CHECK(ev("stringListSubsetMatch(\"a,d\", \"b, c, a\")") == "false");
  CHECK(ev("stringListISubsetMatch(\"A\", \"a\")") == "true");
  CHECK(ev("stringListSubsetMatch(\"\", \"a\")") == "true");
  CHECK(ev("stringListsIntersect(\"one,two\", \"two,three\")") == "true");
  CHECK(ev("stringListsIntersect(\"one;two\", \"three;four\", \";\")") == "false");
  CHECK(ev("stringListsIntersect(\"one\", undefined)") == "undefined");
}

TEST_CASE("version comparison", "[functions]") {
  CHECK(ev("versioncmp(\"7.9\", \"7.10\")") == "-1");
  CHECK(ev("versioncmp(\"8.0\", \"8.0\")") == "0");
  CHECK(ev("versionGT(\"10.0\", \"9.9\")") == "true");
  CHECK(ev("versionLT(\"7.x\", \"7.y\")") == "true");
  CHECK(ev("versionGE(\"1\", \"1\")") == "true");
  CHECK(ev("versionLE(\"2\", \"1\")") == "false");
  CHECK(ev("versionEQ(\"7\", \"7.0\")") == "false");
  CHECK(ev("version_in_range(\"8.5\", \"8.0\", \"9.0\")") == "true");
  CHECK(ev("versioncmp(1, \"1\")") == "error");
  // The spec's order: 000, 00, 01, 010, 09, 0, 1, 9, 10.
  const char* order[] = {"000", "00", "01", "010", "09", "0", "1", "9", "10"};
  for (std::size_t i = 0; i + 1 < std::size(order); ++i) {
    CHECK(ev(std::string("versionLT(\"") + order[i] + "\", \"" + order[i + 1] + "\")") == "true");
  }
}

TEST_CASE("ifThenElse, eval, unparse, debug", "[functions]") {
  CHECK(ev("ifThenElse(1 + 1 == 2, 3, 4)") == "3");
  CHECK(ev("ifThenElse(0.0, \"then\", \"else\")") == "\"else\"");
  CHECK(ev("ifThenElse(3.7, \"then\", 1/0)") == "\"then\"");  // lazy
  CHECK(ev("ifThenElse(undefined, 3, 4)") == "undefined");
  CHECK(ev("ifThenElse(error, 3, 4)") == "error");
  CHECK(ev("ifThenElse(\"x\", 3, 4)") == "error");
  CHECK(ev("ifThenElse(1, 2)") == "error");
  CHECK(ev("eval(\"1+1\")") == "2");
  CHECK(ev("eval(1+1)") == "2");
  CHECK(ev("eval(\"1+\")") == "error");
  ClassAd a = ad("[ A = 1; B = 2; C = eval(\"A+B\"); D = x + 3; SlotID = 5; slot15_State = \"Claimed\" ]");
  CHECK(ev("C", &a) == "3");
  CHECK(ev("eval(strcat(\"slot\", SlotID+10, \"_State\"))", &a) == "\"Claimed\"");  // the spec's example
  CHECK(ev("unparse(D)", &a) == "\"x + 3\"");
  CHECK(ev("unparse(Missing)", &a) == "\"\"");
  CHECK(ev("unparse(1)", &a) == "error");
  CHECK(ev("debug(2 * 3)") == "6");
  CHECK(ev("noSuchFunction(1)") == "error");
}

namespace {
struct Maps : UserMaps {
  std::optional<std::vector<std::string>> map(std::string_view set, std::string_view user) const override {
    if (set == "Groups" && user == "alice") return std::vector<std::string>{"physics", "cms"};
    return std::nullopt;
  }
};
}  // namespace

TEST_CASE("userMap goes through the configuration hook", "[functions]") {
  Maps maps;
  EvalEnv env;
  env.user_maps = &maps;
  CHECK(ev("userMap(\"Groups\", \"alice\")", nullptr, nullptr, env) == "\"physics,cms\"");
  CHECK(ev("userMap(\"Groups\", \"alice\", \"cms\")", nullptr, nullptr, env) == "\"cms\"");
  CHECK(ev("userMap(\"Groups\", \"alice\", \"other\")", nullptr, nullptr, env) == "\"physics\"");
  CHECK(ev("userMap(\"Groups\", \"bob\", \"cms\")", nullptr, nullptr, env) == "undefined");
  CHECK(ev("userMap(\"Groups\", \"bob\", \"cms\", \"none\")", nullptr, nullptr, env) == "\"none\"");
  CHECK(ev("userMap(\"Groups\", \"alice\")") == "undefined");  // no maps configured
}

TEST_CASE("an evaluation that reads the clock, the random source or the user maps says so", "[functions]") {
  // A negotiator keeps what it learnt of a slot ad across cycles only when
  // no evaluation of it read the outside world (negotiation/slot_memo.h).
  Maps maps;
  Counter c;
  auto reads_outside = [&](const std::string& text) {
    bool outside = false;
    EvalEnv env;
    env.now = 1174737600;
    env.random = &c;
    env.user_maps = &maps;
    env.outside_read = &outside;
    const ClassAd my = ad("[ Start = 1174737000; Retired = time() - Start > 300; Memory = 2048 ]");
    (void)evaluate(**parse_expression(text), &my, nullptr, env);
    return outside;
  };
  CHECK_FALSE(reads_outside("Memory * 2 > 1024 && strcat(\"a\", \"b\") == \"ab\""));
  CHECK_FALSE(reads_outside("int(relTime(\"01:00:01\"))"));
  CHECK(reads_outside("time()"));
  CHECK(reads_outside("Retired"));  // through an attribute that reads it
  CHECK(reads_outside("formatTime()"));
  CHECK(reads_outside("random(5)"));
  CHECK(reads_outside("userMap(\"Groups\", \"alice\")"));
  CHECK_FALSE(reads_outside("false && time() > 0"));  // not evaluated
}
