// The order the group actors hear of a cycle in: the groups' turns.
#include <catch2/catch.hpp>

#include "model/negotiation/negotiation_cycle.h"

using namespace cara::negotiation;

TEST_CASE("groups hear of a cycle in their turn order, groups without a turn last", "[negotiation][groups]") {
  CycleResult r;
  for (auto [name, turn] : std::vector<std::pair<const char*, int>>{
           {"<none>", -1}, {"group_cms", 1}, {"group_auger", 0}, {"idle", -1}, {"group_icecube", 2}}) {
    GroupOutcome o;
    o.name = name;
    o.turn = turn;
    r.groups.push_back(o);
  }
  std::vector<std::string> names;
  for (const GroupOutcome* o : groups_in_turn_order(r)) names.push_back(o->name);
  CHECK(names == std::vector<std::string>{"group_auger", "group_cms", "group_icecube", "<none>", "idle"});
}
