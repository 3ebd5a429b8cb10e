// The claims reconciled from what changed (model/claim/claim_tracker.h,
// issue 29): cycle after cycle over a changing board and an accountant
// charged as a negotiator charges it, the tracker gives what the full
// reconcile gives, in its order.
#include "model/claim/claim_tracker.h"

#include <catch2/catch.hpp>
#include <memory>
#include <random>

#include "model/classad/parser.h"
#include "model/config/config.h"
#include "model/config/config_host.h"
#include "model/negotiation/slot_board.h"

using namespace cara;
using namespace cara::claim;

namespace {

constexpr std::int64_t kT0 = 1700000000;

accounting::Accountant accountant() {
  auto c = config::config_from_text("UID_DOMAIN = example.org\n", {"NEGOTIATOR", ""},
                                    std::make_shared<config::MemoryHost>());
  if (!c) FAIL(c.error());
  auto a = accounting::AccountantConfig::from_config(*c);
  if (!a) FAIL(a.error());
  return accounting::Accountant(*a, kT0);
}

negotiation::NegotiatorPolicy policy() {
  auto c = config::config_from_text("", {"NEGOTIATOR", ""}, std::make_shared<config::MemoryHost>());
  if (!c) FAIL(c.error());
  auto p = negotiation::NegotiatorPolicy::from_config(*c);
  if (!p) FAIL(p.error());
  return *p;
}

// A slot `name` in a random state: claimed by a user (or by nobody to
// charge), matched, idle; a SlotWeight the accountant refuses, rarely.
classad::ClassAd random_slot(std::mt19937& rng, const std::string& name) {
  std::string extra;
  switch (rng() % 5) {
    case 0:
    case 1:
      extra = "State = \"Claimed\"; RemoteUser = \"u" + std::to_string(rng() % 3) + "@example.org\"";
      break;
    case 2: extra = "State = \"Matched\""; break;
    case 3: extra = rng() % 4 == 0 ? "State = \"Claimed\"" : "State = \"Unclaimed\""; break;
    default: extra = "State = \"Owner\""; break;
  }
  if (rng() % 20 == 0) extra += "; SlotWeight = -1";
  auto a = classad::parse_classad("[ Name = \"" + name + "\"; Cpus = " + std::to_string(1 + rng() % 4) +
                                  "; " + extra + " ]");
  if (!a) FAIL(a.error());
  return *a;
}

void check_same(const ChargeChanges& a, const ChargeChanges& b) {
  CHECK(a.ended == b.ended);
  REQUIRE(a.begun.size() == b.begun.size());
  for (std::size_t i = 0; i < a.begun.size(); ++i) {
    CHECK(a.begun[i].slot == b.begun[i].slot);
    CHECK(a.begun[i].submitter == b.begun[i].submitter);
    CHECK(a.begun[i].weight == b.begun[i].weight);
  }
}

}  // namespace

TEST_CASE("claims reconciled from what changed are the full reconcile's", "[claim][issue29]") {
  std::mt19937 rng(20261201);
  const negotiation::NegotiatorPolicy p = policy();
  std::int64_t delta = 0, changes = 0, refused = 0;
  for (int episode = 0; episode < 40; ++episode) {
    INFO("episode " << episode);
    accounting::Accountant acct = accountant();
    negotiation::SlotBoard board;
    ClaimTracker tracker;
    // Several slots share some names (of two, the first in key order counts).
    auto name_of = [&](std::uint64_t key) { return "slot" + std::to_string(key % 40) + "@m"; };
    for (std::uint64_t k = 0; k < 60; ++k) board.set(k, random_slot(rng, name_of(k)));
    std::int64_t now = kT0;
    for (int step = 0; step < 30; ++step) {
      INFO("step " << step);
      classad::EvalEnv env;
      env.now = now;
      board.prepare(p, env);
      const ChargeChanges full = reconcile(acct.claims(), board, p.use_slot_weights);
      const ChargeChanges tracked = tracker.changes(acct, board, p, env);
      check_same(tracked, full);
      changes += static_cast<std::int64_t>(full.ended.size() + full.begun.size());
      refused += static_cast<std::int64_t>(charge(acct, tracked, now).size());
      tracker.charged(acct, board, tracked);
      // The cycle's matches: claims charged on names no slot has yet (a
      // partitionable slot's "slot/claim"), or on idle slots; and now and
      // then one ended from outside (condor_userprio -delete's way).
      for (int m = 0, n = static_cast<int>(rng() % 3); m < n; ++m) {
        accounting::ClaimRecord c;
        c.slot = rng() % 2 ? name_of(rng() % 60) : "slot1@m/claim" + std::to_string(rng() % 1000);
        c.submitter = "u1@example.org";
        (void)charge_match(acct, c, now);
      }
      if (rng() % 4 == 0 && !acct.claims().empty())
        REQUIRE(acct.end_claim(acct.claims().begin()->first, now));
      // The slots change: ads replaced, slots gone and new.
      for (int c = 0, n = static_cast<int>(rng() % 8); c < n; ++c) {
        const std::uint64_t k = rng() % 80;
        if (rng() % 4 == 0)
          board.erase(k);
        else
          board.set(k, random_slot(rng, name_of(k)));
      }
      // Rarely, the accountant restored from what it committed: its log
      // starts anew, and the tracker reconciles in full.
      if (rng() % 15 == 0) {
        auto restored = accounting::Accountant::restore(acct.config(), acct.state());
        REQUIRE(restored);
        acct = std::move(*restored);
      }
      now += 60;
    }
    delta += 30 - tracker.full();
  }
  CHECK(changes > 1000);
  CHECK(refused > 20);     // the accountant refused some: they were tried again
  CHECK(delta > 40 * 20);  // most cycles looked at what changed alone
}
