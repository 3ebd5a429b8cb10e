// The accountant: the spec's worked examples of RUP (user-priorities-and-
// negotiation, "Real User Priority"), factors, pro-rata charging, and the
// condor_userprio commands.
#include "model/accounting/accountant.h"

#include <catch2/catch.hpp>
#include <memory>

#include "model/accounting/priority_edit.h"
#include "unit/accounting/support.h"

using namespace cara;
using cara::accounting_test::config_of;
using namespace cara::accounting;

namespace {

constexpr std::int64_t kT0 = 1700000000;
constexpr std::int64_t kHour = 3600;
constexpr std::int64_t kDay = 24 * kHour;

// `n` claims of weight 1 for `user`, slots named user#i.
void claim(Accountant& a, const std::string& user, int n, std::int64_t now) {
  for (int i = 0; i < n; ++i) REQUIRE(a.begin_claim({user + "#" + std::to_string(i), user, 1, now, {}}, now));
}
void release(Accountant& a, const std::string& user, int n, std::int64_t now) {
  for (int i = 0; i < n; ++i) REQUIRE(a.end_claim(user + "#" + std::to_string(i), now));
}

}  // namespace

TEST_CASE("RUP 10 decays to 5 and 2.5 over two half-lives without usage", "[accounting][spec]") {
  Accountant a(config_of(""), kT0);
  REQUIRE(a.set_priority("u@physik.rwth-aachen.de", 10));
  a.update_priorities(kT0 + kDay);
  CHECK(a.priority("u@physik.rwth-aachen.de") == Approx(5));
  a.update_priorities(kT0 + 2 * kDay);
  CHECK(a.priority("u@physik.rwth-aachen.de") == Approx(2.5));
  // ... and never below 0.5.
  a.update_priorities(kT0 + 30 * kDay);
  CHECK(a.priority("u@physik.rwth-aachen.de") == 0.5);
}

TEST_CASE("a new user on 100 cores: RUP 50.25 after 24 h, 75.125 after 48 h, then the decay",
          "[accounting][spec]") {
  const std::string u = "new@physik.rwth-aachen.de";
  SECTION("updated once per day") {
    Accountant a(config_of(""), kT0);
    CHECK(a.priority(u) == 0.5);  // every user begins at one half
    claim(a, u, 100, kT0);
    a.update_priorities(kT0 + kDay);
    CHECK(a.priority(u) == Approx(50.25));
    a.update_priorities(kT0 + 2 * kDay);
    CHECK(a.priority(u) == Approx(75.125));
  }
  SECTION("updated every minute, and every odd interval: the same, as β is defined over any δt") {
    for (std::int64_t step : {std::int64_t{60}, std::int64_t{7 * 60 + 13}}) {
      Accountant a(config_of(""), kT0);
      claim(a, u, 100, kT0);
      std::int64_t t = kT0;
      while (t < kT0 + kDay) a.update_priorities(t = std::min(t + step, kT0 + kDay));
      CHECK(a.priority(u) == Approx(50.25));
    }
  }
  SECTION("100 cores for 24 h, then all removed") {
    Accountant a(config_of(""), kT0);
    claim(a, u, 100, kT0);
    a.update_priorities(kT0 + kDay);
    release(a, u, 100, kT0 + kDay);
    a.update_priorities(kT0 + 2 * kDay);
    CHECK(a.priority(u) == Approx(25.125));
    a.update_priorities(kT0 + 3 * kDay);
    CHECK(a.priority(u) == Approx(12.5625));
    CHECK(a.find(u)->accumulated_usage == Approx(100.0 * kDay));
    CHECK(a.find(u)->resources_used == 0);
  }
}

TEST_CASE("claims begun or ended between updates are charged pro rata", "[accounting]") {
  const std::string u = "u@physik.rwth-aachen.de";
  // A claim held for the second half of a day is charged as half a
  // resource over the day.
  Accountant a(config_of(""), kT0);
  claim(a, u, 1, kT0 + 12 * kHour);
  a.update_priorities(kT0 + kDay);
  CHECK(a.find(u)->accumulated_usage == Approx(12.0 * kHour));
  CHECK(a.priority(u) == Approx(0.5 * 0.5 + 0.5 * 0.5));
  // Begun and ended within one interval: its six hours, no more.
  Accountant b(config_of(""), kT0);
  claim(b, u, 20, kT0 + 6 * kHour);
  release(b, u, 20, kT0 + 9 * kHour);
  b.update_priorities(kT0 + kDay);
  CHECK(b.find(u)->accumulated_usage == Approx(20 * 3.0 * kHour));
  CHECK(b.priority(u) == Approx(0.5 * 0.5 + 0.5 * (20 * 3.0 / 24)));
  // Nothing changes when no time has passed.
  b.update_priorities(kT0 + kDay);
  CHECK(b.find(u)->accumulated_usage == Approx(20 * 3.0 * kHour));
}

TEST_CASE("usage is weighted by SlotWeight unless NEGOTIATOR_USE_SLOT_WEIGHTS is false", "[accounting]") {
  const std::string u = "u@physik.rwth-aachen.de";
  for (bool weighted : {true, false}) {
    Accountant a(config_of(weighted ? "" : "NEGOTIATOR_USE_SLOT_WEIGHTS = False\n"), kT0);
    REQUIRE(a.begin_claim({"slot1@ep", u, 8, kT0, {}}, kT0));
    a.update_priorities(kT0 + kDay);
    CHECK(a.priority(u) == Approx(0.25 + 0.5 * (weighted ? 8 : 1)));
    CHECK(a.find(u)->weighted_accumulated_usage == Approx(8.0 * kDay));
    CHECK(a.find(u)->accumulated_usage == Approx(1.0 * kDay));
  }
}

TEST_CASE("priority factors: default, nice users, remote submitters, groups, setfactor", "[accounting]") {
  Accountant a(config_of("GROUP_NAMES = group_cms, group_cms.dcms, group_auger\n"
                         "GROUP_PRIO_FACTOR_group_auger = 500\n"
                         "REMOTE_PRIO_FACTOR = 1e6\n"),
               kT0);
  CHECK(a.factor("alice@physik.rwth-aachen.de") == 1000);  // DEFAULT_PRIO_FACTOR
  CHECK(a.factor("nice-user.alice@physik.rwth-aachen.de") == 1e10);
  CHECK(a.factor("bob@cern.ch") == 1e6);
  CHECK(a.factor("group_auger.carol@physik.rwth-aachen.de") == 500);
  CHECK(a.factor("group_auger") == 500);
  REQUIRE(a.set_priority("alice@physik.rwth-aachen.de", 2));
  CHECK(a.effective_priority("alice@physik.rwth-aachen.de") == Approx(2000));  // EUP = RUP x factor
  REQUIRE(a.set_factor("alice@physik.rwth-aachen.de", 1));
  CHECK(a.effective_priority("alice@physik.rwth-aachen.de") == Approx(2));
  auto bad = a.set_factor("alice@physik.rwth-aachen.de", 0.5);
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error(), Catch::Contains("must be at least 1"));
}

TEST_CASE("group usage rolls up the tree", "[accounting][groups]") {
  Accountant a(config_of("GROUP_NAMES = group_cms, group_cms.dcms, group_cms.cms, group_auger\n"), kT0);
  CHECK(a.group_of("group_cms.dcms.dcms001@physik.rwth-aachen.de") == "group_cms.dcms");
  CHECK(a.group_of("group_cms.other.x@physik.rwth-aachen.de") == "group_cms");  // the longest listed prefix
  CHECK(a.group_of("GROUP_AUGER.y@physik.rwth-aachen.de") == "group_auger");    // case-insensitive
  CHECK(a.group_of("alice@physik.rwth-aachen.de") == "<none>");
  CHECK(a.group_of("group_unknown.z@physik.rwth-aachen.de") == "<none>");
  claim(a, "group_cms.dcms.dcms001@physik.rwth-aachen.de", 4, kT0);
  claim(a, "group_cms.cms.cms001@physik.rwth-aachen.de", 2, kT0);
  CHECK(a.find("group_cms.dcms")->resources_used == 4);
  CHECK(a.find("group_cms")->resources_used == 6);
  CHECK(a.find("group_auger") == nullptr);
  a.update_priorities(kT0 + kDay);
  CHECK(a.priority("group_cms") == Approx(0.25 + 3));
  release(a, "group_cms.cms.cms001@physik.rwth-aachen.de", 2, kT0 + kDay);
  CHECK(a.find("group_cms")->resources_used == 4);
}

TEST_CASE("floors and ceilings, with and without a lease", "[accounting]") {
  Accountant a(config_of(""), kT0);
  const std::string u = "u@physik.rwth-aachen.de";
  CHECK_FALSE(a.ceiling(u, kT0));
  REQUIRE(a.set_ceiling(u, 10, std::nullopt, kT0));
  REQUIRE(a.set_floor(u, 2, kHour, kT0));
  CHECK(a.ceiling(u, kT0 + 100 * kDay) == 10.0);
  CHECK(a.floor(u, kT0 + kHour - 1) == 2.0);
  CHECK_FALSE(a.floor(u, kT0 + kHour));  // the lease lapsed
  CHECK_FALSE(a.set_ceiling(u, -1, std::nullopt, kT0));
  CHECK_THAT(a.set_floor(u, 1, 0, kT0).error(), Catch::Contains("positive number of seconds"));
}

TEST_CASE("resetusage, setaccum and delete", "[accounting]") {
  Accountant a(config_of(""), kT0);
  const std::string u = "u@physik.rwth-aachen.de";
  claim(a, u, 1, kT0);
  a.update_priorities(kT0 + kDay);
  REQUIRE(a.reset_usage(u, kT0 + kDay));
  CHECK(a.find(u)->accumulated_usage == 0);
  CHECK(a.find(u)->begin_usage_time == kT0 + kDay);
  CHECK(a.priority(u) == Approx(0.75));  // the priority is not reset
  REQUIRE(a.set_accumulated_usage(u, 5000));
  CHECK(a.find(u)->accumulated_usage == 5000);
  auto busy = a.remove(u);
  REQUIRE_FALSE(busy);
  CHECK_THAT(busy.error(), Catch::Contains("still holds the claim on u@physik.rwth-aachen.de#0"));
  release(a, u, 1, kT0 + kDay);
  REQUIRE(a.remove(u));
  CHECK(a.find(u) == nullptr);
  CHECK_FALSE(a.remove(u));
  CHECK_FALSE(a.end_claim("nope", kT0 + kDay));
  CHECK_FALSE(a.set_priority(u, 0.1));
}

TEST_CASE("concurrency limits held by claims", "[accounting][concurrency]") {
  Accountant a(config_of(""), kT0);
  REQUIRE(a.begin_claim({"s1", "u@physik.rwth-aachen.de", 1, kT0, {"xsw", "large.license:2"}}, kT0));
  REQUIRE(a.begin_claim({"s2", "v@physik.rwth-aachen.de", 1, kT0, {"XSW"}}, kT0));
  CHECK(a.concurrency_in_use("xsw") == 2);
  CHECK(a.concurrency_in_use("LARGE.license") == 2);
  CHECK(a.concurrency_in_use("small") == 0);
  CHECK_FALSE(a.begin_claim({"s1", "w@physik.rwth-aachen.de", 1, kT0, {}}, kT0));  // already claimed
  // A claim records when it began to be charged (condor_userprio -getreslist).
  REQUIRE(a.begin_claim({"s3", "w@physik.rwth-aachen.de", 1, 0, {}}, kT0 + 5));
  CHECK(a.claims().at("s3").start == kT0 + 5);
}

TEST_CASE("the spec's A/B example: A alone 48 h on 100 cores, then B", "[accounting][spec]") {
  // Factors 1.0, PRIORITY_HALFLIFE one day. Each minute the pool is
  // shared in inverse ratio of EUP (the spec's rule); A's and B's shares
  // are charged as claims weighted by the cores they hold.
  Accountant acct(config_of("DEFAULT_PRIO_FACTOR = 1\n"), kT0);
  const std::string a = "a@physik.rwth-aachen.de", b = "b@physik.rwth-aachen.de";
  REQUIRE(acct.begin_claim({"a", a, 100, kT0, {}}, kT0));
  acct.update_priorities(kT0 + 2 * kDay);
  CHECK(acct.priority(a) == Approx(75.125));  // "about 75.0 at the 48 hour mark"
  CHECK(acct.priority(b) == 0.5);
  std::vector<double> share_of_a;  // per minute after B arrives
  for (std::int64_t t = kT0 + 2 * kDay; t < kT0 + 22 * kDay; t += 60) {
    acct.update_priorities(t);
    if (acct.claims().count("a")) REQUIRE(acct.end_claim("a", t));
    if (acct.claims().count("b")) REQUIRE(acct.end_claim("b", t));
    const double wa = 1 / acct.effective_priority(a), wb = 1 / acct.effective_priority(b);
    const double cores_a = 100 * wa / (wa + wb);
    share_of_a.push_back(cores_a);
    REQUIRE(acct.begin_claim({"a", a, cores_a, t, {}}, t));
    REQUIRE(acct.begin_claim({"b", b, 100 - cores_a, t, {}}, t));
  }
  CHECK(share_of_a.front() < 1);  // from all 100 cores to less than one at once
  const double rebound = *std::max_element(share_of_a.begin(), share_of_a.begin() + 12 * 60);
  CHECK(rebound > 3);                                  // "quickly rebound to a handful of cores"
  CHECK(share_of_a.back() == Approx(50).margin(0.5));  // approaching half of the pool
  // The approach is from below and never overshoots.
  CHECK(*std::max_element(share_of_a.begin(), share_of_a.end()) <= 50.0 + 1e-9);
}

TEST_CASE("a reconfigured half-life applies from the reconfiguration on, factors stay", "[accounting]") {
  Accountant a(config_of(""), kT0);
  REQUIRE(a.set_priority("u@physik.rwth-aachen.de", 40));
  REQUIRE(a.set_factor("u@physik.rwth-aachen.de", 7));
  // One day under the old half-life (a day): 40 -> 20; then an hour's
  // half-life: two hours take 20 -> 5.
  a.reconfigure(config_of("PRIORITY_HALFLIFE = 3600\nDEFAULT_PRIO_FACTOR = 50\n"), kT0 + kDay);
  CHECK(a.priority("u@physik.rwth-aachen.de") == Approx(20));
  a.update_priorities(kT0 + kDay + 2 * kHour);
  CHECK(a.priority("u@physik.rwth-aachen.de") == Approx(5));
  CHECK(a.factor("u@physik.rwth-aachen.de") == 7);     // an existing record keeps its factor
  CHECK(a.factor("new@physik.rwth-aachen.de") == 50);  // a new one starts with the new default
}

TEST_CASE("condor_userprio's changes are typed edits, parsed once", "[accounting][userprio]") {
  using accounting::PriorityEditKind;
  for (const char* word : {"setfactor", "setprio", "setaccum", "setfloor", "setceil", "resetusage", "delete",
                           "setbegin", "setlast"}) {
    auto kind = accounting::parse_priority_edit_kind(word);
    REQUIRE(kind);
    CHECK(accounting::to_string(*kind) == word);
  }
  auto bad = accounting::parse_priority_edit_kind("setfactr");
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error(),
             Catch::Contains("unknown userprio command 'setfactr'") && Catch::Contains("setfactor"));

  Accountant a(config_of(""), kT0);
  const std::string u = "u@physik.rwth-aachen.de";
  REQUIRE(apply(a, {PriorityEditKind::SetFactor, u, 1000, std::nullopt}, kT0));
  REQUIRE(a.find(u));
  CHECK(a.find(u)->factor == 1000);
  REQUIRE(apply(a, {PriorityEditKind::SetFloor, u, 2, kHour}, kT0));
  CHECK(a.floor(u, kT0 + kHour - 1) == 2.0);
  CHECK_FALSE(a.floor(u, kT0 + kHour));
  REQUIRE(apply(a, {PriorityEditKind::SetCeiling, u, 8, std::nullopt}, kT0));
  CHECK(a.ceiling(u, kT0) == 8.0);
  // The accountant's refusal is the edit's error.
  CHECK_FALSE(apply(a, {PriorityEditKind::SetFactor, u, -1, std::nullopt}, kT0));
  // -setbegin and -setlast: when its usage began and was last seen.
  REQUIRE(apply(a, {PriorityEditKind::SetBegin, u, 1500000000, std::nullopt}, kT0));
  REQUIRE(apply(a, {PriorityEditKind::SetLast, u, 1500003600, std::nullopt}, kT0));
  CHECK(a.find(u)->begin_usage_time == 1500000000);
  CHECK(a.find(u)->last_usage_time == 1500003600);
  CHECK_FALSE(apply(a, {PriorityEditKind::SetLast, u, -5, std::nullopt}, kT0));
  REQUIRE(apply(a, {PriorityEditKind::Delete, u, 0, std::nullopt}, kT0));
  CHECK_FALSE(a.find(u));
}
