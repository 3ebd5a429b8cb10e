// The helpers every layer shares, once: ASCII case and environment
// entries.
#include <catch2/catch.hpp>

#include "model/common/environment.h"
#include "model/common/text.h"

using namespace cara;

TEST_CASE("ASCII case folding ignores the locale and non-ASCII bytes", "[common]") {
  CHECK(to_lower("Group_CMS.User@Physik") == "group_cms.user@physik");
  CHECK(to_lower("\xC3\x84rger") == "\xC3\x84rger");
  CHECK(iequals("MEMORY", "memory"));
  CHECK_FALSE(iequals("memory", "memor"));
  CHECK_FALSE(iequals("I", "\xC4\xB1"));
}

TEST_CASE("environment entries split at the first '='", "[common]") {
  using Pairs = std::vector<std::pair<std::string, std::string>>;
  CHECK(parse_environment({"A=1", "B=x=y", "C=", "junk", "=v"}) ==
        Pairs{{"A", "1"}, {"B", "x=y"}, {"C", ""}, {"", "v"}});
}
