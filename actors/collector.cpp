#include "actors/collector.h"

#include <algorithm>
#include <caf/actor_system.hpp>
#include <caf/typed_event_based_actor.hpp>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "model/classad/selection.h"
#include "model/collector/collector_ad.h"
#include "persistence/collector_store.h"
#include "persistence/pool_history_store.h"

namespace cara::actors {
namespace {

struct CollectorState {
  std::optional<collector::AdStore> store;
  std::map<std::string, caf::actor> endpoints[collector::kAdTypes];
  // Who sent each ad (its daemon), watched: when a daemon is gone — its
  // node died, or stopped answering the middleman's heartbeats — its ads
  // leave the pool at once instead of after CLASSAD_LIFETIME.
  std::unordered_map<std::string, caf::actor_addr> advertisers[collector::kAdTypes];
  std::set<caf::actor_addr> watched;
  std::vector<collector_actor> view_hosts;  // CONDOR_VIEW_HOST: every update goes on to these
  std::vector<collector_actor> peers;       // the other central managers' collectors (HA)
  collector::CollectorPolicy policy;        // the store's, for its own ad
  collector::CollectorCounters counters;
  std::int64_t next_own_ad = 0;  // when its own ad is refreshed next
  // The absent ads' store and the pool history's; none when not kept.
  std::optional<persistence::CollectorStore> ad_log;
  std::optional<persistence::PoolHistoryStore> history;
  collector::PoolHistoryPolicy history_policy;
  std::int64_t next_sample = 0;  // when the pool is sampled next
  static inline const char* name = "collector";
};

using Self = collector_actor::stateful_pointer<CollectorState>;

// The absent and offline ads that changed go to disk (rare: a machine
// leaves, sleeps or comes back). A write that fails is said; the collector serves on, its live
// ads unaffected.
void save_kept(Self self, const CollectorSetup& setup) {
  auto& st = self->state;
  auto changes = st.store->take_kept_changes();
  if (changes.empty() || !st.ad_log) return;
  if (Status s = st.ad_log->commit(*st.store, changes); !s)
    setup.context.warning("absent or offline ads not stored: " + s.error());
}

// KEEP_POOL_HISTORY: a sample every POOL_HISTORY_SAMPLING_INTERVAL.
void sample_if_due(Self self, const CollectorSetup& setup) {
  auto& st = self->state;
  if (!st.history) return;
  const std::int64_t now = setup.clock.now(self);
  if (now < st.next_sample) return;
  st.next_sample = now + st.history_policy.sampling_interval;
  if (Status s = st.history->append(now, collector::sample_pool(*st.store, st.history_policy, now)); !s)
    setup.context.warning("pool history sample not stored: " + s.error());
}

bool valid_type(std::int32_t t) {
  return t >= 0 && t < collector::kAdTypes;
}

void forget_missing(CollectorState& st, int type, const std::vector<std::string>& keys) {
  for (const std::string& k : keys)
    if (!st.store->find(static_cast<collector::AdType>(type), k)) {
      st.endpoints[type].erase(k);
      st.advertisers[type].erase(k);
    }
}

// `key` of `type` came from `sender`: watched from now on.
void note_advertiser(Self self, int type, const std::string& key, const caf::strong_actor_ptr& sender) {
  if (!sender) return;
  auto& st = self->state;
  const caf::actor_addr addr = caf::actor_cast<caf::actor_addr>(sender);
  if (addr == self->address()) return;  // its own ad
  auto& by = st.advertisers[type][key];
  if (by == addr) return;
  by = addr;
  if (st.watched.insert(addr).second) self->monitor(sender);
}

// A daemon that sent ads is gone. Stopped normally, it took its ads with it
// (as an invalidation); otherwise its ads are lost: they expire now, and a
// machine's becomes absent where ABSENT_REQUIREMENTS says so.
void advertiser_gone(Self self, const CollectorSetup& setup, const caf::down_msg& d) {
  auto& st = self->state;
  if (!st.watched.erase(d.source)) return;
  const bool stopped = d.reason == caf::exit_reason::normal || d.reason == caf::exit_reason::user_shutdown;
  const std::int64_t now = setup.clock.now(self);
  std::size_t gone = 0;
  std::string names;  // the first few, for the log
  for (int t = 0; t < collector::kAdTypes; ++t) {
    AdInvalidate inv{t, {}};
    for (const auto& [key, addr] : st.advertisers[t])
      if (addr == d.source) inv.keys.push_back(key);
    if (inv.keys.empty()) continue;
    for (const std::string& k : inv.keys) {
      const auto type = static_cast<collector::AdType>(t);
      const bool went = stopped ? st.store->invalidate(type, k, now) : st.store->lose(type, k, now);
      if (went && ++gone <= 3) names += (names.empty() ? "" : ", ") + k;
      st.advertisers[t].erase(k);
    }
    forget_missing(st, t, inv.keys);
    for (const collector_actor& view : st.view_hosts) self->send(view, inv);
  }
  save_kept(self, setup);
  if (gone > 0)
    setup.context.info(std::to_string(gone) + " ads of a daemon that is gone (" + caf::to_string(d.reason) +
                       (stopped ? ") withdrawn: " : ") left the pool: ") + names + (gone > 3 ? ", ..." : ""));
}

// The collector's own ad, in its own store (and its view collectors'),
// every COLLECTOR_UPDATE_INTERVAL.
void advertise_self(Self self, const CollectorSetup& setup) {
  auto& st = self->state;
  const std::int64_t now = setup.clock.now(self);
  classad::ClassAd ad = collector::store_own_ad(*st.store, st.policy, st.counters, now);
  const caf::actor me = as_endpoint<collector::AdType::Collector>(self);
  st.endpoints[static_cast<int>(collector::AdType::Collector)][st.policy.name] = me;
  const AdUpdate u{static_cast<std::int32_t>(collector::AdType::Collector), {WireAd{std::move(ad)}}, {me}};
  for (const collector_actor& view : st.view_hosts) self->send(view, u);
  st.next_own_ad = now + st.policy.update_interval;
}

AdQueryReply run_query(Self self, const CollectorSetup& setup, const AdQueryRequest& q) {
  AdQueryReply reply;
  if (!valid_type(q.type)) {
    reply.ok = false;
    reply.error = "unknown ad type " + std::to_string(q.type);
    return reply;
  }
  auto selection = classad::Selection::parse(q.constraint, q.projection);
  if (!selection) {
    reply.ok = false;
    reply.error = selection.error();
    return reply;
  }
  collector::AdQuery query;
  query.type = static_cast<collector::AdType>(q.type);
  // A query about collectors sees this one's counters as they are now (the
  // web endpoint's update rate), not as they were at its last advertisement.
  if (query.type == collector::AdType::Collector)
    collector::store_own_ad(*self->state.store, self->state.policy, self->state.counters,
                            setup.clock.now(self));
  query.selection = std::move(*selection);
  query.absent = q.absent;
  std::vector<std::string> keys;
  auto ads = self->state.store->query(query, setup.clock.now(self), &keys);
  reply.ads.reserve(ads.size());
  reply.endpoints.reserve(ads.size());
  const auto& endpoints = self->state.endpoints[q.type];
  for (std::size_t i = 0; i < ads.size(); ++i) {
    reply.ads.push_back(WireAd{std::move(ads[i])});
    auto it = endpoints.find(keys[i]);
    reply.endpoints.push_back(it == endpoints.end() ? caf::actor() : it->second);
  }
  return reply;
}

AdQueryReply history_query(Self self, const PoolHistoryQuery& q) {
  auto& st = self->state;
  if (!st.history)
    return AdQueryReply{false, "this collector keeps no pool history (KEEP_POOL_HISTORY is false)", {}, {}};
  auto selection = classad::Selection::parse(q.constraint, q.projection);
  if (!selection) return AdQueryReply{false, selection.error(), {}, {}};
  AdQueryReply reply;
  Status read = st.history->range(q.from, q.to, [&](const classad::ClassAd& row) -> Status {
    if (selection->selects(row, 0)) reply.ads.push_back(WireAd{selection->project(row)});
    return Ok{};
  });
  if (!read) return AdQueryReply{false, read.error(), {}, {}};
  return reply;
}

// Ads of `type` a peer collector holds: those this one lacks are taken
// (AdStore::adopt: an ad it has is as new as the peer's or newer, since
// every daemon reports to both; one withdrawn here stays withdrawn), their
// endpoints watched as their advertisers.
void take_from_peer(Self self, const CollectorSetup& setup, std::int32_t type, AdQueryReply& reply) {
  auto& st = self->state;
  if (!reply.ok || !valid_type(type)) return;
  const auto t = static_cast<collector::AdType>(type);
  const std::int64_t now = setup.clock.now(self);
  std::size_t taken = 0;
  for (std::size_t i = 0; i < reply.ads.size(); ++i) {
    const std::string key = collector::AdStore::key_of(t, reply.ads[i].ad);
    if (!st.store->adopt(t, std::move(reply.ads[i].ad), now)) continue;
    ++taken;
    if (i < reply.endpoints.size() && reply.endpoints[i]) {
      st.endpoints[type][key] = reply.endpoints[i];
      note_advertiser(self, type, key, caf::actor_cast<caf::strong_actor_ptr>(reply.endpoints[i]));
    }
  }
  if (taken > 0)
    setup.context.info("took " + std::to_string(taken) + " " + collector::ad_type_name(t) +
                       " ads from a peer collector");
}

// The other central managers' collectors (CollectorPeers, from the had): a
// new one (or one that restarted as another actor) is asked for all it
// holds, so that both hold the pool although this one (re)started after
// the daemons' last updates.
void take_peers(Self self, const CollectorSetup& setup, std::vector<collector_actor> peers) {
  auto& st = self->state;
  for (const collector_actor& peer : peers) {
    if (!peer || std::find(st.peers.begin(), st.peers.end(), peer) != st.peers.end()) continue;
    for (std::int32_t t = 0; t < collector::kAdTypes; ++t)
      self->request(peer, std::chrono::seconds(30), AdQueryRequest{t, "", {}, false})
          .then([self, setup, t](AdQueryReply& reply) { take_from_peer(self, setup, t, reply); },
                [setup](caf::error&) { setup.context.warning("a peer collector did not answer"); });
  }
  st.peers = std::move(peers);
}

// What the collector starts from: its stores, opened and read.
struct Start {
  std::optional<persistence::CollectorStore> ad_log;
  std::optional<persistence::PoolHistoryStore> history;
  std::vector<collector::KeptAd> kept;
};

collector_actor::behavior_type collector_behavior(Self self, std::shared_ptr<Start> start,
                                                  CollectorSetup setup) {
  self->state.store.emplace(setup.policy);
  const std::int64_t started = setup.clock.now(self);
  const std::size_t restored = start->kept.size();
  for (collector::KeptAd& ad : start->kept) self->state.store->restore_kept(std::move(ad), started);
  self->state.ad_log = std::move(start->ad_log);
  self->state.history = std::move(start->history);
  self->state.history_policy = setup.history;
  self->state.next_sample = started;
  if (self->state.ad_log)
    setup.context.info("absent and offline ads read from " + setup.persistent_ad_log + ": " +
                       std::to_string(restored));
  save_kept(self, setup);  // those that ran out while the collector was down
  self->state.policy = setup.policy;
  self->state.view_hosts = setup.view_hosts;
  advertise_self(self, setup);
  self->delayed_send(self, setup.expire_every, Timer{});
  self->set_down_handler([self, setup](caf::down_msg& d) { advertiser_gone(self, setup, d); });
  return {
      [self, setup](AdUpdate& u) {
        // Advertising is DAEMON work (HTCondor's ALLOW_ADVERTISE_* default).
        auto& counters = self->state.counters;
        if (setup.context.refused(self, net::Permission::Daemon, "collector") || !valid_type(u.type)) {
          counters.updates_lost += static_cast<std::int64_t>(u.ads.size());
          return;
        }
        const auto type = static_cast<collector::AdType>(u.type);
        const std::int64_t now = setup.clock.now(self);
        const caf::strong_actor_ptr sender = self->current_sender();
        for (std::size_t i = 0; i < u.ads.size(); ++i) {
          const std::string key = collector::AdStore::key_of(type, u.ads[i].ad);
          const bool known = setup.context.log && self->state.store->find(type, key);
          if (!self->state.store->update(type, u.ads[i].ad, now)) {  // no Name: ignored
            ++counters.updates_lost;
            continue;
          }
          ++counters.updates_total;
          if (setup.context.log && !known)
            setup.context.info("new " + std::string(collector::ad_type_name(type)) + " ad " + key);
          if (i < u.endpoints.size() && u.endpoints[i]) self->state.endpoints[u.type][key] = u.endpoints[i];
          note_advertiser(self, u.type, key, sender);
        }
        for (const collector_actor& view : self->state.view_hosts) self->send(view, u);
        save_kept(self, setup);  // a returning machine's absent ad goes
      },
      [self, setup](AdInvalidate& inv) {
        if (setup.context.refused(self, net::Permission::Daemon, "collector")) return;
        if (!valid_type(inv.type)) return;
        const std::int64_t now = setup.clock.now(self);
        for (const std::string& k : inv.keys)
          self->state.store->invalidate(static_cast<collector::AdType>(inv.type), k, now);
        forget_missing(self->state, inv.type, inv.keys);
        for (const collector_actor& view : self->state.view_hosts) self->send(view, inv);
        save_kept(self, setup);
      },
      [self, setup](const AdQueryRequest& q) {
        if (auto no = setup.context.refused(self, net::Permission::Read, "collector"))
          return AdQueryReply{false, *no, {}, {}};
        return run_query(self, setup, q);
      },
      [self, setup](const PoolHistoryQuery& q) {
        if (auto no = setup.context.refused(self, net::Permission::Read, "collector"))
          return AdQueryReply{false, *no, {}, {}};
        return history_query(self, q);
      },
      [self, setup](ViewHosts& v) {
        // Only the collector's own node says where its updates go.
        if (!net::from_this_node(self)) {
          setup.context.warning("collector: view hosts from another node ignored");
          return;
        }
        std::vector<collector_actor> next, fresh;
        for (const collector_actor& a : v.collectors) {
          if (!a) continue;
          next.push_back(a);
          const auto& old = self->state.view_hosts;
          if (std::find(old.begin(), old.end(), next.back()) == old.end()) fresh.push_back(next.back());
        }
        self->state.view_hosts = std::move(next);
        // A view collector reached late gets what is here now, then every
        // update as it comes.
        for (std::int32_t t = 0; t < collector::kAdTypes && !fresh.empty(); ++t) {
          AdQueryReply all = run_query(self, setup, AdQueryRequest{t, "", {}, false});
          if (all.ads.empty()) continue;
          AdUpdate u{t, std::move(all.ads), std::move(all.endpoints)};
          for (const collector_actor& view : fresh) self->send(view, u);
        }
        setup.context.info("forwarding updates to " + std::to_string(self->state.view_hosts.size()) +
                           " view collector(s)");
      },
      [self, setup](CollectorPeers& p) {
        if (!net::from_this_node(self)) {
          setup.context.warning("collector: peer collectors from another node ignored");
          return;
        }
        take_peers(self, setup, std::move(p.collectors));
      },
      [self, setup](Reconfigure&) {
        auto config = setup.context.reconfiguration(self);
        if (!config) return CommandReply{false, config.error()};
        auto policy = collector::CollectorPolicy::from_config(**config);
        if (!policy) return CommandReply{false, policy.error()};
        auto history = collector::PoolHistoryPolicy::from_config(**config);
        if (!history) return CommandReply{false, history.error()};
        auto& st = self->state;
        // The sampling and the bound follow; starting or stopping the
        // history, or moving it, takes a restart (as HTCondor's view
        // server's files do).
        if (history->keep != st.history_policy.keep || history->dir != st.history_policy.dir)
          setup.context.warning("KEEP_POOL_HISTORY and POOL_HISTORY_DIR change at the next restart");
        if (st.history) st.history->set_max_bytes(history->max_storage);
        history->keep = st.history_policy.keep;
        history->dir = st.history_policy.dir;
        st.history_policy = std::move(*history);
        if (policy->name != st.policy.name) {  // its ad goes by its new name
          st.store->invalidate(collector::AdType::Collector, st.policy.name, setup.clock.now(self));
          st.endpoints[static_cast<int>(collector::AdType::Collector)].erase(st.policy.name);
          const AdInvalidate inv{static_cast<std::int32_t>(collector::AdType::Collector), {st.policy.name}};
          for (const collector_actor& view : st.view_hosts) self->send(view, inv);
        }
        st.policy = *policy;
        st.store->set_policy(std::move(*policy));
        advertise_self(self, setup);
        setup.context.info("reconfigured");
        return CommandReply{true, {}};
      },
      [self, setup](Timer) {
        if (!net::from_this_node(self)) return;  // its own clock only
        if (setup.clock.now(self) >= self->state.next_own_ad) advertise_self(self, setup);
        const auto gone = self->state.store->expire(setup.clock.now(self));
        if (!gone.empty()) setup.context.info("expired " + std::to_string(gone.size()) + " ads");
        for (int t = 0; t < collector::kAdTypes; ++t) forget_missing(self->state, t, gone);
        save_kept(self, setup);
        sample_if_due(self, setup);
        self->delayed_send(self, setup.expire_every, Timer{});
      },
  };
}

}  // namespace

Result<collector_actor> spawn_collector(caf::actor_system& sys, CollectorSetup setup) {
  auto start = std::make_shared<Start>();
  if (!setup.persistent_ad_log.empty()) {
    auto store = persistence::CollectorStore::open(setup.persistent_ad_log);
    if (!store) return Error{store.error()};
    auto kept = store->load();
    if (!kept) return Error{kept.error()};
    start->kept = std::move(*kept);
    start->ad_log = std::move(*store);
  }
  if (setup.history.keep) {
    auto store = persistence::PoolHistoryStore::open(setup.history.dir, setup.history.max_storage);
    if (!store) return Error{store.error()};
    start->history = std::move(*store);
  }
  return sys.spawn(collector_behavior, std::move(start), std::move(setup));
}

}  // namespace cara::actors
