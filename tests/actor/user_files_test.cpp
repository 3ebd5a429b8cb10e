// A daemon running as root writes a user's files (the job's user log) with
// that user's rights (actors/user_files.h): where the user may not write,
// nothing is written, and what is written belongs to the user.
#include "actors/user_files.h"

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "actors/system_accounts.h"
#include "tests/support/scratch.h"

namespace fs = std::filesystem;
using namespace cara;
using namespace cara::actors;

TEST_CASE("a user's log is written with the user's rights", "[user_files][root]") {
  scratch::TempDir dir("userfiles");
  if (::geteuid() != 0) {
    // Not root: written as this process, like any file of its own.
    REQUIRE(append_as((dir.path / "log").string(), "one\n", nullptr).ok());
    REQUIRE(append_as((dir.path / "log").string(), "two\n", nullptr).ok());
    std::ifstream in(dir.path / "log");
    std::stringstream s;
    s << in.rdbuf();
    CHECK(s.str() == "one\ntwo\n");
    WARN("the rest is skipped: writing as another user needs root");
    return;
  }
  auto nobody = SystemAccounts().find("nobody");
  if (!nobody) {
    WARN("skipped: this machine has no user nobody");
    return;
  }
  ::chmod(dir.path.c_str(), 0755);
  // A file only root may write (as /etc/passwd is): refused, untouched.
  const fs::path precious = dir.path / "precious";
  std::ofstream(precious) << "root's\n";
  auto refused = append_as(precious.string(), "owned\n", &*nobody);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.error(), Catch::Contains("Permission denied") && Catch::Contains(precious.string()));
  std::ifstream in(precious);
  std::string line;
  std::getline(in, line);
  CHECK(line == "root's");
  // In the user's own directory: written, and the file is the user's.
  const fs::path home = dir.path / "home";
  fs::create_directories(home);
  REQUIRE(::chown(home.c_str(), nobody->uid, nobody->gid) == 0);
  REQUIRE(append_as((home / "job.log").string(), "000 (001.000.000)\n", &*nobody).ok());
  struct stat st {};
  REQUIRE(::stat((home / "job.log").c_str(), &st) == 0);
  CHECK(st.st_uid == nobody->uid);
  // The thread is root again afterwards.
  std::ofstream(dir.path / "after") << "x";
  REQUIRE(::stat((dir.path / "after").c_str(), &st) == 0);
  CHECK(st.st_uid == 0);
}
