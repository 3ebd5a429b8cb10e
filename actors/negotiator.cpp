#include "actors/negotiator.h"

#include <algorithm>
#include <caf/actor_system.hpp>
#include <caf/typed_event_based_actor.hpp>
#include <map>
#include <optional>
#include <random>
#include <set>

#include "actors/collectors_update.h"
#include "actors/group.h"
#include "actors/negotiator_state.h"
#include "model/accounting/accountant.h"
#include "model/accounting/group_tree.h"
#include "model/accounting/priority_edit.h"
#include "model/claim/claim_id.h"
#include "model/claim/cycle_claims.h"
#include "model/classad/eval.h"
#include "model/classad/unparse.h"
#include "model/collector/ad_store.h"
#include "model/ha/had_config.h"
#include "model/negotiation/cycle_timing.h"
#include "model/negotiation/negotiation_cycle.h"
#include "model/negotiation/negotiator_ads.h"
#include "model/negotiation/negotiator_policy.h"
#include "model/negotiation/significant_attributes.h"
#include "model/schedd/job_status.h"
#include "net/claim_secret.h"
#include "persistence/accountant_store.h"

namespace cara::actors {
namespace {

using namespace negotiator_parts;

struct Gathered {
  std::vector<classad::ClassAd> slots;
  std::vector<slot_actor> slot_endpoints;
  std::vector<classad::ClassAd> submitter_ads;
  std::vector<schedd_actor> submitter_endpoints;  // the schedd that speaks for each
  std::map<std::string, schedd_actor> schedds;    // by Name
  std::vector<RequestsReply> replies;
  std::size_t waiting = 0;
  // The slot ads came from a collector on this node: the cycle runs over
  // the negotiator's board, and `keys` are the slots' keys there (by
  // place in `slots`, increasing).
  bool local_collector = false;
  std::vector<negotiation::SlotBoard::Key> keys;
};

// A board key's place in the gathered slots.
std::size_t slot_index(const Gathered& g, negotiation::SlotBoard::Key key) {
  return static_cast<std::size_t>(std::lower_bound(g.keys.begin(), g.keys.end(), key) - g.keys.begin());
}

using schedd::string_attr;

// A claim id is "<public part>#<secret>" (HTCondor's claim ids too end in
// their secret). The public part (this negotiator's start and a counter)
// names the claim in slot ads (PublicClaimId), led by the election's term
// under high availability; the secret is 256 bits that
// only the matched schedd and slot ever see (net/claim_secret.h), or from
// the seeded generator when a test asked for reproducible ids.
std::string fresh_claim_id(Self self, const NegotiatorSetup& setup) {
  auto& st = self->state;
  std::string secret;
  if (setup.seed != 0) {
    static const char* hex = "0123456789abcdef";
    for (int i = 0; i < 4; ++i) {
      std::uint64_t w = st.random();
      for (int k = 0; k < 16; ++k, w >>= 4) secret += hex[w & 15];
    }
  } else {
    secret = net::claim_secret();
  }
  // Under high availability the term leads: the negotiators of a group
  // start alike, and each term's ids are its own.
  const std::string term = setup.ha ? "t" + std::to_string(st.term) + "." : "";
  return claim::make_claim_id(term + std::to_string(st.started) + "." + std::to_string(++st.claim_counter),
                              secret);
}

// When the next cycle may start, given what was asked.
void plan_next(Self self, const NegotiatorSetup& setup) {
  auto& st = self->state;
  const std::int64_t now = setup.clock.now(self);
  schedule(self, setup, negotiation::next_cycle_at(st.policy, st.times, now));
}

void send_matches(Self self, const NegotiatorSetup& setup, std::shared_ptr<Gathered> g,
                  claim::CycleClaims& cycle);

// The cycle is the model's (model/claim/cycle_claims.h); the actor sends
// each schedd its matches and each slot word that it was matched.
void finish_cycle(Self self, const NegotiatorSetup& setup, std::shared_ptr<Gathered> g) {
  auto& st = self->state;
  const std::int64_t now = setup.clock.now(self);
  claim::CycleInput input;
  if (g->local_collector) {
    input.board = &st.board;
    input.tracker = &st.tracker;
  } else {
    input.slots = &g->slots;
  }
  input.schedd_of = st.submitter_schedd;
  for (RequestsReply& r : g->replies) {
    negotiation::SubmitterRequests s;
    s.name = r.submitter;
    for (WireRequest& w : r.requests)
      s.requests.push_back(negotiation::Request{&w.job.ad, w.count, w.job_ids});
    input.submitters.push_back(std::move(s));
  }
  // The actor clock: real time on a node, virtual time in the actor tests.
  input.clock = [self] {
    return std::chrono::duration<double>(self->clock().now().time_since_epoch()).count();
  };
  claim::CycleClaims cycle = claim::run_cycle(
      st.policy, *st.accountant, st.groups, std::move(input), [&] { return fresh_claim_id(self, setup); },
      now);
  for (const std::string& w : cycle.warnings) setup.context.warning(w);
  // The priorities and charges the matches follow from are stored (and
  // replicated) before any match goes out.
  auto done = std::make_shared<claim::CycleClaims>(std::move(cycle));
  save_then(self, setup, [self, setup, g, done] { send_matches(self, setup, g, *done); });
}

// The cycle's matches, each to its slot and its schedd; a negotiator that
// stood down meanwhile sends none.
void send_matches(Self self, const NegotiatorSetup& setup, std::shared_ptr<Gathered> g,
                  claim::CycleClaims& cycle) {
  auto& st = self->state;
  if (!st.active) {
    setup.context.info("cycle " + std::to_string(st.cycles + 1) + ": no matches sent: standing by now");
    st.running = false;
    st.times.last_end = setup.clock.now(self);
    return;
  }
  const std::int64_t term = st.term;
  for (auto& [schedd, offers] : cycle.offers) {
    auto to = g->schedds.find(schedd);
    if (to == g->schedds.end() || !to->second) continue;
    // Each slot has its announcement before the schedd hears of the match
    // (one on another node says so): the schedd's claim can then never
    // arrive first. The matches go out in chunks, so that the schedd
    // claims the first slots while the last are still being told.
    struct Pending {
      schedd_actor schedd;
      std::vector<MatchInfo> matches;
      MatchBatch ready;
      std::size_t waiting = 0;
    };
    constexpr std::size_t kChunk = 64;
    auto pending = std::make_shared<Pending>();
    pending->schedd = to->second;
    pending->ready.term = term;
    for (claim::ClaimOffer& o : offers) {
      if (g->local_collector) {
        const std::size_t i = slot_index(*g, o.slot);
        if (i >= g->keys.size() || g->keys[i] != o.slot) continue;  // not a slot of this cycle's list
        o.slot = i;
      }
      const slot_actor& slot = g->slot_endpoints[o.slot];
      if (!slot) continue;
      MatchInfo info;
      info.claim_id = std::move(o.claim_id);
      info.submitter = std::move(o.submitter);
      info.slot_name = std::move(o.slot_name);
      info.slot_ad = WireAd{g->slots[o.slot]};
      info.slot = slot;
      info.job_ids = std::move(o.job_ids);
      info.preempting = o.preempting;
      info.preempt_dslots = std::move(o.preempt_dslots);
      pending->matches.push_back(std::move(info));
    }
    pending->waiting = pending->matches.size();
    for (std::size_t i = 0; i < pending->matches.size(); ++i) {
      auto answered = [self, pending, i](bool ok) {
        if (ok) pending->ready.matches.push_back(std::move(pending->matches[i]));
        const bool last = --pending->waiting == 0;
        if (pending->ready.matches.empty() || (!last && pending->ready.matches.size() < kChunk)) return;
        const std::int64_t term = pending->ready.term;
        self->send(pending->schedd, std::move(pending->ready));
        pending->ready = MatchBatch{};
        pending->ready.term = term;
      };
      const MatchInfo& m = pending->matches[i];
      if (m.slot.node() == self->system().node()) {
        // In this process the announcement is in the slot's mailbox as
        // soon as it is sent, before any schedd can hear of the match.
        self->send(m.slot, SlotMatched{m.claim_id, term});
        answered(true);
        continue;
      }
      self->request(m.slot, setup.request_timeout, SlotMatched{m.claim_id, term})
          .then([answered]() { answered(true); },
                [answered](caf::error&) { answered(false); });  // the slot is gone: so is the match
    }
  }
  const negotiation::CycleResult& result = cycle.result;
  if (setup.context.observed()) {
    const std::int64_t now = setup.clock.now(self);
    for (const negotiation::Match& m : result.matches)
      setup.context.report(node::PoolEvent{node::PoolEventKind::Matched, now,
                                           m.job_id.value_or(schedd::JobId{}), m.submitter, m.slot_name,
                                           m.weight, negotiation::reason_name(m.reason)});
    setup.context.report(node::PoolEvent{
        node::PoolEventKind::Cycle, now, {}, {}, {}, 0, std::to_string(result.matches.size())});
  }
  // Each group its turn, in the order the groups negotiated in.
  for (const negotiation::GroupOutcome* o : negotiation::groups_in_turn_order(result))
    if (auto it = st.group_actors.find(o->name); it != st.group_actors.end())
      self->send(it->second, GroupTurn{st.cycles + 1, WireAd{negotiation::group_ad(*o, st.cycles + 1)}});
  st.last_stats = result.stats;
  st.last_submitters = negotiation::submitter_cycle_ads(result, setup.clock.now(self));
  if (setup.context.log)
    setup.context.info("cycle " + std::to_string(st.cycles + 1) + ": " + std::to_string(g->slots.size()) +
                       " slots, " + std::to_string(result.submitters.size()) + " submitters with requests, " +
                       std::to_string(result.matches.size()) + " matches (" +
                       std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                          self->clock().now() - st.cycle_began)
                                          .count()) +
                       " ms)");
  st.running = false;
  st.times.last_end = setup.clock.now(self);
  ++st.cycles;
  publish(self, setup);
  plan_next(self, setup);
}

void ask_submitters(Self self, const NegotiatorSetup& setup, std::shared_ptr<Gathered> g) {
  auto& st = self->state;
  std::vector<std::string> significant;
  if (g->local_collector) {
    classad::EvalEnv env;
    env.now = setup.clock.now(self);
    st.board.prepare(st.policy, env);
    significant = negotiation::significant_attributes(st.policy, st.board);
  } else {
    significant = negotiation::significant_attributes(st.policy, g->slots);
  }
  const std::string job_constraint =
      st.policy.job_constraint ? classad::unparse(*st.policy.job_constraint) : "";
  for (std::size_t i = 0; i < g->submitter_ads.size(); ++i) {
    const classad::ClassAd& ad = g->submitter_ads[i];
    classad::Value idle = classad::evaluate_attr(ad, "IdleJobs");
    if (!g->submitter_endpoints[i] || !idle.is_int() || idle.as_int() <= 0) continue;
    const std::string name = string_attr(ad, "Name");
    st.submitter_schedd[name] = string_attr(ad, "ScheddName");
    ++g->waiting;
    self->request(g->submitter_endpoints[i], setup.request_timeout,
                  RequestsQuery{st.cycles, name, significant, job_constraint})
        .then(
            [self, setup, g](RequestsReply& r) {
              g->replies.push_back(std::move(r));
              if (--g->waiting == 0) finish_cycle(self, setup, g);
            },
            [self, setup, g](caf::error&) {  // a schedd that does not answer sits this cycle out
              if (--g->waiting == 0) finish_cycle(self, setup, g);
            });
  }
  if (g->waiting == 0) finish_cycle(self, setup, g);
}

void start_cycle(Self self, const NegotiatorSetup& setup) {
  auto& st = self->state;
  if (st.running || st.collectors.empty()) return;
  st.running = true;
  st.times.requested = false;
  st.times.last_start = setup.clock.now(self);
  st.cycle_began = self->clock().now();
  auto g = std::make_shared<Gathered>();
  const collector_actor collector = st.collectors.front();
  auto failed = [self, setup](caf::error&) {
    self->state.running = false;
    self->state.times.last_end = setup.clock.now(self);
    plan_next(self, setup);
  };
  using collector::AdType;
  self->request(collector, setup.request_timeout,
                AdQueryRequest{static_cast<std::int32_t>(AdType::Machine), "", {}, false})
      .then(
          [self, setup, g, collector, failed](AdQueryReply& slots) {
            for (WireAd& a : slots.ads) g->slots.push_back(std::move(a.ad));
            g->slot_endpoints = endpoints<AdType::Machine>(slots.endpoints);
            auto& st = self->state;
            g->local_collector = collector.node() == self->node();
            if (g->local_collector)
              g->keys = st.feed.feed(st.board, g->slots);
            else
              st.feed.clear(st.board);
            self->request(collector, setup.request_timeout,
                          AdQueryRequest{static_cast<std::int32_t>(AdType::Scheduler), "", {"Name"}, false})
                .then(
                    [self, setup, g, collector, failed](AdQueryReply& schedds) {
                      for (std::size_t i = 0; i < schedds.ads.size(); ++i)
                        g->schedds[string_attr(schedds.ads[i].ad, "Name")] =
                            endpoint<AdType::Scheduler>(schedds.endpoints[i]);
                      self->request(
                              collector, setup.request_timeout,
                              AdQueryRequest{static_cast<std::int32_t>(AdType::Submitter), "", {}, false})
                          .then(
                              [self, setup, g](AdQueryReply& subs) {
                                for (WireAd& a : subs.ads) g->submitter_ads.push_back(std::move(a.ad));
                                g->submitter_endpoints = endpoints<AdType::Submitter>(subs.endpoints);
                                introduce_then(self, setup, g->submitter_endpoints, g->slot_endpoints,
                                               [self, setup, g] { ask_submitters(self, setup, g); });
                              },
                              failed);
                    },
                    failed);
          },
          failed);
}

// The command's word is parsed here, once; the change is the model's
// (model/accounting/priority_edit.h). It is answered once stored (and
// replicated).
caf::result<CommandReply> run_command(Self self, const NegotiatorSetup& setup, const UserprioCommand& c) {
  auto& st = self->state;
  if (!st.active)
    return CommandReply{false,
                        "this negotiator stands by (high availability): the active central manager "
                        "takes priority changes"};
  const std::string what = "userprio " + c.command + " " + c.name;
  auto refuse = [&](const std::string& why) {
    setup.context.info(what + ": " + why);
    return CommandReply{false, why};
  };
  auto kind = accounting::parse_priority_edit_kind(c.command);
  if (!kind) return refuse(kind.error());
  accounting::PriorityEdit edit{*kind, c.name, c.value, std::nullopt};
  if (c.duration > 0) edit.duration = c.duration;
  if (Status s = accounting::apply(*st.accountant, edit, setup.clock.now(self)); !s) return refuse(s.error());
  auto rp = self->make_response_promise<CommandReply>();
  const bool stored = save_then(self, setup, [self, setup, rp, what]() mutable {
    publish(self, setup);
    setup.context.info(what + ": done");
    rp.deliver(CommandReply{true, {}});
  });
  if (!stored) rp.deliver(CommandReply{false, "the accountant cannot be stored: the change is not kept"});
  return rp;
}

// One group actor per group of GROUP_NAMES (none without groups); those
// of a previous configuration end.
void take_groups(Self self, const accounting::GroupTree& groups) {
  auto& st = self->state;
  for (auto& [name, a] : st.group_actors) {
    self->unlink_from(a);
    self->send_exit(a, caf::exit_reason::user_shutdown);
  }
  st.group_actors.clear();
  st.groups.reset();
  if (groups.nodes().size() <= 1) return;
  st.groups = groups;
  for (const accounting::GroupNode& g : st.groups->nodes()) {
    group_actor a = spawn_group(self->system(), g.name, g.configured_quota);
    self->link_to(a);  // groups end with their negotiator
    st.group_actors.emplace(g.name, std::move(a));
  }
}

// condor_reconfig: the next cycle runs under the new policy, accountant
// settings, groups and intervals. A cycle runs within one handler, so none
// sees a half-applied configuration. Nothing changes when any part fails.
CommandReply reconfigure(Self self, const NegotiatorSetup& setup, const config::Config& config) {
  auto policy = negotiation::NegotiatorPolicy::from_config(config);
  if (!policy) return CommandReply{false, policy.error()};
  auto acc = accounting::AccountantConfig::from_config(config);
  if (!acc) return CommandReply{false, acc.error()};
  auto groups = accounting::GroupTree::from_config(config);
  if (!groups) return CommandReply{false, groups.error()};
  auto& st = self->state;
  st.policy = std::move(*policy);
  st.accountant->reconfigure(std::move(*acc), setup.clock.now(self));
  if (!save_then(self, setup, [] {})) return CommandReply{false, "the accountant cannot be stored"};
  take_groups(self, *groups);
  publish(self, setup);
  if (!st.running) plan_next(self, setup);
  setup.context.info("reconfigured");
  return CommandReply{true, {}};
}

// What the negotiator starts from: its policy and groups, and its
// accountant (read back from its store, when it has one) with the store.
struct Start {
  negotiation::NegotiatorPolicy policy;
  std::optional<accounting::Accountant> accountant;
  accounting::GroupTree groups;
  std::optional<persistence::AccountantStore> store;
  std::optional<ha::HadConfig> ha;
};

negotiator_actor::behavior_type negotiator_behavior(Self self, std::shared_ptr<Start> start,
                                                    NegotiatorSetup setup) {
  auto& st = self->state;
  st.policy = std::move(start->policy);
  st.accountant.emplace(std::move(*start->accountant));
  st.store = std::move(start->store);
  st.collectors = setup.collectors;
  take_groups(self, start->groups);
  st.random.seed(setup.seed);
  st.started = setup.clock.now(self);
  if (setup.ha) {
    // It stands by until its had says otherwise, and tells the had where
    // it is and which accountant it holds.
    st.active = false;
    st.replicate = start->ha->use_replication;
    st.sync_replication = start->ha->sync_replication;
    if (st.store) st.version = st.store->version();
    st.term = st.version.term;
    if (auto had = setup.ha->had()) self->send(had, AccountantVersion{st.version.term, st.version.seq});
  }
  publish(self, setup);
  plan_next(self, setup);
  return {
      [self, setup](NegotiatorRole& r) {
        if (!setup.ha || !net::from_this_node(self)) return;
        take_role(self, setup, r);
        // The had hears which accountant this one holds (the had may have
        // restarted and not know yet).
        auto& st = self->state;
        self->send(caf::actor_cast<had_actor>(self->current_sender()),
                   AccountantVersion{st.version.term, st.version.seq});
      },
      [self, setup](ReplicaBatch& b) -> CommandReply {
        if (auto no = setup.context.refused(self, net::Permission::Daemon, "negotiator"))
          return CommandReply{false, *no};
        auto& st = self->state;
        if (!setup.ha) return CommandReply{false, "this negotiator is not highly available (no HAD)"};
        if (st.active || b.term < st.term)
          return CommandReply{false, "refused: this negotiator is " +
                                         std::string(st.active ? "active" : "standing by") + " in term " +
                                         std::to_string(st.term) + ", the state is of term " +
                                         std::to_string(b.term)};
        if (Status s = take_replica(self, setup, b, "the active central manager's replication"); !s)
          return CommandReply{false, s.error()};
        return CommandReply{true, {}};
      },
      [self, setup](ReplicaFetch&) -> ReplicaBatch {
        auto& st = self->state;
        if (setup.context.refused(self, net::Permission::Daemon, "negotiator") || !setup.ha) return {};
        return ReplicaBatch{st.version.term, st.version.seq,
                            persistence::encode_snapshot(st.accountant->state(), st.version)};
      },
      [self, setup](Reschedule&) {
        if (setup.context.refused(self, net::Permission::Write, "negotiator")) return;
        self->state.times.requested = true;
        if (!self->state.running) plan_next(self, setup);
      },
      [self, setup](UserprioQuery&) -> caf::result<UserprioReply> {
        UserprioReply reply;
        if (setup.context.refused(self, net::Permission::Read, "negotiator")) return reply;
        for (const auto& [key, r] : self->state.accountant->records())
          reply.records.push_back(WireAd{negotiation::accounting_ad(r)});
        reply.last_update = self->state.accountant->last_update();
        for (const auto& [slot, c] : self->state.accountant->claims())
          reply.claims.push_back(WireAd{negotiation::claim_ad(c)});
        for (const classad::ClassAd& s : self->state.last_submitters) reply.last_cycle.push_back(WireAd{s});
        if (self->state.group_actors.empty()) return reply;
        // The groups answer for themselves (GroupTree order).
        struct Gathering {
          UserprioReply reply;
          std::vector<std::optional<WireAd>> groups;
          std::size_t waiting = 0;
        };
        auto g = std::make_shared<Gathering>();
        g->reply = std::move(reply);
        g->groups.resize(self->state.group_actors.size());
        g->waiting = g->groups.size();
        auto rp = self->make_response_promise<UserprioReply>();
        auto done = [g, rp]() mutable {
          if (--g->waiting > 0) return;
          for (auto& ad : g->groups)
            if (ad) g->reply.groups.push_back(std::move(*ad));
          rp.deliver(std::move(g->reply));
        };
        std::size_t i = 0;
        for (const accounting::GroupNode& node : self->state.groups->nodes()) {
          auto it = self->state.group_actors.find(node.name);
          if (it == self->state.group_actors.end()) {
            done();
            ++i;
            continue;
          }
          self->request(it->second, std::chrono::seconds(5), GroupQuery{})
              .then([g, i, done](WireAd& ad) mutable { g->groups[i] = std::move(ad), done(); },
                    [done](caf::error&) mutable { done(); });
          ++i;
        }
        return rp;
      },
      [self, setup](UserprioCommand& c) -> caf::result<CommandReply> {
        // setfactor and the other priority changes are ADMINISTRATOR work.
        if (auto no = setup.context.refused(self, net::Permission::Administrator, "negotiator"))
          return CommandReply{false, *no};
        return run_command(self, setup, c);
      },
      [self, setup](Collectors& c) {
        if (take_collectors(self, c, self->state.collectors)) publish(self, setup);
      },
      [self, setup](Reconfigure&) {
        auto config = setup.context.reconfiguration(self);
        if (!config) return CommandReply{false, config.error()};
        return reconfigure(self, setup, **config);
      },
      [self, setup](Timer t) {
        if (!net::from_this_node(self)) return;  // its own timers only
        if (t.what == kReplicaTimer) return retry_replication(self, setup);
        if (t.what != kCycleTimer) return;
        auto& st = self->state;
        const std::int64_t now = setup.clock.now(self);
        if (st.timer_at && *st.timer_at > now) return;  // a stale timer; a later one is set
        st.timer_at.reset();
        if (st.running || !st.active) return;
        start_cycle(self, setup);
        if (!st.running) plan_next(self, setup);
      },
  };
}

}  // namespace

namespace negotiator_parts {

void schedule(Self self, const NegotiatorSetup& setup, std::int64_t at) {
  auto& st = self->state;
  if (st.timer_at && *st.timer_at <= at) return;  // an earlier timer is set
  st.timer_at = at;
  const std::int64_t delay = std::max<std::int64_t>(0, at - setup.clock.now(self));
  self->delayed_send(self, std::chrono::seconds(delay), Timer{kCycleTimer});
}

void publish(Self self, const NegotiatorSetup& setup) {
  auto& st = self->state;
  if (!st.active) return;  // a standby is not the pool's negotiator
  classad::ClassAd ad = negotiation::negotiator_ad(negotiation::negotiator_name(*setup.config), st.cycles,
                                                   st.last_stats, setup.address);
  if (setup.ha) negotiation::set_active_term(ad, negotiation::ActiveTerm{st.term, st.active_since});
  AdUpdate u{static_cast<std::int32_t>(collector::AdType::Negotiator),
             {WireAd{std::move(ad)}},
             {as_endpoint<collector::AdType::Negotiator>(self)}};
  AdUpdate acc{static_cast<std::int32_t>(collector::AdType::Accounting), {}, {}};
  // Under high availability the accountant is the pool's, whichever
  // central manager is active: its ads replace the last active one's.
  // Otherwise each is its own negotiator's (several may shard the pool).
  const std::string owner = setup.ha ? "" : negotiation::negotiator_name(*setup.config);
  for (const auto& [key, r] : st.accountant->records())
    acc.ads.push_back(WireAd{negotiation::accounting_ad(r, owner)});
  for (const collector_actor& c : self->state.collectors) {
    self->send(c, u);
    if (!acc.ads.empty()) self->send(c, acc);
  }
}

}  // namespace negotiator_parts

Result<negotiator_actor> spawn_negotiator(caf::actor_system& sys, NegotiatorSetup setup) {
  auto start = std::make_shared<Start>();
  auto policy = negotiation::NegotiatorPolicy::from_config(*setup.config);
  if (!policy) return Error{policy.error()};
  start->policy = std::move(*policy);
  auto acc = accounting::AccountantConfig::from_config(*setup.config);
  if (!acc) return Error{acc.error()};
  auto groups = accounting::GroupTree::from_config(*setup.config);
  if (!groups) return Error{groups.error()};
  start->groups = std::move(*groups);
  const std::int64_t now = setup.clock.now(&sys);
  if (setup.durable) {
    // A store that cannot be read stops the negotiator here, with what is
    // wrong: never a silent reset of everyone's priority.
    auto path = setup.config->string("ACCOUNTANT_STORE");
    if (!path) return Error{path.error()};
    auto store = persistence::AccountantStore::open(*path);
    if (!store) return Error{store.error()};
    auto stored = store->load();
    if (!stored) return Error{stored.error()};
    if (*stored) {
      auto restored = accounting::Accountant::restore(std::move(*acc), std::move(**stored));
      if (!restored) return Error{"store accountant (" + *path + "): " + restored.error()};
      start->accountant.emplace(std::move(*restored));
    }
    start->store = std::move(*store);
  }
  if (!start->accountant) start->accountant.emplace(std::move(*acc), now);
  if (setup.ha) {
    auto ha = ha::HadConfig::from_config(*setup.config);
    if (!ha) return Error{ha.error()};
    if (!*ha) return Error{ha::kEmptyHadList};
    start->ha = std::move(**ha);
  }
  auto link = setup.ha;
  auto n = sys.spawn(negotiator_behavior, std::move(start), std::move(setup));
  if (link) link->set_negotiator(n);  // before it runs: the had may look for it first
  return n;
}

}  // namespace cara::actors
