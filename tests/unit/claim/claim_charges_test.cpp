// The negotiator's side of the claim protocol: which claims the accountant
// charges, reconciled with the slot ads (model/claim/claim_charges.h).
#include "model/claim/claim_charges.h"

#include <catch2/catch.hpp>
#include <memory>

#include "model/classad/parser.h"
#include "model/config/config.h"
#include "model/config/config_host.h"

using namespace cara;
using namespace cara::claim;

namespace {

constexpr std::int64_t kT0 = 1700000000;

accounting::Accountant accountant() {
  auto c = config::config_from_text("UID_DOMAIN = physik.rwth-aachen.de\n", {"NEGOTIATOR", ""},
                                    std::make_shared<config::MemoryHost>());
  if (!c) FAIL(c.error());
  auto a = accounting::AccountantConfig::from_config(*c);
  if (!a) FAIL(a.error());
  return accounting::Accountant(*a, kT0);
}

classad::ClassAd ad(const std::string& text) {
  return *classad::parse_classad(text);
}

// Each "slot" charged to old@..., or "slot=submitter" to that submitter.
std::map<std::string, accounting::ClaimRecord> charged(std::vector<std::string> slots) {
  std::map<std::string, accounting::ClaimRecord> out;
  for (const std::string& s : slots) {
    const auto eq = s.find('=');
    const std::string slot = s.substr(0, eq);
    out[slot] = accounting::ClaimRecord{
        slot, eq == std::string::npos ? "old@physik.rwth-aachen.de" : s.substr(eq + 1), 1, kT0, {}};
  }
  return out;
}

}  // namespace

TEST_CASE("claims follow the slot ads", "[claim][accounting]") {
  const std::vector<classad::ClassAd> slots = {
      ad("[ Name = \"a\"; State = \"Claimed\"; RemoteUser = \"u@physik.rwth-aachen.de\"; Cpus = 4 ]"),
      ad("[ Name = \"b\"; State = \"Claimed\"; AccountingGroup = \"group_cms.u\"; "
         "RemoteUser = \"u@physik.rwth-aachen.de\"; SlotWeight = 2 ]"),
      ad("[ Name = \"c\"; State = \"Matched\" ]"),
      ad("[ Name = \"d\"; State = \"Unclaimed\" ]"),
      ad("[ Name = \"e\"; State = \"Claimed\" ]"),  // nobody to charge
  };
  struct Row {
    std::string what;
    std::vector<std::string> before;
    bool weights;
    std::vector<std::string> ended;
    std::vector<std::string> begun;  // slot:submitter:weight
  };
  const std::vector<Row> rows = {
      {"claimed slots begin; a group's claim carries the user's domain",
       {},
       true,
       {},
       {"a:u@physik.rwth-aachen.de:4", "b:group_cms.u@physik.rwth-aachen.de:2"}},
      {"without slot weights every claim weighs 1",
       {},
       false,
       {},
       {"a:u@physik.rwth-aachen.de:1", "b:group_cms.u@physik.rwth-aachen.de:1"}},
      {"a charged claim whose slot is unclaimed now ends; a matched one stays; a claimed one is not charged "
       "twice",
       {"a=u@physik.rwth-aachen.de", "c", "d"},
       true,
       {"d"},
       {"b:group_cms.u@physik.rwth-aachen.de:2"}},
      {"a claimed slot charged to another user (a second match the startd refused) moves to its own user",
       {"a", "b=GROUP_CMS.U@physik.rwth-aachen.de", "c"},
       true,
       {"a"},
       {"a:u@physik.rwth-aachen.de:4"}},
      {"a claimed slot that names no user keeps its charge",
       {"e"},
       true,
       {},
       {"a:u@physik.rwth-aachen.de:4", "b:group_cms.u@physik.rwth-aachen.de:2"}},
      {"a slot that left the pool stops being charged",
       {"gone"},
       true,
       {"gone"},
       {"a:u@physik.rwth-aachen.de:4", "b:group_cms.u@physik.rwth-aachen.de:2"}},
  };
  for (const Row& row : rows) {
    SECTION(row.what) {
      ChargeChanges c = reconcile(charged(row.before), slots, row.weights);
      CHECK(c.ended == row.ended);
      std::vector<std::string> begun;
      for (const auto& r : c.begun)
        begun.push_back(r.slot + ":" + r.submitter + ":" + std::to_string(static_cast<int>(r.weight)));
      CHECK(begun == row.begun);
    }
  }
}

TEST_CASE("claims begin in slot-name order, one per name, names that are expressions evaluated",
          "[claim][accounting]") {
  const std::vector<classad::ClassAd> slots = {
      ad("[ Name = \"z\"; State = \"Claimed\"; RemoteUser = \"u@physik.rwth-aachen.de\" ]"),
      ad("[ Name = strcat(\"e\", \"x\"); State = \"Claimed\"; RemoteUser = \"v@physik.rwth-aachen.de\" ]"),
      ad("[ Name = \"m\"; State = \"Claimed\"; RemoteUser = \"first@physik.rwth-aachen.de\" ]"),
      ad("[ Name = \"m\"; State = \"Claimed\"; RemoteUser = \"second@physik.rwth-aachen.de\" ]"),
      ad("[ Name = strcat(\"k\", \"\"); State = \"Matched\" ]"),
  };
  // "k" is matched (still charged), "n" and "y" are gone, "z" is charged already.
  ChargeChanges c = reconcile(charged({"k", "n", "y", "z=u@physik.rwth-aachen.de"}), slots, true);
  CHECK(c.ended == std::vector<std::string>{"n", "y"});
  std::vector<std::string> begun;
  for (const auto& r : c.begun) begun.push_back(r.slot + ":" + r.submitter);
  CHECK(begun == std::vector<std::string>{"ex:v@physik.rwth-aachen.de", "m:first@physik.rwth-aachen.de"});
}

TEST_CASE("what the accountant refuses is said, not dropped", "[claim][accounting]") {
  accounting::Accountant a = accountant();
  REQUIRE(a.begin_claim({"x", "u@physik.rwth-aachen.de", 1, kT0, {}}, kT0));
  ChargeChanges c;
  c.ended = {"nothing-here"};
  c.begun = {accounting::ClaimRecord{"x", "v@physik.rwth-aachen.de", 1, kT0, {}},
             accounting::ClaimRecord{"y", "v@physik.rwth-aachen.de", 1, kT0, {}}};
  const std::vector<std::string> lost = charge(a, c, kT0 + 10);
  CHECK(lost == std::vector<std::string>{
                    "the claim on nothing-here still charged: slot nothing-here has no claim",
                    "the claim on x not charged to v@physik.rwth-aachen.de: slot x is already claimed"});
  CHECK(a.claims().count("y") == 1);
}

TEST_CASE("a match replaces a preempted user's charge", "[claim][accounting]") {
  accounting::Accountant a = accountant();
  REQUIRE(charge_match(a, {"x", "u@physik.rwth-aachen.de", 1, kT0, {}}, kT0));
  REQUIRE(charge_match(a, {"x", "v@physik.rwth-aachen.de", 1, kT0, {}}, kT0 + 10));
  CHECK(a.claims().at("x").submitter == "v@physik.rwth-aachen.de");
  a.update_priorities(kT0 + 20);
  const Status early = charge_match(a, {"y", "v@physik.rwth-aachen.de", 1, kT0, {}}, kT0 + 5);
  REQUIRE_FALSE(early);
  CHECK(
      early.error() ==
      "the match on y not charged to v@physik.rwth-aachen.de: a claim cannot begin before the last priority "
      "update");
}

TEST_CASE("a match is charged on its slot, or per claim on a partitionable slot", "[claim][accounting]") {
  negotiation::Match m;
  m.submitter = "group_cms.u@physik.rwth-aachen.de";
  m.slot_name = "slot1@ep";
  m.weight = 4;
  const accounting::ClaimRecord plain = match_claim(m, ad("[ Name = \"slot1@ep\" ]"), "c#1");
  CHECK(plain.slot == "slot1@ep");
  CHECK(plain.submitter == m.submitter);
  CHECK(plain.weight == 4);
  const accounting::ClaimRecord carved = match_claim(m, ad("[ PartitionableSlot = true ]"), "c#2");
  CHECK(carved.slot == "slot1@ep/c");  // the claim's public part: never its secret
}
