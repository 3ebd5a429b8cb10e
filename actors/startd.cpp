#include "actors/startd.h"

#include <caf/actor_system.hpp>
#include <caf/typed_event_based_actor.hpp>
#include <map>
#include <optional>
#include <set>

#include "actors/collectors_update.h"
#include "actors/slot.h"
#include "actors/system_accounts.h"
#include "model/claim/claim_id.h"
#include "model/claim/leftovers.h"
#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/collector/ad_store.h"
#include "model/startd/startd.h"
#include "model/startd/startd_settings.h"
#include "net/claim_secret.h"

namespace cara::actors {
namespace {

using startd::ActionKind;

struct StartdState {
  std::shared_ptr<startd::Startd> model;
  std::string machine;                              // the Machine attribute of its slot ads
  std::map<std::string, slot_actor> slots;          // by short name
  std::vector<std::string> partitionable;           // their ads change with every dynamic slot
  std::optional<std::uint64_t> synced_layout;       // the model's layout_version() `slots` mirrors
  std::vector<collector_actor> collectors;          // setup's, until the node says otherwise
  std::shared_ptr<const SlotEnvironment> slot_env;  // what its slot actors share
  std::uint64_t leftovers = 0;                      // leftover claims offered: their ids' public part
  // Claims granted once their slot is free (a preempted job leaving): the
  // schedd waiting for each, the slot the claim was sent to, and the
  // claim's one answer, given then.
  struct Waiting {
    schedd_actor schedd;
    std::string slot;
    caf::typed_response_promise<ClaimReply> answer;
  };
  std::map<std::string, Waiting> waiting;  // by claim id
  std::int64_t update_interval = 300;
  std::int64_t last_full_update = 0;
  // Whom its jobs run as: the policy (reconfigured in place), the users.
  startd::RunAsPolicy run_as;
  std::shared_ptr<const startd::AccountBook> accounts;
  startd::Account daemon;
  // The node is stopping: no new claims, no more ads; the startd ends when
  // its last job has left.
  bool stopping = false;
  static inline const char* name = "startd";
};

using Self = startd_actor::stateful_pointer<StartdState>;

startd::SlotEvent to_event(SlotCall& c) {
  switch (c.kind) {
    case SlotCallKind::Match: return startd::MatchNotified{c.claim_id};
    case SlotCallKind::Claim:
      return startd::ClaimRequest{c.claim_id, std::move(c.job.ad), c.preempting, std::move(c.preempt_dslots)};
    // A copy (it shares the attributes): the job also decides its account.
    case SlotCallKind::Activate: return startd::Activate{c.claim_id, c.job.ad};
    case SlotCallKind::Release: return startd::ReleaseClaim{c.claim_id};
    case SlotCallKind::JobExited: return startd::JobExited{c.claim_id};
    case SlotCallKind::Vacate: return startd::Vacate{};
    case SlotCallKind::ReleaseAtOnce: return startd::ReleaseClaim{c.claim_id, true};
  }
  return startd::Tick{};
}

void advertise(Self self, const std::set<std::string>& names) {
  if (names.empty() || self->state.collectors.empty() || self->state.stopping) return;
  AdUpdate u;
  u.type = static_cast<std::int32_t>(collector::AdType::Machine);
  for (const std::string& n : names) {
    const startd::Slot* s = self->state.model->slot(n);
    auto it = self->state.slots.find(n);
    if (!s || it == self->state.slots.end()) continue;
    u.ads.push_back(WireAd{s->ad()});  // a copy: shares the slot's attributes
    u.endpoints.push_back(as_endpoint<collector::AdType::Machine>(it->second));
  }
  for (const collector_actor& c : self->state.collectors) self->send(c, u);
}

// Slot actors follow the model's slots: new dynamic slots get one, gone
// ones lose theirs and their ads are invalidated.
void sync_slots(Self self, std::set<std::string>& changed) {
  auto& st = self->state;
  // Most calls change no slot: comparing all names on each was the
  // startd's largest cost with hundreds of slots.
  if (st.synced_layout && *st.synced_layout == st.model->layout_version()) return;
  st.synced_layout = st.model->layout_version();
  const auto names = st.model->slot_names();
  const std::set<std::string> now(names.begin(), names.end());
  AdInvalidate inv;
  inv.type = static_cast<std::int32_t>(collector::AdType::Machine);
  for (auto it = st.slots.begin(); it != st.slots.end();) {
    if (now.count(it->first)) {
      ++it;
      continue;
    }
    inv.keys.push_back(it->first + "@" + st.machine);  // the ad's Name
    self->unlink_from(it->second);
    // Not exit_reason::normal: an actor ignores a "normal" exit message, so
    // every dynamic slot that ever ended stayed alive — and held the node's
    // actor system open at its stop (issue 19).
    self->send_exit(it->second, caf::exit_reason::user_shutdown);
    changed.erase(it->first);
    it = st.slots.erase(it);
  }
  for (const std::string& n : names) {
    if (st.slots.count(n)) continue;
    slot_actor slot = spawn_slot(self->system(), n, st.slot_env);
    self->link_to(slot);  // slots end with their startd
    st.slots.emplace(n, std::move(slot));
    changed.insert(n);
  }
  if (!inv.keys.empty())
    for (const collector_actor& c : st.collectors) self->send(c, inv);
}

// The account the job of `call` (an activation) runs as, from the run-as
// policy and what is known of the schedd that asks: its proven host (the
// node's guard), or that it is in this very process (an embedded pool).
startd::RunAs job_account(Self self, const StartdSetup& setup, const SlotCall& call) {
  auto& st = self->state;
  startd::Submission sub;
  sub.slot_id = startd::slot_number(call.slot);
  if (call.schedd && call.schedd.node() == self->system().node()) {
    sub.schedd_local = true;
  } else if (call.schedd && setup.context.guard) {
    if (auto who = setup.context.guard->identity(call.schedd.node())) sub.schedd_host = who->host;
  }
  if (call.owner_uid >= 0) sub.owner_uid = static_cast<std::uint32_t>(call.owner_uid);
  if (call.owner_gid >= 0) sub.owner_gid = static_cast<std::uint32_t>(call.owner_gid);
  startd::RunAs r = startd::decide_run_as(st.run_as, call.job.ad, sub, *st.accounts, st.daemon);
  if (r.ok)
    setup.context.info(call.slot + ": the job runs as " + r.account.name + " (" + r.how +
                       (r.not_owner.empty() ? "" : ": " + r.not_owner) + ")");
  else
    setup.context.warning(call.slot + ": the job cannot run here: " + r.hold_reason);
  return r;
}

ClaimReply refusal(std::string why) {
  ClaimReply r;
  r.reason = std::move(why);
  return r;
}

// A claim granted on `name` (its actor `slot`), at once or once the slot is free.
ClaimReply granted(const std::string& name, slot_actor slot, const startd::Slot* s) {
  ClaimReply r;
  r.ok = true;
  r.slot_name = name;
  r.slot = std::move(slot);
  if (s) r.slot_ad = WireAd{s->ad()};
  return r;
}

// CLAIM_PARTITIONABLE_LEFTOVERS: the rest of `call`'s partitionable slot,
// when model/claim/leftovers.h says it is offered, gets a claim id the
// partitionable slot takes as announced.
void offer_leftovers(Self self, const SlotCall& call, ClaimReply& reply) {
  auto& st = self->state;
  const startd::Slot* pslot = st.model->slot(call.slot);
  auto it = st.slots.find(call.slot);
  const claim::LeftoverCase asked{call.leftovers, reply.ok, reply.slot_name != call.slot};
  if (!pslot || it == st.slots.end() || !claim::offers_leftovers(asked, pslot->ad())) return;
  reply.leftover_claim_id = claim::make_claim_id(
      st.machine + "/" + call.slot + "." + std::to_string(++st.leftovers), net::claim_secret());
  reply.leftover_ad = WireAd{pslot->ad()};
  // Announced before the id leaves: the slot has it in its mailbox before
  // the schedd can claim with it.
  self->send(it->second, SlotMatched{reply.leftover_claim_id});
}

// A waiting claim's schedd is watched: if it dies, its claim is withdrawn
// (policy-configuration, 19) rather than handed to nobody.
void watch_waiting(Self self, const std::string& claim_id, StartdState::Waiting w) {
  if (w.schedd) self->monitor(w.schedd);
  self->state.waiting[claim_id] = std::move(w);
}

void forget_waiting(Self self, std::map<std::string, StartdState::Waiting>::iterator it) {
  auto& st = self->state;
  const schedd_actor schedd = it->second.schedd;
  st.waiting.erase(it);
  if (!schedd) return;
  for (const auto& [id, w] : st.waiting)
    if (w.schedd == schedd) return;  // still waiting for another (demonitor drops them all)
  self->demonitor(schedd.address());
}

// A claim that waited for its slot and will not get it: that is its answer.
bool end_waiting(Self self, const std::string& claim_id, const std::string& reason) {
  auto& st = self->state;
  auto it = st.waiting.find(claim_id);
  if (it == st.waiting.end()) return false;
  it->second.answer.deliver(refusal(reason));
  forget_waiting(self, it);
  return true;
}

// Sends each action to its slot and advertises the ads that changed; the
// reply says what became of `call`'s claim or activation, or nothing yet:
// a claim that waits for its slot is answered later (StartdState::Waiting).
std::optional<ClaimReply> dispatch(Self self, const StartdSetup& setup, startd::StartdResult result,
                                   const SlotCall* call) {
  auto& st = self->state;
  bool deferred = false;
  ClaimReply reply;
  reply.ok = call == nullptr || (call->kind != SlotCallKind::Claim && call->kind != SlotCallKind::Activate);
  const bool claim_call = call && call->kind == SlotCallKind::Claim;
  std::set<std::string> changed;
  sync_slots(self, changed);  // a carved dynamic slot needs its actor before its orders
  for (startd::StartdAction& a : result.actions) {
    const bool for_call = call && (a.action.claim_id == call->claim_id);
    if (startd::changes_ad(a.action.kind)) changed.insert(a.slot);
    if (a.action.kind == ActionKind::Advertise) continue;
    if (a.action.kind == ActionKind::RefuseClaim) {
      if (for_call) {
        reply.ok = false;
        reply.reason = a.action.reason;
      }
      continue;
    }
    if (a.action.kind == ActionKind::ClaimEnded && for_call && claim_call) {
      // The claim asked for ended within its own call (its room could not
      // be made): the answer says so (through its promise, once made).
      if (!end_waiting(self, a.action.claim_id, a.action.reason)) reply = refusal(a.action.reason);
      continue;
    }
    if (a.action.kind == ActionKind::ClaimEnded && end_waiting(self, a.action.claim_id, a.action.reason)) {
      continue;
    }
    auto it = st.slots.find(a.slot);
    if (it == st.slots.end()) continue;
    const slot_actor& slot = it->second;
    if (a.action.kind == ActionKind::ClaimPending) {
      // The claim holds nothing yet: the startd keeps its schedd and its
      // answer until the slot is free.
      if (for_call && claim_call) {
        watch_waiting(
            self, a.action.claim_id,
            StartdState::Waiting{call->schedd, call->slot, self->make_response_promise<ClaimReply>()});
        deferred = true;
      }
      continue;
    }
    SlotOrder order{a.action.kind, a.action.claim_id, a.action.reason, {}, {}};
    if (a.action.kind == ActionKind::AcceptClaim) {
      const startd::Slot* s = st.model->slot(a.slot);
      if (setup.context.observed()) {
        const classad::Value name = s ? classad::evaluate_attr(s->ad(), "Name") : classad::Value{};
        setup.context.report(node::PoolEvent{node::PoolEventKind::Claimed,
                                             setup.clock.now(self),
                                             {},
                                             {},
                                             name.is_string() ? std::string(name.as_string()) : a.slot,
                                             0,
                                             a.action.claim_id});
      }
      if (for_call && claim_call) {
        // Granted at once, or its room was made within the call: then it
        // was made to wait first, and its promise answers.
        order.schedd = call->schedd;
        reply = granted(a.slot, slot, s);
        if (auto w = st.waiting.find(a.action.claim_id); w != st.waiting.end()) {
          w->second.answer.deliver(reply);
          forget_waiting(self, w);
        }
      } else if (auto w = st.waiting.find(a.action.claim_id); w != st.waiting.end()) {
        // The preempted jobs have left: the claim's answer, naming the slot
        // that holds it (a dynamic one with pslot preemption). The order
        // goes first, so the slot knows the claim before it is activated.
        order.schedd = w->second.schedd;
        self->send(it->second, std::move(order));
        w->second.answer.deliver(granted(a.slot, slot, s));
        forget_waiting(self, w);
        continue;
      }
    }
    if (a.action.kind == ActionKind::StartJob && for_call) {
      reply.ok = true;
      order.account = job_account(self, setup, *call);
    }
    self->send(it->second, std::move(order));
  }
  sync_slots(self, changed);  // dynamic slots whose claim ended
  if (call && claim_call && !deferred) offer_leftovers(self, *call, reply);
  // A partitionable slot's ad changes silently when a dynamic slot is
  // carved from it or gives its resources back: advertise it with them.
  // (Only those: re-advertising every static slot on each call made a
  // startd's work grow with the square of its slots.)
  if (!changed.empty()) changed.insert(st.partitionable.begin(), st.partitionable.end());
  advertise(self, changed);
  if (deferred) return std::nullopt;
  return reply;
}

// A stopping startd whose jobs have all left ends (its slots with it).
void end_if_stopped(Self self, const StartdSetup& setup) {
  if (!self->state.stopping || self->state.model->has_running_jobs()) return;
  setup.context.info("every job has left: the startd stops");
  self->quit(caf::exit_reason::user_shutdown);
}

// The node stops (its master says so): the machine's ads leave the pool,
// no claim is taken any more, and each slot lets its job go — retiring and
// vacating, or killed at once when `fast` (policy-configuration, "The
// condor_startd is told to shutdown"). A graceful stop that runs out of
// time is followed by a fast one.
void stop(Self self, const StartdSetup& setup, bool fast) {
  auto& st = self->state;
  if (!st.stopping) {
    AdInvalidate inv;
    inv.type = static_cast<std::int32_t>(collector::AdType::Machine);
    for (const auto& [n, a] : st.slots) inv.keys.push_back(n + "@" + st.machine);
    for (const collector_actor& c : st.collectors) self->send(c, inv);
  }
  st.stopping = true;
  setup.context.info(std::string("stopping ") +
                     (fast ? "fast: jobs are killed" : "gracefully: jobs retire and vacate"));
  const std::int64_t now = setup.clock.now(self);
  const startd::Shutdown how{fast ? startd::Shutdown::How::Fast : startd::Shutdown::How::Graceful};
  for (const std::string& n : st.model->slot_names())
    dispatch(self, setup, st.model->deliver(n, how, now), nullptr);
  end_if_stopped(self, setup);
}

// What every slot ad shows of whom jobs run as: CanRunAsOwner, and the
// daemon's user when it cannot switch (it is not root).
void publish_run_as(Self self) {
  auto& st = self->state;
  classad::ClassAd who;
  who.set("CanRunAsOwner", st.daemon.is_root() && st.run_as.allow_runas_owner);
  if (!st.daemon.is_root()) who.set("SlotUser", std::string_view(st.daemon.name));
  st.model->set_machine_attributes(who);
}

startd_actor::behavior_type startd_behavior(Self self, std::shared_ptr<startd::Startd> model,
                                            startd::StartdSettings settings, StartdSetup setup) {
  auto& st = self->state;
  st.model = std::move(model);
  st.collectors = setup.collectors;
  st.slot_env = std::make_shared<const SlotEnvironment>(SlotEnvironment{self, setup.runner, setup.context});
  {
    // Where the slots' node takes connections (HTCondor's MyAddress), in
    // the machine ad every slot ad shows, and when this startd started: a
    // schedd reconnecting to a claim tells a slot ad a crashed startd
    // left behind from this one's (model/claim/claimed_slot.h).
    classad::ClassAd machine;
    if (!setup.address.empty()) machine.set("MyAddress", std::string_view(setup.address));
    machine.set("DaemonStartTime", setup.clock.now(self));
    st.model->set_machine_attributes(machine);
  }
  // Every slot of the machine has the same Machine attribute.
  const auto names = st.model->slot_names();
  if (!names.empty()) {
    classad::Value m = classad::evaluate_attr(st.model->slot(names.front())->ad(), "Machine");
    if (m.is_string()) st.machine = std::string(m.as_string());
  }
  for (const std::string& n : names) {
    classad::Value p = classad::evaluate_attr(st.model->slot(n)->ad(), "PartitionableSlot");
    if (p.is_bool() && p.as_bool()) st.partitionable.push_back(n);
  }
  st.update_interval = settings.update_interval;
  st.run_as = settings.run_as;
  st.accounts = setup.accounts ? setup.accounts : std::make_shared<const SystemAccounts>();
  st.daemon = setup.daemon_account ? *setup.daemon_account : current_account();
  publish_run_as(self);
  std::set<std::string> all;
  sync_slots(self, all);
  advertise(self, all);
  st.last_full_update = setup.clock.now(self);
  self->set_down_handler([self, setup](caf::down_msg& d) {
    // A schedd waiting for a slot is gone: its claim is withdrawn.
    std::vector<std::pair<std::string, std::string>> gone;  // claim id, slot
    for (const auto& [id, w] : self->state.waiting)
      if (w.schedd && d.source == w.schedd) gone.emplace_back(id, w.slot);
    for (const auto& [id, slot] : gone) {
      auto result = self->state.model->deliver(slot, startd::ReleaseClaim{id}, setup.clock.now(self));
      dispatch(self, setup, std::move(result), nullptr);
      if (auto it = self->state.waiting.find(id); it != self->state.waiting.end()) {
        it->second.answer.deliver(refusal("the schedd that asked is gone"));
        forget_waiting(self, it);
      }
    }
  });
  self->delayed_send(self, setup.tick_every, Timer{});
  return {
      [self, setup](SlotCall& c) -> caf::result<ClaimReply> {
        // Slot calls come from the node's own slot actors: a peer that got
        // the startd's handle (from the gate, for condor_drain) must not
        // claim, activate or release slots around their claim ids.
        if (!net::from_this_node(self)) {
          setup.context.warning("startd: a slot call from another node refused");
          return refusal("slot calls come from this node's slots only");
        }
        const SlotCallKind kind = c.kind;
        if (self->state.stopping &&
            (kind == SlotCallKind::Claim || kind == SlotCallKind::Match || kind == SlotCallKind::Activate))
          return refusal("the execution point is shutting down");
        const std::int64_t now = setup.clock.now(self);
        startd::SlotEvent event = to_event(c);
        auto result = self->state.model->deliver(c.slot, event, now);
        std::optional<ClaimReply> reply = dispatch(self, setup, std::move(result), &c);
        end_if_stopped(self, setup);
        if (!reply) {
          // Answered when the slot's jobs have left (or the claim is withdrawn).
          setup.context.info(c.slot + ": " + to_string(c.kind) + " waits for the slot's jobs to leave");
          return caf::delegated<ClaimReply>{};
        }
        if (setup.context.log)
          setup.context.info(c.slot + ": " + to_string(c.kind) +
                             (reply->ok ? "" : " refused: " + reply->reason));
        return *reply;
      },
      [self, setup](DrainRequest& d) -> CommandReply {
        // condor_drain is ADMINISTRATOR work.
        if (auto no = setup.context.refused(self, net::Permission::Administrator, "startd"))
          return CommandReply{false, *no};
        if (!d.cancel && (d.how < 0 || d.how > 2))
          return CommandReply{false, "drain: how must be 0 (graceful), 1 (quick) or 2 (fast)"};
        static constexpr const char* kHow[] = {"graceful", "quick", "fast"};
        startd::DrainOrder order{static_cast<startd::DrainSchedule>(d.how), nullptr, d.reason,
                                 d.resume_on_completion};
        if (!d.cancel && !d.start.empty()) {
          auto start = classad::parse_expression_shared(d.start);
          if (!start)
            return CommandReply{false, "drain: the START expression '" + d.start + "': " + start.error()};
          order.start_expr = *start;
        }
        const std::int64_t now = setup.clock.now(self);
        auto result = d.cancel ? self->state.model->cancel_drain(now) : self->state.model->drain(order, now);
        dispatch(self, setup, std::move(result), nullptr);
        setup.context.info(
            std::string(d.cancel ? "drain cancelled" : "drain (" + std::string(kHow[d.how]) + ")") + " by " +
            setup.context.requester(self) + (d.cancel || d.reason.empty() ? "" : ": " + d.reason));
        return CommandReply{true, {}};
      },
      [self, setup](VacateRequest& v) -> CommandReply {
        // condor_vacate is ADMINISTRATOR work.
        if (auto no = setup.context.refused(self, net::Permission::Administrator, "startd"))
          return CommandReply{false, *no};
        auto result = self->state.model->vacate(v.slot, v.fast, setup.clock.now(self));
        if (!result) return CommandReply{false, result.error()};
        dispatch(self, setup, std::move(*result), nullptr);
        setup.context.info(std::string(v.fast ? "fast vacate" : "vacate") + " of " +
                           (v.slot.empty() ? "every slot" : v.slot) + " by " + setup.context.requester(self));
        return CommandReply{true, {}};
      },
      [self, setup](Reconfigure&) {
        auto config = setup.context.reconfiguration(self);
        if (!config) return CommandReply{false, config.error()};
        auto& st = self->state;
        const std::int64_t now = setup.clock.now(self);
        auto settings = startd::StartdSettings::from_config(**config);
        if (!settings) return CommandReply{false, settings.error()};
        if (auto s = st.model->reconfigure(**config, now); !s) return CommandReply{false, s.error()};
        st.run_as = std::move(settings->run_as);
        st.update_interval = settings->update_interval;
        publish_run_as(self);
        // The slots act on their new policy now (START turned false, say),
        // and every ad goes out again.
        dispatch(self, setup, st.model->tick(now), nullptr);
        std::set<std::string> all;
        for (const auto& [n, a] : st.slots) all.insert(n);
        advertise(self, all);
        st.last_full_update = now;
        setup.context.info("reconfigured");
        return CommandReply{true, {}};
      },
      [self, setup](NodeStop& n) {
        if (!net::from_this_node(self)) return;  // its node's master only
        stop(self, setup, n.fast);
      },
      [self, setup](Collectors& c) {
        if (!take_collectors(self, c, self->state.collectors)) return;
        // A new collector knows nothing yet: every slot's ad at once.
        std::set<std::string> all;
        for (const auto& [n, a] : self->state.slots) all.insert(n);
        advertise(self, all);
        self->state.last_full_update = setup.clock.now(self);
      },
      [self, setup](Timer) {
        if (!net::from_this_node(self)) return;  // its own clock only
        const std::int64_t now = setup.clock.now(self);
        dispatch(self, setup, self->state.model->tick(now), nullptr);
        end_if_stopped(self, setup);
        if (now - self->state.last_full_update >= self->state.update_interval) {
          std::set<std::string> all;
          for (const auto& [n, a] : self->state.slots) all.insert(n);
          advertise(self, all);
          self->state.last_full_update = now;
        }
        self->delayed_send(self, setup.tick_every, Timer{});
      },
  };
}

}  // namespace

Result<startd_actor> spawn_startd(caf::actor_system& sys, StartdSetup setup) {
  using namespace std::chrono;
  const std::int64_t now =
      setup.clock.offset + duration_cast<seconds>(sys.clock().now().time_since_epoch()).count();
  auto model = startd::Startd::create(*setup.config, now);
  if (!model) return Error{model.error()};
  auto settings = startd::StartdSettings::from_config(*setup.config);
  if (!settings) return Error{settings.error()};
  std::shared_ptr<startd::Startd> shared(std::move(*model));
  return sys.spawn(startd_behavior, std::move(shared), std::move(*settings), std::move(setup));
}

}  // namespace cara::actors
