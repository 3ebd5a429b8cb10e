// The negotiator's accountant on disk and at the standbys, and its role
// under high availability (negotiator_state.h; DESIGN.md "High
// availability"): each commit the next of its term, replicated before what
// follows from it goes out; a standby storing what the active one sends;
// the had's word (NegotiatorRole) turned into standing by or becoming
// active, first taking a newer accountant from a peer.
#include <algorithm>
#include <caf/actor_system.hpp>

#include "actors/negotiator_state.h"
#include "model/negotiation/negotiator_ads.h"

namespace cara::actors::negotiator_parts {

bool save(Self self, const NegotiatorSetup& setup) {
  auto& st = self->state;
  if (setup.ha) st.version = ha::StateVersion{st.term, st.version.seq + 1};
  if (st.store) {
    if (Status s = st.store->commit(st.accountant->state(), st.version); !s) {
      setup.context.warning("stopping: the accountant cannot be stored: " + s.error());
      self->quit(caf::make_error(caf::sec::runtime_error, "the accountant cannot be stored: " + s.error()));
      return false;
    }
  }
  if (setup.ha && st.replicate)
    st.committed = persistence::encode_snapshot(st.accountant->state(), st.version);
  if (setup.ha)
    if (auto had = setup.ha->had()) self->send(had, AccountantVersion{st.version.term, st.version.seq});
  return true;
}

namespace {

// The last commit to `standby`; `answered` hears what became of it (empty:
// stored).
template <class F>
void replicate_to(Self self, const NegotiatorSetup& setup, const negotiator_actor& standby, F answered) {
  auto& st = self->state;
  self->request(standby, setup.request_timeout, ReplicaBatch{st.version.term, st.version.seq, st.committed})
      .then([answered](CommandReply& r) { answered(r.ok ? "" : "a standby refused: " + r.error); },
            [self, answered](caf::error& e) {
              answered("a standby did not answer: " + self->system().render(e));
            });
}

// `standby` did not store the last commit (`problem`): it is sent again
// within a second (retry_replication). `warn`: say so (once, not every
// second).
void missed(Self self, const NegotiatorSetup& setup, const negotiator_actor& standby, bool appeared,
            const std::string& problem, bool warn) {
  auto& st = self->state;
  if (warn) setup.context.warning("replication: " + problem + "; sent again every second");
  for (const NegotiatorState::Behind& b : st.behind)
    if (b.standby == standby) return;
  st.behind.push_back({standby, appeared});
  if (st.behind.size() == 1) self->delayed_send(self, std::chrono::seconds(1), Timer{kReplicaTimer});
}

// The last commit to `standby`, until it holds it. `appeared`: sent
// because it joined the standbys; `first`: not a retry.
void bring_up_to_date(Self self, const NegotiatorSetup& setup, const negotiator_actor& standby, bool appeared,
                      bool first) {
  auto& st = self->state;
  const std::string v = std::to_string(st.version.term) + "." + std::to_string(st.version.seq);
  replicate_to(self, setup, standby, [self, setup, standby, appeared, first, v](const std::string& problem) {
    if (!problem.empty()) return missed(self, setup, standby, appeared, problem, first);
    if (appeared)
      setup.context.info("a standby that appeared holds the last commit (" + v + ")");
    else if (!first)
      setup.context.info("a standby that missed a commit holds the last one (" + v + ")");
  });
}

}  // namespace

void retry_replication(Self self, const NegotiatorSetup& setup) {
  auto& st = self->state;
  std::vector<NegotiatorState::Behind> behind = std::move(st.behind);
  st.behind.clear();
  if (!st.active || !st.replicate || st.committed.empty()) return;
  for (const NegotiatorState::Behind& b : behind)
    if (std::find(st.standbys.begin(), st.standbys.end(), b.standby) != st.standbys.end())
      bring_up_to_date(self, setup, b.standby, b.appeared, false);
}

bool save_then(Self self, const NegotiatorSetup& setup, std::function<void()> then) {
  auto& st = self->state;
  if (!save(self, setup)) return false;
  if (!st.active || !st.replicate || st.standbys.empty()) {
    then();
    return true;
  }
  struct Waiting {
    std::size_t left;
    std::function<void()> then;
  };
  auto w = std::make_shared<Waiting>(Waiting{st.standbys.size(), st.sync_replication ? then : nullptr});
  for (const negotiator_actor& standby : st.standbys)
    replicate_to(self, setup, standby, [self, setup, w, standby](const std::string& problem) {
      // A standby that missed it gets it again (the commit may be the
      // last before this one dies).
      if (!problem.empty()) missed(self, setup, standby, false, problem, true);
      if (--w->left == 0 && w->then) w->then();
    });
  if (!st.sync_replication) then();
  return true;
}

Status take_replica(Self self, const NegotiatorSetup& setup, const ReplicaBatch& b, const std::string& from) {
  auto& st = self->state;
  if (ha::StateVersion{b.term, b.seq} <= st.version) return Ok{};
  auto snap = persistence::decode_snapshot(b.snapshot, from);
  if (!snap) return Error{snap.error()};
  auto restored = accounting::Accountant::restore(st.accountant->config(), std::move(snap->first));
  if (!restored) return Error{from + ": " + restored.error()};
  st.accountant.emplace(std::move(*restored));
  st.version = snap->second;
  if (st.store)
    if (Status s = st.store->commit(st.accountant->state(), st.version); !s) {
      setup.context.warning("stopping: the accountant cannot be stored: " + s.error());
      self->quit(caf::make_error(caf::sec::runtime_error, "the accountant cannot be stored: " + s.error()));
      return Error{"the accountant cannot be stored: " + s.error()};
    }
  if (auto had = setup.ha->had()) self->send(had, AccountantVersion{st.version.term, st.version.seq});
  return Ok{};
}

namespace {

// Active in `term`: the term's first commit goes to disk before any match
// of it, the ad says so, and a cycle starts at once (schedds waited).
void become_active(Self self, const NegotiatorSetup& setup, std::int64_t term) {
  auto& st = self->state;
  st.active = true;
  st.term = term;
  st.active_since = setup.clock.now(self);
  if (!save_then(self, setup, [] {})) return;
  setup.context.info("active in term " + std::to_string(term) + " (accountant " +
                     std::to_string(st.version.term) + "." + std::to_string(st.version.seq) + ")");
  publish(self, setup);
  st.times.requested = true;
  st.timer_at.reset();
  if (!st.running) schedule(self, setup, setup.clock.now(self));
}

void stand_by(Self self, const NegotiatorSetup& setup, std::int64_t term, const std::string& reason) {
  auto& st = self->state;
  st.term = std::max(st.term, term);
  st.standbys.clear();
  if (!st.active) return;
  st.active = false;
  setup.context.info("standing by in term " + std::to_string(term) + ": " + reason);
  // The pool's negotiator is another now: this one's ad goes.
  AdInvalidate inv{static_cast<std::int32_t>(collector::AdType::Negotiator),
                   {negotiation::negotiator_name(*setup.config)}};
  for (const collector_actor& c : st.collectors) self->send(c, inv);
}

}  // namespace

void take_role(Self self, const NegotiatorSetup& setup, NegotiatorRole& r) {
  auto& st = self->state;
  st.wanted_term = r.active ? r.term : -1;
  if (!r.active) return stand_by(self, setup, r.term, r.reason);
  std::vector<negotiator_actor> before = std::move(st.standbys);
  st.standbys = std::move(r.standbys);
  if (st.active && r.term == st.term) {
    // The standbys changed: one that appeared gets the last commit now,
    // not with the next one (it may be the next active).
    if (st.replicate && !st.committed.empty())
      for (const negotiator_actor& standby : st.standbys)
        if (std::find(before.begin(), before.end(), standby) == before.end())
          bring_up_to_date(self, setup, standby, true, true);
    return;
  }
  if (!r.catch_up) return become_active(self, setup, r.term);
  // A reachable central manager holds a newer accountant: taken first.
  const std::int64_t term = r.term;
  self->request(r.catch_up, setup.request_timeout, ReplicaFetch{})
      .then(
          [self, setup, term](ReplicaBatch& b) {
            if (self->state.wanted_term != term) return;  // its had changed its mind meanwhile
            if (Status s = take_replica(self, setup, b, "the newer central manager"); !s)
              setup.context.warning("catching up: " + s.error());
            become_active(self, setup, term);
          },
          [self, setup, term](caf::error& e) {
            if (self->state.wanted_term != term) return;
            setup.context.warning("catching up: the newer central manager did not answer (" +
                                  self->system().render(e) + "): active with the accountant held here");
            become_active(self, setup, term);
          });
}

}  // namespace cara::actors::negotiator_parts
