#include "actors/schedd.h"

#include <caf/actor_system.hpp>

#include "actors/collectors_update.h"
#include "actors/negotiator_lookup.h"
#include "actors/schedd_state.h"
#include "actors/system_accounts.h"
#include "model/claim/claim_id.h"
#include "model/collector/ad_store.h"
#include "model/schedd/schedd_settings.h"

namespace cara::actors {
namespace {

using Self = ScheddSelf;

// A cycle asked of each of the pool's negotiators (several when the pool
// is sharded among them).
void ask_for_cycle(Self self, const std::vector<negotiator_actor>& to) {
  if (to.empty() || !has_idle(self)) return;
  for (const negotiator_actor& n : to) self->send(n, Reschedule{self->state.schedd_name});
}

// The negotiators of the newest term in `found` join those known: a newer
// term replaces them (a failover), the same term adds shards not known
// yet. Those new here are asked for a cycle when `reschedule` is set.
void learn_negotiators(Self self, const std::vector<NewestNegotiator>& found, bool reschedule) {
  auto& st = self->state;
  if (found.empty() || found.front().term < st.negotiator_term) return;
  if (found.front().term > st.negotiator_term) {
    for (const negotiator_actor& n : st.negotiators) self->demonitor(n.address());
    st.negotiators.clear();
    st.negotiator_term = found.front().term;
  }
  std::vector<negotiator_actor> fresh;
  for (const NewestNegotiator& n : found) {
    if (std::find(st.negotiators.begin(), st.negotiators.end(), n.negotiator) != st.negotiators.end())
      continue;
    st.negotiators.push_back(n.negotiator);
    self->monitor(n.negotiator);  // when it goes, the next one is looked up
    fresh.push_back(n.negotiator);
  }
  if (reschedule && !fresh.empty()) {
    ask_for_cycle(self, fresh);
    st.reschedule = false;
  }
}

// The pool's negotiators, from every collector at once (a central manager
// that is down must not hold the question up): the ads of the newest term
// win, also when they come later than others. A reschedule that waited for
// them goes out as soon as they are found (after a failover, not a tick
// later); one to negotiators known already went out before the lookup.
void find_negotiators(Self self, const ScheddSetup& setup, bool reschedule) {
  auto& st = self->state;
  if (setup.negotiator) return;  // given: the in-process pool has one
  for (const collector_actor& c : st.collectors)
    self->request(c, std::chrono::seconds(5),
                  AdQueryRequest{static_cast<std::int32_t>(collector::AdType::Negotiator), "", {}, false})
        .then([self,
               reschedule](AdQueryReply& r) { learn_negotiators(self, newest_negotiators(r), reschedule); },
              [](caf::error&) {});
}

// A remote client is the user its certificate proves, whatever its
// request says (a local one was checked by its front end, which asked the
// kernel): the user part of it, as Owner has it.
std::optional<std::string> remote_user(Self self, const ScheddSetup& setup) {
  if (!setup.context.guard) return std::nullopt;
  auto sender = self->current_sender();
  if (!sender || sender->node() == self->system().node()) return std::nullopt;
  auto who = setup.context.guard->identity(sender->node());
  if (!who) return std::nullopt;
  return who->user.substr(0, who->user.find('@'));
}

void on_tick(Self self, const ScheddSetup& setup) {
  auto& st = self->state;
  const std::int64_t now = setup.clock.now(self);
  if (now - st.last_periodic >= st.periodic_interval) {
    st.last_periodic = now;
    if (st.queue->evaluate_periodic(now) > 0) {
      changed(self);
      carry_out(self, st.claims->stop_unwanted());  // held or removed by the policy: off their slots
    }
  }
  // What the ads and the negotiator are told is stored first.
  if (!commit(self)) return;
  if (st.dirty || now - st.last_advertise >= st.update_interval) {
    advertise(self);
    st.last_advertise = now;
  }
  if (st.reschedule) {
    // Those known are asked at once; the lookup finds shards that came
    // since and asks them too. With none known yet, the request waits for
    // a later tick (or the lookup's answer) rather than being dropped.
    const bool known = !st.negotiators.empty();
    ask_for_cycle(self, st.negotiators);
    find_negotiators(self, setup, !known);
    if (known) st.reschedule = false;
  }
}

// Whether the queue holds jobs of a submitter no ad of this schedd has
// named yet.
bool new_submitter(Self self) {
  const auto& st = self->state;
  for (const auto& [name, jobs] : st.queue->submitter_jobs())
    if (st.submitters.count(name) == 0) return true;
  return false;
}

persistence::HistoryLimits history_limits(const schedd::ScheddSettings& settings) {
  return {settings.history_max_bytes, settings.history_max_jobs};
}

void read_settings(ScheddState& st, const schedd::ScheddSettings& settings) {
  if (st.store) st.store->set_limits(history_limits(settings));
  st.uid_domain = settings.uid_domain;
  st.claim_leftovers = settings.claim_leftovers;
  st.update_interval = settings.update_interval;
  st.periodic_interval = settings.periodic_interval;
  st.super_users = settings.super_users;
}

// condor_reconfig: submit requirements, transforms, periodic expressions
// and the schedd's own ad follow the new configuration from the next
// submission or evaluation on; the queued jobs stay as they are. Nothing
// changes when the new policy does not parse.
CommandReply reconfigure(Self self, std::shared_ptr<const config::Config> config) {
  auto& st = self->state;
  auto policy = schedd::QueuePolicy::from_config(*config, st.schedd_name);
  if (!policy) return CommandReply{false, policy.error()};
  auto settings = schedd::ScheddSettings::from_config(*config);
  if (!settings) return CommandReply{false, settings.error()};
  st.queue->set_policy(std::move(*policy));
  st.config = std::move(config);  // after the policy that points into it
  read_settings(st, *settings);
  advertise(self);
  return CommandReply{true, {}};
}

// What the schedd starts from: its settings, its queue (read back from
// its store, when it has one) and the store.
struct Start {
  schedd::ScheddSettings settings;
  std::optional<schedd::JobQueue> queue;
  std::optional<persistence::QueueStore> store;
};

schedd_actor::behavior_type schedd_behavior(Self self, std::shared_ptr<Start> start, ScheddSetup setup) {
  auto& st = self->state;
  const schedd::ScheddSettings& settings = start->settings;
  st.setup = std::make_shared<const ScheddSetup>(setup);
  st.schedd_name = settings.name;  // a new name takes a restart, as in HTCondor
  st.config = setup.config;
  st.store = std::move(start->store);
  read_settings(st, settings);
  st.queue.emplace(std::move(*start->queue));
  start_commits(self);
  if (st.store) {
    setup.context.info("queue read from " + settings.queue_store + ": " + std::to_string(st.queue->size()) +
                       " jobs, next cluster " + std::to_string(st.queue->next_cluster_id()));
    changed(self);  // jobs that lost their run are stored as idle
  }
  if (setup.negotiator) {
    st.negotiators = {setup.negotiator};
    st.negotiator_term = 0;
  }
  st.collectors = setup.collectors;
  st.accounts = setup.accounts ? setup.accounts : std::make_shared<const SystemAccounts>();
  st.last_periodic = setup.clock.now(self);
  st.claims.emplace(*st.queue);
  // Jobs stored with a claim: the slots are asked for them once the
  // queue as read back is stored.
  if (st.store) carry_out(self, st.claims->restored(setup.clock.now(self)));
  self->set_down_handler([self, setup](caf::down_msg& d) {
    auto& st = self->state;
    auto gone = std::find_if(st.negotiators.begin(), st.negotiators.end(),
                             [&](const negotiator_actor& n) { return d.source == n; });
    if (gone != st.negotiators.end()) {
      st.negotiators.erase(gone);
      // Another central manager's takes over: asked again at the next tick.
      if (st.negotiators.empty()) st.negotiator_term = -1;
      st.reschedule = true;
      return;
    }
    // A slot we hold a claim on is gone (its node died): its job runs again.
    if (d.source && d.source.node() != self->system().node()) st.direct.erase(d.source.node());
    const claim::SlotRef slot = st.slots.find(d.source);
    if (slot == 0) return;
    claim::Outcome out = st.claims->slot_lost(slot, caf::to_string(d.reason), setup.clock.now(self));
    st.slots.forget(slot);
    carry_out(self, std::move(out));
  });
  // The first tick at once: the queue as read back is stored and the
  // schedd advertised before anything else, so that tools that find it by
  // name in the collector (`cara q -name`) see a restarted schedd at once,
  // not a tick later (issue 21, "Recovery": serving again).
  self->send(self, Timer{});
  return {
      [self, setup](SubmitRequest& r) -> caf::result<SubmitReply> {
        if (auto no = setup.context.refused(self, net::Permission::Write, "schedd"))
          return SubmitReply{false, *no, 0, 0, ""};
        if (auto who = remote_user(self, setup)) r.owner = *who;
        // Never root's jobs, whoever asks for them (the local front end
        // refuses uid 0 too; a certificate may name root).
        if (r.owner == "root")
          return SubmitReply{false, "submitting jobs as root is not allowed, for security reasons", 0, 0, "",
                             false};
        auto reply = submit(self, setup, r);
        if (!reply.ok) {
          setup.context.warning("submission by " + r.owner + " refused: " + reply.error);
          return reply;
        }
        // Acknowledged once stored, with the submits that share the commit.
        auto rp = self->make_response_promise<SubmitReply>();
        after_commit(self, [self, rp, reply, owner = r.owner]() mutable {
          self->state.setup->context.info("cluster " + std::to_string(reply.cluster) + ": " +
                                          std::to_string(reply.count) + " jobs submitted by " + owner);
          rp.deliver(std::move(reply));
          // A submitter the collector does not know yet is advertised now,
          // not at the next tick, as HTCondor's schedd updates the
          // collector when condor_submit asks it to reschedule: a cycle
          // between the two would leave the new submitter out and give its
          // share to those it knows. (The cycle it asks for waits for the
          // tick, as before.)
          if (new_submitter(self)) {
            advertise(self);
            self->state.last_advertise = self->state.setup->clock.now(self);
          }
        });
        return rp;
      },
      [self, setup](RequestsQuery& q) {
        if (setup.context.refused(self, net::Permission::Negotiator, "schedd")) return RequestsReply{};
        if (!commit(self)) return RequestsReply{};  // only stored jobs are offered
        return requests_for(self, q, setup);
      },
      [self, setup](QueueQuery& q) {
        if (auto no = setup.context.refused(self, net::Permission::Read, "schedd"))
          return QueueReply{false, *no, {}, {}};
        if (!commit(self))
          return QueueReply{false, "the schedd is stopping: its queue cannot be stored", {}, {}};
        return query(self, q, setup.clock.now(self));
      },
      [self, setup](JobActionRequest& r) -> caf::result<JobActionReply> {
        if (auto no = setup.context.refused(self, net::Permission::Write, "schedd"))
          return JobActionReply{false, *no, {}, {}};
        if (auto who = remote_user(self, setup)) r.user = *who;
        JobActionReply reply = act_on_jobs(self, r, setup.clock.now(self));
        if (!reply.ok || reply.done.empty()) return reply;
        setup.context.info(r.user + ": " + r.action + " of " + std::to_string(reply.done.size()) + " jobs (" +
                           r.constraint + ")");
        // Acknowledged once stored.
        auto rp = self->make_response_promise<JobActionReply>();
        after_commit(self, [rp, reply]() mutable { rp.deliver(std::move(reply)); });
        return rp;
      },
      [self, setup](HistoryQuery& q) {
        if (auto no = setup.context.refused(self, net::Permission::Read, "schedd"))
          return QueueReply{false, *no, {}, {}};
        if (!commit(self))
          return QueueReply{false, "the schedd is stopping: its queue cannot be stored", {}, {}};
        return history(self, q, setup.clock.now(self));
      },
      [self, setup](MatchBatch& b) {
        if (setup.context.refused(self, net::Permission::Negotiator, "schedd")) return;
        auto& st = self->state;
        const std::int64_t newest = st.terms.newest();
        if (!st.terms.admit(b.term))
          return setup.context.warning("matches of term " + std::to_string(b.term) + " refused: term " +
                                       std::to_string(newest) + " was seen");
        // The negotiator of a newer term is the pool's now.
        if (b.term > newest)
          if (auto n = caf::actor_cast<negotiator_actor>(self->current_sender()))
            learn_negotiators(self, {NewestNegotiator{n, b.term}}, false);
        for (MatchInfo& m : b.matches) {
          // Claim ids come from another node: checked once, on the way in.
          if (Status ok = claim::check_claim_id(m.claim_id); !ok) {
            setup.context.warning("a match refused: " + ok.error());
            continue;
          }
          claim_match(self, std::move(m), setup);
        }
      },
      [self, setup](JobFinished& f) -> caf::result<CommandReply> {
        const claim::JobEnd end{f.by_signal, f.code, std::move(f.error), f.evicted, f.hold_code, f.job_id};
        carry_out(self, self->state.claims->job_ended(f.claim_id, end, setup.clock.now(self)));
        // The slot keeps the job's end until it is stored (a crash before
        // then hears of it again when the schedd reconnects).
        auto rp = self->make_response_promise<CommandReply>();
        after_commit(self, [rp]() mutable { rp.deliver(CommandReply{true, {}}); });
        return rp;
      },
      [self, setup](ClaimEnded& e) {
        carry_out(self, self->state.claims->ended(e.claim_id, e.reason, setup.clock.now(self)));
      },
      [self, setup](JobSuspension& s) {
        carry_out(self, self->state.claims->suspended(s.claim_id, s.suspended, setup.clock.now(self)));
      },
      [self, setup](Reconfigure&) {
        auto config = setup.context.reconfiguration(self);
        if (!config) return CommandReply{false, config.error()};
        CommandReply r = reconfigure(self, std::move(*config));
        if (r.ok) setup.context.info("reconfigured");
        return r;
      },
      [self, setup](Collectors& c) {
        auto& st = self->state;
        if (!take_collectors(self, c, st.collectors)) return;
        if (!setup.negotiator) {  // found again through the new collectors, at once
          for (const negotiator_actor& n : st.negotiators) self->demonitor(n.address());
          st.negotiators.clear();
          st.negotiator_term = -1;
          st.reschedule = true;
          find_negotiators(self, setup, true);
        }
        st.dirty = true;  // advertise at the next tick
      },
      [self, setup](Timer t) {
        if (!net::from_this_node(self)) return;  // its own clock only
        if (t.what == kCommitTimer) {
          self->state.commit_scheduled = false;
          commit(self);
          return;
        }
        if (t.what == kReconnectTimer) return reconnect_again(self);
        on_tick(self, setup);
        self->delayed_send(self, setup.tick_every, Timer{});
      },
  };
}

}  // namespace

Result<schedd_actor> spawn_schedd(caf::actor_system& sys, ScheddSetup setup) {
  auto start = std::make_shared<Start>();
  auto settings = schedd::ScheddSettings::from_config(*setup.config);
  if (!settings) return Error{settings.error()};
  start->settings = std::move(*settings);
  auto policy = schedd::QueuePolicy::from_config(*setup.config, start->settings.name);
  if (!policy) return Error{policy.error()};
  start->queue.emplace(std::move(*policy), "<" + start->settings.name + ">", classad::EvalEnv{});
  if (setup.durable) {
    // A store that cannot be read stops the schedd here, with what is
    // wrong: never an empty queue in place of the stored one.
    auto store = persistence::QueueStore::open(start->settings.queue_store, history_limits(start->settings));
    if (!store) return Error{store.error()};
    auto stored = store->load();
    if (!stored) return Error{stored.error()};
    if (Status s =
            start->queue->restore(std::move(stored->jobs), stored->next_cluster, setup.clock.now(&sys));
        !s)
      return Error{"store " + start->settings.queue_store + ": " + s.error()};
    start->store = std::move(*store);
  }
  return sys.spawn(schedd_behavior, std::move(start), std::move(setup));
}

}  // namespace cara::actors
