// Which account a job runs as (model/startd/run_as.h): its owner when the
// UID domains agree, a SLOT<N>_USER or nobody otherwise, never root; a
// startd that is not root runs every job as itself.
#include "model/startd/run_as.h"

#include <catch2/catch.hpp>
#include <map>

#include "model/classad/parser.h"
#include "tests/unit/startd/support.h"

using namespace cara;
using namespace cara::startd;

namespace {

class TableBook : public AccountBook {
 public:
  TableBook() {
    add({"root", 0, 0, {0}});
    add({"alice", 1001, 1001, {1001, 2000}});
    add({"bob", 1002, 1002, {1002}});
    add({"toor", 0, 0, {0}});  // another name for uid 0
    add({"slotuser1", 3001, 3001, {3001}});
    add({"nobody", 65534, 65534, {65534}});
  }
  void add(Account a) { table_[a.name] = a; }
  void remove(const std::string& name) { table_.erase(name); }
  std::optional<Account> find(std::string_view name) const override {
    auto it = table_.find(std::string(name));
    if (it == table_.end()) return std::nullopt;
    return it->second;
  }

 private:
  std::map<std::string, Account> table_;
};

const Account kRoot{"root", 0, 0, {0}};
const Account kCondor{"condor", 500, 500, {500}};

RunAsPolicy policy(const std::string& text) {
  auto c = test::startd_config("UID_DOMAIN = example.org\n" + text, test::machine_host(2, 2048));
  auto p = RunAsPolicy::from_config(c);
  if (!p) FAIL(p.error());
  return *p;
}

classad::ClassAd job(const std::string& owner, const std::string& domain = "example.org",
                     const std::string& extra = "") {
  auto ad = classad::parse_classad("[ Owner = \"" + owner + "\"; User = \"" + owner + "@" + domain + "\"; " +
                                   extra + " ]");
  REQUIRE(ad);
  return *ad;
}

Submission from(const std::string& host, int slot = 1) {
  Submission s;
  s.slot_id = slot;
  s.schedd_host = host;
  return s;
}

}  // namespace

TEST_CASE("run as: the owner, when the UID domains agree and the access point is in the domain",
          "[startd][run_as]") {
  TableBook book;
  const RunAsPolicy p = policy("");
  RunAs r = decide_run_as(p, job("alice"), from("ap.example.org"), book, kRoot);
  REQUIRE(r.ok);
  CHECK(r.switch_user);
  CHECK(r.how == "owner");
  CHECK(r.account.uid == 1001);
  CHECK(r.account.gid == 1001);
  CHECK(r.account.groups == std::vector<std::uint32_t>{1001, 2000});
  // The domain itself and names under it are in it; a look-alike is not.
  CHECK(decide_run_as(p, job("alice"), from("example.org"), book, kRoot).how == "owner");
  CHECK(decide_run_as(p, job("alice"), from("AP.Example.ORG"), book, kRoot).how == "owner");
  CHECK(decide_run_as(p, job("alice"), from("evilexample.org"), book, kRoot).how == "nobody");
}

TEST_CASE("run as: the table of who runs a job", "[startd][run_as]") {
  TableBook book;
  struct Row {
    const char* config;
    const char* owner;
    const char* domain;
    const char* extra;
    const char* host;
    int slot;
    const char* how;  // or "held: <part of the reason>"
    std::uint32_t uid;
  };
  const Row rows[] = {
      // UID domain mismatch: nobody, or the slot's dedicated user.
      {"", "alice", "other.org", "", "ap.example.org", 1, "nobody", 65534},
      {"SLOT1_USER = slotuser1", "alice", "other.org", "", "ap.example.org", 1, "SLOT1_USER", 3001},
      {"SLOT1_USER = slotuser1", "alice", "other.org", "", "ap.example.org", 2, "nobody", 65534},
      // The access point's host is not in the domain: only TRUST_UID_DOMAIN believes it.
      {"", "alice", "example.org", "", "ap.elsewhere.net", 1, "nobody", 65534},
      {"TRUST_UID_DOMAIN = True", "alice", "example.org", "", "ap.elsewhere.net", 1, "owner", 1001},
      // STARTER_ALLOW_RUNAS_OWNER = False: never the owner.
      {"STARTER_ALLOW_RUNAS_OWNER = False\nSLOT1_USER = slotuser1", "alice", "example.org", "",
       "ap.example.org", 1, "SLOT1_USER", 3001},
      // The job asks not to run as its owner.
      {"", "alice", "example.org", "RunAsOwner = false", "ap.example.org", 1, "nobody", 65534},
      {"", "bob", "example.org", "RunAsOwner = true", "ap.example.org", 1, "owner", 1002},
      // Root, by name or by uid 0, never.
      {"", "root", "example.org", "", "ap.example.org", 1, "held: owner is root", 0},
      {"", "toor", "example.org", "", "ap.example.org", 1, "held: has uid 0", 0},
      {"SLOT1_USER = toor", "alice", "other.org", "", "ap.example.org", 1, "held: is root", 0},
      // An owner unknown here is held (SOFT_UID_DOMAIN False).
      {"", "carol", "example.org", "", "ap.example.org", 1, "held: not a user on this execution point", 0},
      // A dedicated user that does not exist is held too.
      {"SLOT1_USER = ghost", "alice", "other.org", "", "ap.example.org", 1, "held: ghost", 0},
      // Dynamic slots of slot1 use SLOT1_USER.
      {"SLOT1_USER = slotuser1", "alice", "other.org", "", "ap.example.org", 1, "SLOT1_USER", 3001},
  };
  for (const Row& row : rows) {
    INFO(row.config << " | owner " << row.owner << "@" << row.domain << " [" << row.extra << "] from "
                    << row.host << " on slot" << row.slot);
    const RunAs r = decide_run_as(policy(row.config), job(row.owner, row.domain, row.extra),
                                  from(row.host, row.slot), book, kRoot);
    const std::string how = row.how;
    if (how.rfind("held: ", 0) == 0) {
      CHECK_FALSE(r.ok);
      CHECK_THAT(r.hold_reason, Catch::Contains(how.substr(6)));
    } else {
      REQUIRE(r.ok);
      CHECK(r.how == how);
      CHECK(r.account.uid == row.uid);
      CHECK(r.account.uid != 0);
    }
  }
}

TEST_CASE("run as: SOFT_UID_DOMAIN runs an unknown owner with the access point's ids", "[startd][run_as]") {
  TableBook book;
  Submission s = from("ap.example.org");
  s.owner_uid = 4242;
  s.owner_gid = 4343;
  RunAs soft = decide_run_as(policy("SOFT_UID_DOMAIN = True"), job("carol"), s, book, kRoot);
  REQUIRE(soft.ok);
  CHECK(soft.account.uid == 4242);
  CHECK(soft.account.gid == 4343);
  // Without the ids, or with uid 0, it is still held.
  CHECK_FALSE(
      decide_run_as(policy("SOFT_UID_DOMAIN = True"), job("carol"), from("ap.example.org"), book, kRoot).ok);
  s.owner_uid = 0;
  CHECK_FALSE(decide_run_as(policy("SOFT_UID_DOMAIN = True"), job("carol"), s, book, kRoot).ok);
  // A known owner runs with the ids of this machine, whatever the access point says.
  s.owner_uid = 4242;
  CHECK(decide_run_as(policy("SOFT_UID_DOMAIN = True"), job("alice"), s, book, kRoot).account.uid == 1001);
}

TEST_CASE("run as: a startd that is not root runs every job as itself", "[startd][run_as]") {
  TableBook book;
  for (const char* owner : {"alice", "root", "carol"}) {
    RunAs r = decide_run_as(policy(""), job(owner), from("ap.example.org"), book, kCondor);
    REQUIRE(r.ok);
    CHECK_FALSE(r.switch_user);
    CHECK(r.account == kCondor);
  }
}

TEST_CASE("run as: an embedded pool's own schedd counts as in the domain", "[startd][run_as]") {
  TableBook book;
  Submission s;
  s.slot_id = 1;
  s.schedd_local = true;
  CHECK(decide_run_as(policy(""), job("alice"), s, book, kRoot).how == "owner");
}

TEST_CASE("run as: the start-up check of the dedicated accounts", "[startd][run_as]") {
  TableBook book;
  CHECK(check_run_as_accounts(policy("SLOT1_USER = slotuser1"), book, kRoot).empty());
  auto problems = check_run_as_accounts(policy("SLOT1_USER = ghost\nSLOT2_USER = root"), book, kRoot);
  REQUIRE(problems.size() == 2);
  CHECK_THAT(problems[0], Catch::Contains("SLOT1_USER = ghost: no such user"));
  CHECK_THAT(problems[1], Catch::Contains("SLOT2_USER = root: uid 0"));
  book.remove("nobody");
  CHECK(check_run_as_accounts(policy(""), book, kRoot).size() == 1);
  // Not root: none of them is used.
  CHECK(check_run_as_accounts(policy("SLOT1_USER = ghost"), book, kCondor).empty());
}

TEST_CASE("run as: slot numbers of static and dynamic slots", "[startd][run_as]") {
  CHECK(slot_number("slot1") == 1);
  CHECK(slot_number("slot12_3") == 12);
  CHECK(slot_number("slot2@node1") == 2);
  CHECK(slot_number("slot") == 0);
  CHECK(slot_number("slotx") == 0);
  CHECK(slot_number("other1") == 0);
}
