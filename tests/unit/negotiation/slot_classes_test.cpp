// Slot classes (slot_classes.h, slot_key.h): slots alike to every
// expression of the cycle are one class, and slots that differ in a value
// the cycle reads are never one.
#include "tests/unit/negotiation/support.h"

using namespace cara;
using namespace cara::test;

TEST_CASE("slots are one class only when every value the cycle reads is the same", "[negotiation][issue30]") {
  // The job reads Tag. Values that look alike but are not the same value:
  // an integer and a real, a number and a string, strings of other case
  // or length (short ones are held in the ad's index, longer ones in the
  // expression), an expression and the literal it gives, absent.
  const std::vector<std::string> tags = {"Tag = 1",
                                         "Tag = 1.0",
                                         "Tag = \"1\"",
                                         "Tag = \"ab\"",
                                         "Tag = \"abc\"",
                                         "Tag = \"ABC\"",
                                         "Tag = \"abcdefghi\"",
                                         "Tag = \"abcdefghj\"",
                                         "Tag = strcat(\"a\", \"b\")",
                                         "",
                                         "Tag = true",
                                         "Tag = 1",
                                         "Tag = \"abcdefghi\"",
                                         "Tag = strcat(\"a\", \"b\")"};
  Pool p("");
  for (std::size_t i = 0; i < tags.size(); ++i)
    p.slots.push_back(slot("slot1@m" + std::to_string(i), tags[i]));
  p.submit("alice@example.org", 1, 1, "Requirements = TARGET.Tag =!= \"none\"");
  const auto r = p.run();
  // Fourteen slots, three of them repeating another's value.
  CHECK(r.stats.slot_classes == 11);
  CHECK(r.matches.size() == 1);
  // The plain algorithm: every slot a class of its own, the same match.
  const auto plain = p.run(false, false);
  CHECK(plain.stats.slot_classes == 14);
  REQUIRE(plain.matches.size() == 1);
  CHECK(plain.matches[0].slot_name == r.matches[0].slot_name);
}
