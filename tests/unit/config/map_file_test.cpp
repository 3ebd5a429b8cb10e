// Map files for userMap() and AssignAccountingGroup, with the spec's
// example.
#include "model/config/map_file.h"

#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/classad/unparse.h"
#include "tests/unit/config/support.h"

using namespace cara::config;
using namespace cara::config::test;

namespace {

// central-manager-configuration, "Setting Accounting Group automatically
// per user".
constexpr const char* kSpecMap =
    "* Alice\tgroup_physics\n"
    "* Bob\tgroup_atlas\n"
    "* Carol group_physics\n"
    "* /^student_.*/\tgroup_students\n";

std::string groups(const MapFile& m, const std::string& user) {
  auto g = m.map(user);
  if (!g) return "<none>";
  std::string out;
  for (const auto& s : *g) out += (out.empty() ? "" : ",") + s;
  return out;
}

}  // namespace

TEST_CASE("the spec's map file", "[config][mapfile]") {
  auto m = MapFile::parse(kSpecMap, "groups.map");
  REQUIRE(m.ok());
  CHECK(groups(*m, "Alice") == "group_physics");
  CHECK(groups(*m, "Bob") == "group_atlas");
  CHECK(groups(*m, "Carol") == "group_physics");
  CHECK(groups(*m, "student_jane") == "group_students");
  CHECK(groups(*m, "Mallory") == "<none>");
  CHECK(groups(*m, "alice") == "<none>");  // names are exact
}

TEST_CASE("group lists, regex captures, quoting, comments", "[config][mapfile]") {
  auto m = MapFile::parse(
      "# users and their groups\n"
      "* alice group_a, group_b\n"
      "* \"bob smith\" group_c\n"
      "* /^(cms)[0-9]+$/ group_\\1,group_\\1.users\n"
      "* /^ADMIN/i group_admin\n"
      "* alice group_ignored\n",
      "m");
  REQUIRE(m.ok());
  CHECK(groups(*m, "alice") == "group_a,group_b");  // the first line for a name wins
  CHECK(groups(*m, "bob smith") == "group_c");
  CHECK(groups(*m, "cms001") == "group_cms,group_cms.users");
  CHECK(groups(*m, "admin_x") == "group_admin");
}

TEST_CASE("bad map lines name the line", "[config][mapfile]") {
  CHECK_THAT(MapFile::parse("* alice\n", "f").error(),
             Catch::Contains("f, line 1") && Catch::Contains("three fields"));
  CHECK_THAT(MapFile::parse("\n* /(unclosed/ g\n", "f").error(),
             Catch::Contains("line 2") && Catch::Contains("bad regular expression"));
  CHECK_THAT(MapFile::parse("* /abc g\n", "f").error(), Catch::Contains("unclosed /regex/"));
  CHECK_THAT(MapFile::parse("* /abc/q g\n", "f").error(), Catch::Contains("unknown regex option"));
}

TEST_CASE("userMap() sees the configured map sets", "[config][mapfile]") {
  auto h = host();
  h->add_file("/etc/cara/groups.map", kSpecMap);
  Config c = load(
      "SCHEDD_CLASSAD_USER_MAP_NAMES = Groups Inline\n"
      "CLASSAD_USER_MAPFILE_Groups = /etc/cara/groups.map\n"
      "CLASSAD_USER_MAPDATA_Inline @=end\n"
      "* dave group_x,group_y\n"
      "@end\n",
      h);
  auto maps = load_user_maps(c, *h);
  REQUIRE(maps.ok());
  cara::classad::EvalEnv env;
  env.user_maps = maps->get();
  auto ev = [&](const std::string& e) {
    return cara::classad::unparse(
        cara::classad::evaluate(**cara::classad::parse_expression(e), nullptr, nullptr, env));
  };
  CHECK(ev("userMap(\"Groups\", \"Alice\")") == "\"group_physics\"");
  CHECK(ev("userMap(\"groups\", \"student_x\")") == "\"group_students\"");
  CHECK(ev("userMap(\"Inline\", \"dave\")") == "\"group_x,group_y\"");
  CHECK(ev("userMap(\"Inline\", \"dave\", \"group_y\")") == "\"group_y\"");
  CHECK(ev("userMap(\"Inline\", \"dave\", \"group_z\")") == "\"group_x\"");
  CHECK(ev("userMap(\"Groups\", \"nobody\")") == "undefined");
  CHECK(ev("userMap(\"Nope\", \"Alice\", \"g\", \"dflt\")") == "\"dflt\"");
}

TEST_CASE("AssignAccountingGroup maps through its file", "[config][mapfile]") {
  auto h = host();
  h->add_file("/etc/cara/groups.map", kSpecMap);
  Config c = load("use FEATURE : AssignAccountingGroup(/etc/cara/groups.map)\n", h);
  auto maps = load_user_maps(c, *h);
  REQUIRE(maps.ok());
  CHECK((*maps)->map("AssignAccountingGroup", "Bob") == std::vector<std::string>{"group_atlas"});
}

TEST_CASE("map set errors", "[config][mapfile]") {
  auto h = host();
  Config missing = load("CLASSAD_USER_MAP_NAMES = G\n", h);
  CHECK_THAT(load_user_maps(missing, *h).error(), Catch::Contains("CLASSAD_USER_MAPFILE_G"));
  Config absent = load("CLASSAD_USER_MAP_NAMES = G\nCLASSAD_USER_MAPFILE_G = /nope.map\n", h);
  CHECK_THAT(load_user_maps(absent, *h).error(), Catch::Contains("/nope.map"));
  h->add_file("/bad.map", "* x\n");
  Config bad = load("CLASSAD_USER_MAP_NAMES = G\nCLASSAD_USER_MAPFILE_G = /bad.map\n", h);
  CHECK_THAT(load_user_maps(bad, *h).error(), Catch::Contains("/bad.map, line 1"));
}
