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
  collector::CollectorPolicy policy;        // the store's, for its own ad
  collector::CollectorCounters counters;
  std::int64_t next_own_ad = 0;  // when its own ad is refreshed next
  static inline const char* name = "collector";
};

using Self = collector_actor::stateful_pointer<CollectorState>;

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

collector_actor::behavior_type collector_behavior(Self self, CollectorSetup setup) {
  self->state.store.emplace(setup.policy);
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
      },
      [self, setup](AdInvalidate& inv) {
        if (setup.context.refused(self, net::Permission::Daemon, "collector")) return;
        if (!valid_type(inv.type)) return;
        const std::int64_t now = setup.clock.now(self);
        for (const std::string& k : inv.keys)
          self->state.store->invalidate(static_cast<collector::AdType>(inv.type), k, now);
        forget_missing(self->state, inv.type, inv.keys);
        for (const collector_actor& view : self->state.view_hosts) self->send(view, inv);
      },
      [self, setup](const AdQueryRequest& q) {
        if (auto no = setup.context.refused(self, net::Permission::Read, "collector"))
          return AdQueryReply{false, *no, {}, {}};
        return run_query(self, setup, q);
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
      [self, setup](Reconfigure&) {
        auto config = setup.context.reconfiguration(self);
        if (!config) return CommandReply{false, config.error()};
        auto policy = collector::CollectorPolicy::from_config(**config);
        if (!policy) return CommandReply{false, policy.error()};
        auto& st = self->state;
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
        self->delayed_send(self, setup.expire_every, Timer{});
      },
  };
}

}  // namespace

collector_actor spawn_collector(caf::actor_system& sys, CollectorSetup setup) {
  return sys.spawn(collector_behavior, std::move(setup));
}

}  // namespace cara::actors
