#include "actors/defrag.h"

#include <caf/actor_system.hpp>
#include <caf/typed_event_based_actor.hpp>
#include <optional>

#include "actors/collectors_update.h"
#include "model/defrag/defrag.h"
#include "net/guard.h"

namespace cara::actors {
namespace {

// A timer's `what`: its kind in the low bits, the serial of its kind above
// them, so a timer set before a reconfiguration changed the interval is
// recognised as stale.
enum TimerKind : std::int32_t { kPollTimer = 1, kUpdateTimer = 2 };
constexpr std::int32_t kKinds = 4;

struct DefragState {
  std::optional<defrag::Defrag> model;
  std::vector<collector_actor> collectors;
  std::int32_t poll_serial = 0, update_serial = 0;
  bool polling = false;
  static inline const char* name = "defrag";
};

using Self = defrag_actor::stateful_pointer<DefragState>;

void set_timer(Self self, TimerKind kind, std::int64_t seconds) {
  auto& st = self->state;
  const std::int32_t serial = kind == kPollTimer ? ++st.poll_serial : ++st.update_serial;
  self->delayed_send(self, std::chrono::seconds(std::max<std::int64_t>(0, seconds)),
                     Timer{kind + kKinds * serial});
}

void publish(Self self, const DefragSetup& setup) {
  AdUpdate u{static_cast<std::int32_t>(collector::AdType::Defrag),
             {WireAd{self->state.model->ad(setup.clock.now(self))}},
             {}};
  for (const collector_actor& c : self->state.collectors) self->send(c, u);
}

void log_notes(const DefragSetup& setup, const defrag::DefragPoll& poll) {
  for (const std::string& n : poll.notes) setup.context.info("defrag: " + n);
}

// The orders of a poll go to the slots the model chose, each to be handed
// to its startd; their answers count, then the ad tells the new figures.
void send_orders(Self self, const DefragSetup& setup, const defrag::DefragPoll& poll,
                 const std::vector<caf::actor>& endpoints) {
  const defrag::DefragPolicy& policy = self->state.model->policy();
  auto pending = std::make_shared<std::size_t>(poll.orders.size());
  auto one_done = [self, setup, pending]() {
    if (--*pending == 0) publish(self, setup);
  };
  for (const defrag::DefragOrder& order : poll.orders) {
    const std::string what = std::string(order.cancel ? "cancel the drain of " : "drain ") + order.machine;
    auto answered = [self, setup, order, what, one_done](bool ok, const std::string& why) {
      self->state.model->answered(order, ok, setup.clock.now(self));
      if (ok)
        setup.context.info("defrag: " + what + " (" + order.slot + "): done");
      else
        setup.context.warning("defrag: " + what + " (" + order.slot + ") failed: " + why);
      one_done();
    };
    const caf::actor& to = order.ad < endpoints.size() ? endpoints[order.ad] : caf::actor{};
    if (!to) {
      answered(false, "its slot ad names no slot to reach");
      continue;
    }
    DrainRequest request;
    request.cancel = order.cancel;
    request.how = static_cast<std::int32_t>(policy.schedule);
    request.reason = policy.drain_reason();
    request.start = policy.draining_start;
    request.resume_on_completion = true;  // HTCondor's defrag: DRAIN_RESUME_ON_COMPLETION
    self->request(endpoint<collector::AdType::Machine>(to), setup.request_timeout, std::move(request))
        .then([answered](CommandReply& r) { answered(r.ok, r.error); },
              [self, answered](caf::error& e) { answered(false, self->system().render(e)); });
  }
}

void poll(Self self, const DefragSetup& setup) {
  auto& st = self->state;
  if (st.polling) return;
  if (st.collectors.empty()) {
    setup.context.warning("defrag: no collector to ask for the slots; the poll is skipped");
    return;
  }
  st.polling = true;
  self->request(st.collectors.front(), setup.request_timeout,
                AdQueryRequest{static_cast<std::int32_t>(collector::AdType::Machine), "", {}, false})
      .then(
          [self, setup](AdQueryReply& reply) {
            self->state.polling = false;
            if (!reply.ok) {
              setup.context.warning("defrag: the collector refused the query for slots: " + reply.error);
              return;
            }
            std::vector<classad::ClassAd> slots;
            slots.reserve(reply.ads.size());
            for (WireAd& a : reply.ads) slots.push_back(std::move(a.ad));
            const defrag::DefragPoll p = self->state.model->poll(slots, setup.clock.now(self));
            log_notes(setup, p);
            if (p.orders.empty()) return publish(self, setup);
            send_orders(self, setup, p, reply.endpoints);
          },
          [self, setup](caf::error& e) {
            self->state.polling = false;
            setup.context.warning("defrag: the collector did not answer the query for slots: " +
                                  self->system().render(e));
          });
}

// The timers as the policy says: DEFRAG_INTERVAL (none when 0 or less)
// and DEFRAG_UPDATE_INTERVAL.
void plan(Self self, const DefragSetup& setup, std::int64_t first_poll) {
  const defrag::DefragPolicy& p = self->state.model->policy();
  if (p.interval > 0)
    set_timer(self, kPollTimer, first_poll);
  else
    ++self->state.poll_serial, setup.context.info("defrag: DEFRAG_INTERVAL=" + std::to_string(p.interval) +
                                                  ", so no pool defragmentation will be done");
  set_timer(self, kUpdateTimer, p.update_interval);
}

defrag_actor::behavior_type defrag_behavior(Self self, defrag::DefragPolicy policy, DefragSetup setup) {
  auto& st = self->state;
  st.collectors = setup.collectors;
  st.model.emplace(std::move(policy), setup.clock.now(self), setup.seed);
  const defrag::DefragPolicy& p = st.model->policy();
  setup.context.info("defrag: every " + std::to_string(p.interval) +
                     "s, DEFRAG_DRAINING_MACHINES_PER_HOUR = " + std::to_string(p.machines_per_hour) + " = " +
                     std::to_string(p.rate.per_poll) + "/interval + " + std::to_string(p.rate.per_hour) +
                     "/hour + " + std::to_string(p.rate.per_day) + "/day");
  publish(self, setup);
  plan(self, setup, 0);  // HTCondor's first poll comes at once
  return {
      [self, setup](Timer t) {
        if (!net::from_this_node(self)) return;  // its own timers only
        auto& st = self->state;
        const std::int32_t kind = t.what % kKinds, serial = t.what / kKinds;
        if (kind == kPollTimer && serial == st.poll_serial) {
          poll(self, setup);
          set_timer(self, kPollTimer, st.model->policy().interval);
        } else if (kind == kUpdateTimer && serial == st.update_serial) {
          publish(self, setup);
          set_timer(self, kUpdateTimer, st.model->policy().update_interval);
        }
      },
      [self, setup](Collectors& c) {
        if (take_collectors(self, c, self->state.collectors)) publish(self, setup);
      },
      [self, setup](Reconfigure&) {
        auto config = setup.context.reconfiguration(self);
        if (!config) return CommandReply{false, config.error()};
        auto policy = defrag::DefragPolicy::from_config(**config);
        if (!policy) return CommandReply{false, policy.error()};
        auto& st = self->state;
        const std::int64_t since = setup.clock.now(self) - st.model->last_poll();
        st.model->reconfigure(std::move(*policy));
        // The next poll one interval after the last one, as before.
        plan(self, setup, st.model->last_poll() > 0 ? st.model->policy().interval - since : 0);
        publish(self, setup);
        return CommandReply{true, {}};
      },
  };
}

}  // namespace

Result<defrag_actor> spawn_defrag(caf::actor_system& sys, DefragSetup setup) {
  auto policy = defrag::DefragPolicy::from_config(*setup.config);
  if (!policy) return Error{policy.error()};
  return sys.spawn(defrag_behavior, std::move(*policy), std::move(setup));
}

}  // namespace cara::actors
