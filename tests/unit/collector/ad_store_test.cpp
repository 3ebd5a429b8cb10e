// The collector's ad store: keys, lifetimes, invalidation, absent ads
// (central-manager-configuration, "Absent ClassAds"), queries.
#include "model/collector/ad_store.h"

#include <catch2/catch.hpp>

#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/collector/collector_ad.h"
#include "model/config/config.h"
#include "model/config/config_host.h"

using namespace cara;
using namespace cara::collector;

namespace {

constexpr std::int64_t kT0 = 1700000000;

classad::ClassAd ad(const std::string& text) {
  auto a = classad::parse_classad(text);
  if (!a) FAIL(a.error());
  return std::move(*a);
}

CollectorPolicy policy(const std::string& config_text) {
  auto host = std::make_shared<config::MemoryHost>();
  auto c = config::config_from_text(config_text, {"COLLECTOR", ""}, host);
  if (!c) FAIL(c.error());
  auto p = CollectorPolicy::from_config(*c);
  if (!p) FAIL(p.error());
  return std::move(*p);
}

classad::ExprPtr expr(const std::string& text) {
  auto e = classad::parse_expression(text);
  if (!e) FAIL(e.error());
  return *e;
}

std::vector<std::string> names(const std::vector<classad::ClassAd>& ads) {
  std::vector<std::string> out;
  for (const auto& a : ads) {
    classad::Value v = classad::evaluate_attr(a, "Name");
    out.emplace_back(v.is_string() ? std::string(v.as_string()) : "?");
  }
  return out;
}

}  // namespace

TEST_CASE("ad types by name", "[collector]") {
  CHECK(parse_ad_type("slot") == AdType::Machine);
  CHECK(parse_ad_type("STARTD") == AdType::Machine);
  CHECK(parse_ad_type("submitter") == AdType::Submitter);
  CHECK(parse_ad_type("schedd") == AdType::Scheduler);
  CHECK(parse_ad_type("Master") == AdType::Master);
  CHECK(parse_ad_type("Accounting") == AdType::Accounting);
  CHECK_FALSE(parse_ad_type("widget"));
}

TEST_CASE("defaults: CLASSAD_LIFETIME 900, ABSENT_EXPIRE_ADS_AFTER thirty days", "[collector]") {
  CollectorPolicy p = policy("");
  CHECK(p.classad_lifetime == 900);
  CHECK(p.absent_expire_after == 30 * 24 * 3600);
  CHECK_FALSE(p.expire_invalidated_ads);
  CHECK_FALSE(p.absent_requirements);
}

TEST_CASE("updates replace ads by name, queries filter and project", "[collector]") {
  AdStore store(policy(""));
  REQUIRE(store.update(AdType::Machine, ad(R"([ Name = "slot1@a"; Cpus = 1; Memory = 2000 ])"), kT0));
  REQUIRE(store.update(AdType::Machine, ad(R"([ Name = "slot2@a"; Cpus = 4; Memory = 8000 ])"), kT0));
  REQUIRE(store.update(AdType::Machine, ad(R"([ Name = "slot1@a"; Cpus = 2; Memory = 2000 ])"), kT0 + 1));
  CHECK(store.size(AdType::Machine) == 2);

  AdQuery q;
  q.selection.constraint = expr("Cpus >= 2");
  auto all = store.query(q, kT0 + 2);
  CHECK(names(all) == std::vector<std::string>{"slot1@a", "slot2@a"});

  q.selection.constraint = expr("Memory > 4000");
  q.selection.projection = {"Name", "Cpus"};
  auto big = store.query(q, kT0 + 2);
  REQUIRE(big.size() == 1);
  CHECK(names(big)[0] == "slot2@a");
  CHECK(big[0].find("Memory") == nullptr);
  CHECK(classad::evaluate_attr(big[0], "Cpus").as_int() == 4);

  AdQuery submitters;
  submitters.type = AdType::Submitter;
  CHECK(store.query(submitters, kT0).empty());
}

TEST_CASE("an ad without a Name is refused with a message", "[collector]") {
  AdStore store(policy(""));
  auto s = store.update(AdType::Scheduler, ad("[ Cpus = 1 ]"), kT0);
  REQUIRE_FALSE(s);
  CHECK(s.error() == "Scheduler ad has no Name attribute (a string is expected)");
}

TEST_CASE("a submitter's ads from two schedds are two ads", "[collector]") {
  AdStore store(policy(""));
  REQUIRE(store.update(AdType::Submitter, ad(R"([ Name = "u@d"; ScheddName = "ap1"; IdleJobs = 3 ])"), kT0));
  REQUIRE(store.update(AdType::Submitter, ad(R"([ Name = "u@d"; ScheddName = "ap2"; IdleJobs = 1 ])"), kT0));
  CHECK(store.size(AdType::Submitter) == 2);
  CHECK(store.find(AdType::Submitter, "u@d/ap2") != nullptr);
}

TEST_CASE("a submitter's Accounting ads from two negotiators are two ads", "[collector][shards]") {
  AdStore store(policy(""));
  REQUIRE(
      store.update(AdType::Accounting, ad(R"([ Name = "u@d"; NegotiatorName = "gpu"; Priority = 3 ])"), kT0));
  REQUIRE(
      store.update(AdType::Accounting, ad(R"([ Name = "u@d"; NegotiatorName = "cpu"; Priority = 9 ])"), kT0));
  REQUIRE(store.update(AdType::Accounting, ad(R"([ Name = "u@d"; Priority = 1 ])"), kT0));
  CHECK(store.size(AdType::Accounting) == 3);
  CHECK(store.find(AdType::Accounting, "u@d/gpu") != nullptr);
  CHECK(store.find(AdType::Accounting, "u@d") != nullptr);
}

TEST_CASE("ads expire after CLASSAD_LIFETIME or their own ClassAdLifetime", "[collector]") {
  AdStore store(policy("CLASSAD_LIFETIME = 60"));
  REQUIRE(store.update(AdType::Machine, ad(R"([ Name = "slot1@a" ])"), kT0));
  REQUIRE(store.update(AdType::Machine, ad(R"([ Name = "slot2@a"; ClassAdLifetime = 10 ])"), kT0));
  CHECK(store.next_expiry() == kT0 + 10);
  CHECK(store.expire(kT0 + 9).empty());
  CHECK(store.expire(kT0 + 10) == std::vector<std::string>{"slot2@a"});
  // A heartbeat renews the lifetime.
  REQUIRE(store.update(AdType::Machine, ad(R"([ Name = "slot1@a" ])"), kT0 + 50));
  CHECK(store.expire(kT0 + 60).empty());
  CHECK(store.expire(kT0 + 110) == std::vector<std::string>{"slot1@a"});
  CHECK(store.size(AdType::Machine) == 0);
}

TEST_CASE("invalidation removes an ad at once", "[collector]") {
  AdStore store(policy(""));
  REQUIRE(store.update(AdType::Scheduler, ad(R"([ Name = "ap1" ])"), kT0));
  CHECK(store.invalidate(AdType::Scheduler, "ap1", kT0));
  CHECK_FALSE(store.invalidate(AdType::Scheduler, "ap1", kT0));
  CHECK(store.size(AdType::Scheduler) == 0);
}

TEST_CASE("absent ads: an expiring machine ABSENT_REQUIREMENTS accepts stays as absent", "[collector]") {
  AdStore store(
      policy("CLASSAD_LIFETIME = 60\nABSENT_REQUIREMENTS = Dedicated =?= true\n"
             "ABSENT_EXPIRE_ADS_AFTER = 3600"));
  REQUIRE(store.update(AdType::Machine, ad(R"([ Name = "slot1@dedicated"; Dedicated = true ])"), kT0));
  REQUIRE(store.update(AdType::Machine, ad(R"([ Name = "slot1@laptop" ])"), kT0));
  store.expire(kT0 + 60);
  CHECK(store.size(AdType::Machine) == 1);
  // Invisible to ordinary queries; shown with -absent or when the
  // constraint names Absent.
  CHECK(store.query(AdQuery{}, kT0 + 61).empty());
  AdQuery absent;
  absent.absent = true;
  CHECK(names(store.query(absent, kT0 + 61)) == std::vector<std::string>{"slot1@dedicated"});
  AdQuery by_attr;
  by_attr.selection.constraint = expr("Absent =?= true");
  auto shown = store.query(by_attr, kT0 + 61);
  REQUIRE(shown.size() == 1);
  // The machine comes back: its first update replaces the absent ad.
  REQUIRE(store.update(AdType::Machine, ad(R"([ Name = "slot1@dedicated"; Dedicated = true ])"), kT0 + 100));
  CHECK(store.query(AdQuery{}, kT0 + 101).size() == 1);
  CHECK(store.query(by_attr, kT0 + 101).empty());
  // Gone for good ABSENT_EXPIRE_ADS_AFTER after it went absent.
  store.expire(kT0 + 160);
  CHECK(store.size(AdType::Machine) == 1);
  store.expire(kT0 + 160 + 3600);
  CHECK(store.size(AdType::Machine) == 0);
}

TEST_CASE("ABSENT_EXPIRE_ADS_AFTER = 0 keeps absent ads forever", "[collector]") {
  AdStore store(policy("CLASSAD_LIFETIME = 60\nABSENT_REQUIREMENTS = True\nABSENT_EXPIRE_ADS_AFTER = 0"));
  REQUIRE(store.update(AdType::Machine, ad(R"([ Name = "slot1@a" ])"), kT0));
  store.expire(kT0 + 60);
  store.expire(kT0 + 100 * 365 * 24 * 3600LL);
  CHECK(store.size(AdType::Machine) == 1);
}

TEST_CASE("EXPIRE_INVALIDATED_ADS: an invalidated ad is treated as expired", "[collector]") {
  const std::string absent = "ABSENT_REQUIREMENTS = Dedicated =?= true\n";
  AdStore plain(policy(absent));
  REQUIRE(plain.update(AdType::Machine, ad(R"([ Name = "slot1@a"; Dedicated = true ])"), kT0));
  plain.invalidate(AdType::Machine, "slot1@a", kT0);
  CHECK(plain.size(AdType::Machine) == 0);

  AdStore expiring(policy(absent + "EXPIRE_INVALIDATED_ADS = True"));
  REQUIRE(expiring.update(AdType::Machine, ad(R"([ Name = "slot1@a"; Dedicated = true ])"), kT0));
  REQUIRE(expiring.update(AdType::Machine, ad(R"([ Name = "slot2@a" ])"), kT0));
  expiring.invalidate(AdType::Machine, "slot1@a", kT0);
  expiring.invalidate(AdType::Machine, "slot2@a", kT0);
  AdQuery q;
  q.absent = true;
  CHECK(names(expiring.query(q, kT0)) == std::vector<std::string>{"slot1@a"});
}

TEST_CASE("a bad CLASSAD_LIFETIME is a clear error", "[collector]") {
  auto host = std::make_shared<config::MemoryHost>();
  auto c = config::config_from_text("CLASSAD_LIFETIME = -5", {"COLLECTOR", ""}, host);
  REQUIRE(c);
  auto p = CollectorPolicy::from_config(*c);
  REQUIRE_FALSE(p);
  CHECK(p.error() == "CLASSAD_LIFETIME must be a positive number of seconds");
}

TEST_CASE("the collector's own ad: its name and interval from the configuration", "[collector]") {
  CHECK(policy("").update_interval == 900);  // COLLECTOR_UPDATE_INTERVAL's documented default
  CHECK(policy("FULL_HOSTNAME = cm.example.org\n").name == "cm.example.org");
  const CollectorPolicy named = policy(
      "FULL_HOSTNAME = cm.example.org\nCOLLECTOR_NAME = Physics Pool\n"
      "COLLECTOR_UPDATE_INTERVAL = 120\n");
  CHECK(named.name == "Physics Pool");
  CHECK(named.update_interval == 120);
  auto host = std::make_shared<config::MemoryHost>();
  auto c = config::config_from_text("COLLECTOR_UPDATE_INTERVAL = 0", {"COLLECTOR", ""}, host);
  REQUIRE(c);
  auto p = CollectorPolicy::from_config(*c);
  REQUIRE_FALSE(p);
  CHECK(p.error() == "COLLECTOR_UPDATE_INTERVAL must be a positive number of seconds");
}

TEST_CASE("the collector's own ad counts slots by State and jobs from the submitter ads", "[collector]") {
  CollectorPolicy p;
  p.name = "cm";
  AdStore store(p);
  REQUIRE(store.update(AdType::Machine, ad("[ Name = \"slot1@a\"; State = \"Claimed\" ]"), kT0));
  REQUIRE(store.update(AdType::Machine, ad("[ Name = \"slot2@a\"; State = \"Claimed\" ]"), kT0));
  REQUIRE(store.update(AdType::Submitter, ad("[ Name = \"u@x\"; RunningJobs = 2; IdleJobs = 7 ]"), kT0));
  const classad::ClassAd own = collector_ad(store, p, CollectorCounters{3, 1}, kT0);
  auto num = [&](const char* name) { return classad::evaluate_attr(own, name).as_int(); };
  CHECK(num("HostsTotal") == 2);
  CHECK(num("HostsClaimed") == 2);
  CHECK(num("HostsUnclaimed") == 0);
  CHECK(num("RunningJobs") == 2);
  CHECK(num("IdleJobs") == 7);
  CHECK(num("UpdatesTotal") == 3);
  CHECK(num("UpdatesLost") == 1);
  CHECK(num("ClassAdLifetime") == 3 * 900);
  CHECK(classad::evaluate_attr(own, "MyType").as_string() == "Collector");
}

TEST_CASE("the collector keeps its own ad under its name, whatever the name", "[collector]") {
  for (const std::string name : {"cm", "Condor Cluster at physik.rwth-aachen.de"}) {
    CollectorPolicy p;
    p.name = name;
    AdStore store(p);
    store_own_ad(store, p, CollectorCounters{}, kT0);
    store_own_ad(store, p, CollectorCounters{}, kT0 + 10);  // a refresh replaces it
    AdQuery q;
    q.type = AdType::Collector;
    const auto ads = store.query(q, kT0 + 10);
    REQUIRE(ads.size() == 1);
    CHECK(classad::evaluate_attr(ads[0], "Name").as_string() == name);
  }
}

TEST_CASE("an ad whose daemon is lost expires at once, absent where ABSENT_REQUIREMENTS says",
          "[collector][absent]") {
  collector::CollectorPolicy p;
  p.absent_requirements = *classad::parse_expression("Cpus > 1");
  collector::AdStore store(p);
  const std::int64_t now = 1700000000;
  auto machine = [](const std::string& name, int cpus) {
    classad::ClassAd ad;
    ad.set("Name", name);
    ad.set("Cpus", cpus);
    return ad;
  };
  REQUIRE(store.update(collector::AdType::Machine, machine("big", 8), now));
  REQUIRE(store.update(collector::AdType::Machine, machine("small", 1), now));
  CHECK(store.lose(collector::AdType::Machine, "big", now + 1));
  CHECK(store.lose(collector::AdType::Machine, "small", now + 1));
  CHECK_FALSE(store.lose(collector::AdType::Machine, "big", now + 2));  // already absent
  CHECK_FALSE(store.lose(collector::AdType::Machine, "none", now + 2));
  REQUIRE(store.find(collector::AdType::Machine, "big"));
  CHECK(classad::evaluate_attr(*store.find(collector::AdType::Machine, "big"), "Absent").as_bool());
  CHECK_FALSE(store.find(collector::AdType::Machine, "small"));
  collector::AdQuery q;
  q.type = collector::AdType::Machine;
  CHECK(store.query(q, now + 2).empty());  // out of the negotiator's view
}

TEST_CASE("the absent ads that change are noted for the store, and read back", "[collector][durability]") {
  CollectorPolicy p;
  p.absent_requirements = expr("true");
  p.absent_expire_after = 1000;
  AdStore store(p);
  auto keys = [](const std::vector<std::pair<AdType, std::string>>& changes) {
    std::vector<std::string> out;
    for (const auto& [type, key] : changes) out.push_back(key);
    return out;
  };
  REQUIRE(store.update(AdType::Machine, ad("[ Name = \"slot1@a\"; Cpus = 2 ]"), kT0));
  REQUIRE(store.update(AdType::Machine, ad("[ Name = \"slot1@b\"; Cpus = 2 ]"), kT0));
  CHECK(store.take_kept_changes().empty());  // live ads are not the store's
  store.lose(AdType::Machine, "slot1@a", kT0 + 10);
  CHECK(keys(store.take_kept_changes()) == std::vector<std::string>{"slot1@a"});
  auto a = store.kept(AdType::Machine, "slot1@a");
  REQUIRE(a);
  CHECK(a->expires == kT0 + 1010);
  CHECK_FALSE(store.kept(AdType::Machine, "slot1@b"));
  // The machine comes back: its absent ad goes.
  REQUIRE(store.update(AdType::Machine, ad("[ Name = \"slot1@a\"; Cpus = 2 ]"), kT0 + 20));
  CHECK(keys(store.take_kept_changes()) == std::vector<std::string>{"slot1@a"});
  CHECK_FALSE(store.kept(AdType::Machine, "slot1@a"));
  // Absent, then dropped after ABSENT_EXPIRE_ADS_AFTER.
  store.lose(AdType::Machine, "slot1@b", kT0 + 30);
  REQUIRE(store.update(AdType::Machine, ad("[ Name = \"slot1@a\"; Cpus = 2 ]"), kT0 + 1000));  // still alive
  store.take_kept_changes();
  store.expire(kT0 + 1030);
  CHECK(keys(store.take_kept_changes()) == std::vector<std::string>{"slot1@b"});
  CHECK_FALSE(store.find(AdType::Machine, "slot1@b"));

  SECTION("a new collector takes them back: absent, queried only when asked for") {
    AdStore again(p);
    again.restore_kept(
        KeptAd{AdType::Machine, "slot1@c", ad("[ Name = \"slot1@c\"; Cpus = 4 ]"), kT0 + 500, false},
        kT0 + 100);
    auto q = [&](bool absent) {
      auto s = classad::Selection::parse("", {});
      return again.query(AdQuery{AdType::Machine, std::move(*s), absent}, kT0 + 100).size();
    };
    CHECK(q(false) == 0);
    CHECK(q(true) == 1);
    CHECK(again.take_kept_changes().empty());
    // One whose time ran out while the collector was down is dropped, and
    // the store told.
    again.restore_kept(KeptAd{AdType::Machine, "slot1@d", ad("[ Name = \"slot1@d\" ]"), kT0 + 50, false},
                       kT0 + 100);
    CHECK(keys(again.take_kept_changes()) == std::vector<std::string>{"slot1@d"});
    CHECK_FALSE(again.find(AdType::Machine, "slot1@d"));
  }
}

TEST_CASE("an offline ad outlives CLASSAD_LIFETIME, is shown only when asked for, and is kept",
          "[collector][durability]") {
  CollectorPolicy p = policy("");
  CHECK(p.offline_expire_after == 0);
  AdStore store(p);
  auto count = [&](const std::string& constraint) {
    auto s = classad::Selection::parse(constraint, {});
    return store.query(AdQuery{AdType::Machine, std::move(*s), false}, kT0 + 10).size();
  };
  // A sleeping machine, advertised by power management.
  REQUIRE(store.update(AdType::Machine, ad("[ Name = \"slot1@sleepy\"; Offline = true; Cpus = 8 ]"), kT0));
  REQUIRE(store.take_kept_changes().size() == 1);
  auto kept = store.kept(AdType::Machine, "slot1@sleepy");
  REQUIRE(kept);
  CHECK(kept->offline);
  CHECK(kept->expires == 0);
  CHECK(count("") == 0);  // out of matchmaking
  CHECK(count("Offline =?= true") == 1);
  CHECK_FALSE(store.lose(AdType::Machine, "slot1@sleepy", kT0 + 1));  // not its sender's
  store.expire(kT0 + 100000);
  CHECK(count("Offline =?= true") == 1);
  // It wakes: its live ad replaces the offline one, which the store drops.
  REQUIRE(store.update(AdType::Machine, ad("[ Name = \"slot1@sleepy\"; Cpus = 8 ]"), kT0 + 100001));
  CHECK(store.take_kept_changes().size() == 1);
  CHECK_FALSE(store.kept(AdType::Machine, "slot1@sleepy"));

  SECTION("OFFLINE_EXPIRE_ADS_AFTER bounds it") {
    AdStore bounded(policy("OFFLINE_EXPIRE_ADS_AFTER = 100\n"));
    REQUIRE(bounded.update(AdType::Machine, ad("[ Name = \"slot1@s\"; Offline = true ]"), kT0));
    bounded.take_kept_changes();
    bounded.expire(kT0 + 100);
    CHECK(bounded.take_kept_changes().size() == 1);
    CHECK_FALSE(bounded.find(AdType::Machine, "slot1@s"));
  }
}

// Issue 22: a central manager's collector takes what its peers hold
// (adopt), but never an ad it has (its own is as new) nor one withdrawn
// here, which a peer may not have heard of yet.
TEST_CASE("ads of a peer collector are adopted unless held or withdrawn here", "[collector]") {
  AdStore store{CollectorPolicy{}};
  auto negotiator = [](const std::string& name, int term) {
    return ad("[ MyType = \"Negotiator\"; Name = \"" + name + "\"; HadTerm = " + std::to_string(term) + " ]");
  };
  const AdQuery all{AdType::Negotiator, {}, false};
  REQUIRE(store.update(AdType::Negotiator, negotiator("cm2", 2), kT0));
  CHECK(store.adopt(AdType::Negotiator, negotiator("cm1", 1), kT0));
  CHECK_FALSE(store.adopt(AdType::Negotiator, negotiator("cm2", 1), kT0));  // its own copy stays
  CHECK(classad::evaluate_attr(*store.find(AdType::Negotiator, "cm2"), "HadTerm").as_int() == 2);
  CHECK_FALSE(store.adopt(AdType::Negotiator, ad("[ MyType = \"Negotiator\" ]"), kT0));  // no Name
  // cm1 stood down and withdrew its ad: a peer's stale copy does not bring
  // it back within CLASSAD_LIFETIME; cm1's own word does.
  REQUIRE(store.invalidate(AdType::Negotiator, "cm1", kT0 + 10));
  CHECK_FALSE(store.adopt(AdType::Negotiator, negotiator("cm1", 1), kT0 + 20));
  CHECK(names(store.query(all, kT0 + 20)) == std::vector<std::string>{"cm2"});
  store.expire(kT0 + 10 + 900);
  REQUIRE(store.update(AdType::Negotiator, negotiator("cm2", 2), kT0 + 10 + 900));
  CHECK(store.adopt(AdType::Negotiator, negotiator("cm1", 1), kT0 + 10 + 900));
  // A daemon lost without a word: the same.
  REQUIRE(store.lose(AdType::Negotiator, "cm1", kT0 + 1000));
  CHECK_FALSE(store.adopt(AdType::Negotiator, negotiator("cm1", 1), kT0 + 1001));
  REQUIRE(store.update(AdType::Negotiator, negotiator("cm1", 3), kT0 + 1002));
  CHECK(classad::evaluate_attr(*store.find(AdType::Negotiator, "cm1"), "HadTerm").as_int() == 3);
}
