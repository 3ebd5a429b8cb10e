#include "actors/had.h"

#include <caf/actor_system.hpp>
#include <caf/typed_event_based_actor.hpp>
#include <chrono>
#include <optional>

#include "model/ha/election.h"
#include "net/guard.h"

namespace cara::actors {
namespace {

enum TimerKind : std::int32_t { kHeartbeatTimer = 1 };

struct HadState {
  std::optional<ha::Election> election;
  std::vector<had_actor> peers;                    // by HAD_LIST index; null: not reached
  std::vector<negotiator_actor> peer_negotiators;  // by index, from their heartbeats
  std::vector<collector_actor> peer_collectors;    // by index, from their heartbeats
  collector_actor told_collector;                  // this node's, last told of its peers
  negotiator_actor negotiator;                     // this node's, once it has told its version
  std::vector<negotiator_actor> standbys;          // told to the negotiator with its active role
  std::int64_t since = 0;
  static inline const char* name = "had";
};

using Self = had_actor::stateful_pointer<HadState>;

std::int64_t now_ms(Self self) {
  using namespace std::chrono;
  return duration_cast<milliseconds>(self->clock().now().time_since_epoch()).count();
}

std::string member_name(const HadSetup& setup, std::size_t i) {
  return setup.config.members[i].text() + " (member " + std::to_string(i + 1) + " of HAD_LIST)";
}

std::vector<collector_actor> peer_collectors(const HadState& st) {
  std::vector<collector_actor> peers;
  for (const collector_actor& c : st.peer_collectors)
    if (c) peers.push_back(c);
  return peers;
}

// The node's collector hears of its peers (CollectorPeers).
void tell_collector(Self self, const HadSetup& setup, std::vector<collector_actor> peers) {
  if (auto own = setup.link->collector()) {
    self->state.told_collector = own;
    self->send(own, CollectorPeers{std::move(peers)});
  }
}

void beat(Self self, const HadSetup& setup) {
  auto& st = self->state;
  // The node's collector restarted: the new one hears of its peers.
  if (setup.link->collector() != st.told_collector) tell_collector(self, setup, peer_collectors(st));
  const ha::MemberView v = st.election->view();
  HadHeartbeat hb{static_cast<std::int32_t>(setup.self),
                  v.term,
                  v.active,
                  v.version.term,
                  v.version.seq,
                  v.sees_active_term,
                  st.negotiator,
                  setup.link->collector()};
  for (const had_actor& p : st.peers)
    if (p) self->send(p, hb);
}

// The negotiators of the reachable standbys, that the active one
// replicates its accountant to.
std::vector<negotiator_actor> reachable_standbys(Self self) {
  auto& st = self->state;
  std::vector<negotiator_actor> out;
  for (std::size_t i : st.election->reachable_peers(now_ms(self)))
    if (st.peer_negotiators[i]) out.push_back(st.peer_negotiators[i]);
  return out;
}

void decide(Self self, const HadSetup& setup) {
  auto& st = self->state;
  if (!st.negotiator) return;  // its version is not known yet
  const std::int64_t saw = st.election->view().sees_active_term;
  const ha::RoleChange change = st.election->decide(now_ms(self));
  if (change.kind == ha::RoleChange::None) {
    // The others hear at once that this one no longer hears an active one
    // (or hears a new one): they may be waiting on it.
    if (st.election->view().sees_active_term != saw) beat(self, setup);
    // An active negotiator follows the standbys as they come and go.
    if (!st.election->active()) return;
    auto standbys = reachable_standbys(self);
    if (standbys == st.standbys) return;
    st.standbys = standbys;
    self->send(st.negotiator, NegotiatorRole{true, st.election->active_term(), {}, std::move(standbys), {}});
    return;
  }
  st.since = setup.clock.now(self);
  if (change.kind == ha::RoleChange::StepDown) {
    setup.context.info("standing by in term " + std::to_string(change.term) + ": " + change.reason);
    st.standbys.clear();
    self->send(st.negotiator, NegotiatorRole{false, change.term, {}, {}, change.reason});
  } else {
    negotiator_actor from;
    std::string catching_up;
    if (change.catch_up_from) {
      from = st.peer_negotiators[*change.catch_up_from];
      catching_up = ", taking the newer accountant of " + member_name(setup, *change.catch_up_from);
    }
    setup.context.info("active in term " + std::to_string(change.term) + ": " + change.reason + catching_up);
    st.standbys = reachable_standbys(self);
    self->send(st.negotiator, NegotiatorRole{true, change.term, from, st.standbys, change.reason});
  }
  beat(self, setup);  // the others hear of the change at once
}

// The reachable central managers' collectors changed (one found, one lost,
// one restarted as another actor): the node's collector takes what a new
// one holds, and the node's daemons report to all of them (issue 22: the
// collectors agree on what they hold).
void peer_collectors_changed(Self self, const HadSetup& setup) {
  auto& st = self->state;
  std::vector<collector_actor> peers = peer_collectors(st);
  tell_collector(self, setup, peers);
  setup.link->peer_collectors_changed(std::move(peers));
}

void take_peer(Self self, std::size_t member, const had_actor& h) {
  auto& st = self->state;
  if (member >= st.peers.size() || !h || st.peers[member] == h) return;
  st.peers[member] = h;
  self->monitor(h);
}

had_actor::behavior_type had_behavior(Self self, HadSetup setup) {
  auto& st = self->state;
  const std::size_t n = setup.config.members.size();
  st.election.emplace(n, setup.self, setup.config.use_primary, setup.config.connection_timeout_ms,
                      now_ms(self), setup.config.startup_listen_ms());
  st.peers.resize(n);
  st.peer_negotiators.resize(n);
  st.peer_collectors.resize(n);
  st.since = setup.clock.now(self);
  setup.link->set_had(handle_of(self));
  // A negotiator already running (the had restarted) stands by until this
  // had decides; its answer (AccountantVersion) says where it is.
  if (auto n = setup.link->negotiator())
    self->send(n, NegotiatorRole{false, 0, {}, {}, "the had (re)started"});
  self->set_down_handler([self, setup](caf::down_msg& d) {
    auto& st = self->state;
    if (d.source == st.negotiator) {
      st.negotiator = nullptr;  // its node's master restarts it; it tells its version again
      return;
    }
    for (std::size_t i = 0; i < st.peers.size(); ++i)
      if (st.peers[i] && d.source == st.peers[i]) {
        setup.context.info(member_name(setup, i) + " is unreachable: its link went down");
        st.peers[i] = nullptr;
        st.peer_negotiators[i] = nullptr;
        if (st.peer_collectors[i]) {
          st.peer_collectors[i] = nullptr;
          peer_collectors_changed(self, setup);
        }
        st.election->lost(i);
      }
    decide(self, setup);
  });
  self->send(self, Timer{kHeartbeatTimer});
  setup.context.info("member " + std::to_string(setup.self + 1) + " of HAD_LIST (" + std::to_string(n) +
                     " central managers" + (setup.config.use_primary ? ", HAD_USE_PRIMARY" : "") + ")");
  return {
      [self, setup](Timer t) {
        if (t.what != kHeartbeatTimer || !net::from_this_node(self)) return;
        // The negotiator and the had start side by side: one that came up
        // after the other looked for it is found here (its answer,
        // AccountantVersion, says where it is).
        if (!self->state.negotiator)
          if (auto n = setup.link->negotiator())
            self->send(n, NegotiatorRole{false, 0, {}, {}, "its had started"});
        beat(self, setup);
        decide(self, setup);
        self->delayed_send(self, std::chrono::milliseconds(setup.config.heartbeat_ms()),
                           Timer{kHeartbeatTimer});
      },
      [self, setup](HadHeartbeat& hb) {
        if (setup.context.refused(self, net::Permission::Daemon, "had")) return;
        auto& st = self->state;
        if (hb.member < 0 || static_cast<std::size_t>(hb.member) >= st.peers.size() ||
            static_cast<std::size_t>(hb.member) == setup.self)
          return;
        const auto i = static_cast<std::size_t>(hb.member);
        // A had that reached this one is a peer, whether or not this
        // node has reached it yet.
        take_peer(self, i, caf::actor_cast<had_actor>(self->current_sender()));
        const bool was_reachable = st.election->reachable(i, now_ms(self));
        st.peer_negotiators[i] = hb.negotiator;
        if (hb.collector != st.peer_collectors[i]) {
          st.peer_collectors[i] = hb.collector;
          peer_collectors_changed(self, setup);
        }
        st.election->heard(
            i, ha::MemberView{hb.term, hb.active, {hb.version_term, hb.version_seq}, hb.sees_active_term},
            now_ms(self));
        if (!was_reachable) setup.context.info(member_name(setup, i) + " is reachable");
        decide(self, setup);
      },
      [self, setup](HadPeers& p) {
        if (!net::from_this_node(self)) return;
        for (std::size_t k = 0; k < p.members.size() && k < p.hads.size(); ++k)
          if (p.members[k] >= 0) take_peer(self, static_cast<std::size_t>(p.members[k]), p.hads[k]);
        beat(self, setup);
      },
      [self, setup](AccountantVersion& v) {
        if (!net::from_this_node(self)) return;
        auto& st = self->state;
        st.election->set_version(ha::StateVersion{v.term, v.seq});
        auto sender = caf::actor_cast<negotiator_actor>(self->current_sender());
        if (sender && sender != st.negotiator) {
          // A negotiator (re)started: it hears its role at once.
          st.negotiator = sender;
          self->monitor(sender);
          if (st.election->active()) {
            st.standbys = reachable_standbys(self);
            self->send(sender, NegotiatorRole{
                                   true, st.election->active_term(), {}, st.standbys, "its had is active"});
          } else {
            decide(self, setup);
          }
        }
      },
      [self, setup](HadStatusQuery&) {
        auto& st = self->state;
        HadStatus s;
        s.member = static_cast<std::int32_t>(setup.self);
        s.active = st.election->active();
        s.term = st.election->active() ? st.election->active_term() : st.election->term();
        s.since = st.since;
        for (std::size_t i : st.election->reachable_peers(now_ms(self)))
          s.reachable.push_back(static_cast<std::int32_t>(i));
        return s;
      },
      [self, setup](Reconfigure&) {
        // HAD_LIST and its knobs take a restart of the node: the group's
        // membership cannot change under a running election.
        return CommandReply{true, {}};
      },
  };
}

}  // namespace

Result<HadSetup> had_setup(const config::Config& config, std::shared_ptr<HaLink> link) {
  auto ha = ha::HadConfig::from_config(config);
  if (!ha) return Error{ha.error()};
  if (!*ha) return Error{ha::kEmptyHadList};
  auto self = (*ha)->self_index(link->names(), link->port());
  if (!self) {
    std::string names;
    for (const std::string& n : link->names()) names += (names.empty() ? "" : ", ") + n;
    return Error{"HAD_LIST does not name this node (" + names +
                 (link->port() ? ", port " + std::to_string(link->port()) : std::string()) +
                 "): each central manager is in the list, as host:port"};
  }
  HadSetup setup;
  setup.config = std::move(**ha);
  setup.self = *self;
  setup.link = std::move(link);
  return setup;
}

had_actor spawn_had(caf::actor_system& sys, HadSetup setup) {
  return sys.spawn(had_behavior, std::move(setup));
}

}  // namespace cara::actors
