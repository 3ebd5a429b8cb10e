// The schedd's half of the claim exchange as messages: what the claim
// model (model/claim/schedd_claims.h) decides is sent here, and each
// answer goes back to it. Nothing here decides what happens to a claim.
#include <caf/actor_system.hpp>
#include <caf/io/middleman_actor.hpp>
#include <functional>
#include <variant>

#include "actors/schedd_state.h"
#include "actors/system_accounts.h"
#include "model/claim/claimed_slot.h"
#include "model/classad/eval.h"
#include "model/classad/unparse.h"
#include "net/address.h"

namespace cara::actors {

// A direct connection to the slot's node (below), then `then`; also when
// none can be made: the message then goes through the central manager.
void connect_then(ScheddSelf self, const slot_actor& slot, const classad::ClassAd& slot_ad,
                  std::function<void()> then);

namespace {

// A slot on another node may be gone: never wait for it forever. A claim
// is the exception: its one answer comes when the slot's preempted jobs
// have left, however long they take; the slot is watched meanwhile
// (claim::Watch), and its loss refuses the claim.
constexpr auto kSlotTimeout = std::chrono::seconds(20);

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

// A message to a slot, to go out once the changes it follows from are
// stored (after_commit). What it needs is resolved when the claim model
// decides (the slot's handle, the job's ad): the slot handles and monitors
// follow the model's decisions in their order, while the messages wait.
using Send = std::function<void()>;

Send request_claim(ScheddSelf self, const claim::RequestClaim& r) {
  auto& st = self->state;
  const slot_actor slot = st.slots.get(r.slot);
  const classad::ClassAd* job = st.queue->find(r.job);
  if (!slot || !job) {
    carry_out(self, st.claims->refused(r.claim_id));
    return {};
  }
  ClaimSlot claim{r.claim_id,      WireAd{*job},     r.preempting,
                  handle_of(self), r.preempt_dslots, st.claim_leftovers};
  return [self, slot, claim = std::move(claim)]() mutable {
    const std::string id = claim.claim_id;
    self->request(slot, caf::infinite, std::move(claim))
        .then(
            [self, id](ClaimReply& reply) {
              auto& st = self->state;
              if (!reply.ok) return carry_out(self, st.claims->refused(id));
              claim::Grant grant{st.slots.ref(reply.slot), reply.slot_name, std::move(reply.slot_ad.ad),
                                 std::move(reply.leftover_claim_id), std::move(reply.leftover_ad.ad)};
              carry_out(self, st.claims->granted(id, std::move(grant)));
            },
            [self, id](caf::error&) { carry_out(self, self->state.claims->refused(id)); });
  };
}

Send activate(ScheddSelf self, const claim::Activate& a, const ScheddSetup& setup) {
  auto& st = self->state;
  const slot_actor slot = st.slots.get(a.slot);
  const classad::ClassAd* job = st.queue->find(a.job);
  if (!slot || !job) {
    carry_out(self, st.claims->activated(a.claim_id, a.job, false, setup.clock.now(self)));
    return {};
  }
  // The owner's ids here, for an execution point with SOFT_UID_DOMAIN.
  // The claim recorded in the job stays here (job_claim.h).
  ActivateClaim activation{a.claim_id, WireAd{schedd::public_view(*job)}, -1, -1};
  if (const Account* owner = owner_account(self, schedd::string_attr(*job, "Owner"))) {
    activation.owner_uid = owner->uid;
    activation.owner_gid = owner->gid;
  }
  return [self, slot, activation = std::move(activation), j = a.job]() mutable {
    auto answer = [self, id = activation.claim_id, j](bool ok) {
      const ScheddSetup& setup = *self->state.setup;
      carry_out(self, self->state.claims->activated(id, j, ok, setup.clock.now(self)));
    };
    self->request(slot, kSlotTimeout, std::move(activation))
        .then([answer](ActivateReply& r) { answer(r.ok); }, [answer](caf::error&) { answer(false); });
  };
}

constexpr auto kReconnectRetry = std::chrono::seconds(5);

void reconnect(ScheddSelf self, const claim::Reconnect& r) {
  auto failed = [self, id = r.claim_id](const std::string& why) {
    const ScheddSetup& setup = *self->state.setup;
    carry_out(self, self->state.claims->reconnect_failed(id, why, setup.clock.now(self)));
  };
  auto& st = self->state;
  if (st.collectors.empty()) return failed("no collector to find the slot in");
  std::string constraint = "Name == ";
  classad::append_quoted(constraint, r.slot_name, classad::Quoting::New);
  constraint += " || Machine == ";
  classad::append_quoted(constraint, claim::machine_of(r.slot_name), classad::Quoting::New);
  AdQueryRequest q{static_cast<std::int32_t>(collector::AdType::Machine), std::move(constraint), {}, false};
  self->request(st.collectors.front(), kSlotTimeout, std::move(q))
      .then(
          [self, r, failed](AdQueryReply& found) {
            if (!found.ok) return failed("the collector refused: " + found.error);
            std::vector<classad::ClassAd> ads;
            for (WireAd& w : found.ads) ads.push_back(std::move(w.ad));
            const claim::ClaimedSlot where = claim::find_claimed_slot(r.slot_name, ads);
            auto& st = self->state;
            if (where.result == claim::SlotSearch::Unknown) return failed(where.why);
            if (where.result == claim::SlotSearch::Gone || where.index >= found.endpoints.size() ||
                !found.endpoints[where.index])
              return carry_out(self, st.claims->reconnected(r.claim_id, 0, claim::Reconnection::Gone, {},
                                                            st.setup->clock.now(self)));
            const slot_actor slot = endpoint<collector::AdType::Machine>(found.endpoints[where.index]);
            auto ad = std::make_shared<classad::ClassAd>(std::move(ads[where.index]));
            connect_then(self, slot, *ad, [self, r, slot, ad, failed] {
              self->request(slot, kSlotTimeout, ReconnectJob{r.claim_id, r.job, handle_of(self)})
                  .then(
                      [self, r, slot, ad, failed](ReconnectReply& reply) {
                        using claim::Reconnection;
                        if (reply.state < static_cast<std::int32_t>(Reconnection::Gone) ||
                            reply.state > static_cast<std::int32_t>(Reconnection::Idle))
                          return failed("the slot answered with an unknown state " +
                                        std::to_string(reply.state));
                        auto& st = self->state;
                        const std::int64_t now = st.setup->clock.now(self);
                        carry_out(self, st.claims->reconnected(r.claim_id, st.slots.ref(slot),
                                                               static_cast<Reconnection>(reply.state),
                                                               std::move(*ad), now));
                      },
                      [failed](caf::error& e) { failed("the slot did not answer: " + caf::to_string(e)); });
            });
          },
          [failed](caf::error& e) { failed("the collector did not answer: " + caf::to_string(e)); });
}

// Carries out one action: monitors, slot handles and log lines now, in the
// model's order; a message is returned, to be sent after the commit.
Send act(ScheddSelf self, const claim::Action& action, const ScheddSetup& setup) {
  auto& st = self->state;
  return std::visit(Overloaded{
                        [&](const claim::RequestClaim& r) { return request_claim(self, r); },
                        [&](const claim::Activate& a) { return activate(self, a, setup); },
                        [&](const claim::Release& r) -> Send {
                          slot_actor slot = st.slots.get(r.slot);
                          if (!slot) return {};
                          return [self, slot, id = r.claim_id, now = r.at_once] {
                            self->send(slot, ReleaseSlot{id, now});
                          };
                        },
                        [&](const claim::Watch& w) -> Send {
                          if (slot_actor slot = st.slots.get(w.slot)) self->monitor(slot);
                          return {};
                        },
                        [&](const claim::Reconnect& r) -> Send {
                          if (!r.retry) return [self, r] { reconnect(self, r); };
                          return [self, r] {
                            auto& st = self->state;
                            if (st.reconnects.empty())
                              self->delayed_send(self, kReconnectRetry, Timer{kReconnectTimer});
                            st.reconnects.push_back(r);
                          };
                        },
                        [&](const claim::Unwatch& w) -> Send {
                          // One demonitor drops every monitor of the slot.
                          if (slot_actor slot = st.slots.get(w.slot))
                            self->demonitor(caf::actor_cast<caf::actor_addr>(slot));
                          st.slots.forget(w.slot);
                          return {};
                        },
                        [&](const claim::Note& n) -> Send {
                          if (n.warning)
                            setup.context.warning(n.text);
                          else
                            setup.context.info(n.text);
                          return {};
                        },
                    },
                    action);
}

}  // namespace

void reconnect_again(ScheddSelf self) {
  for (const claim::Reconnect& r : std::exchange(self->state.reconnects, {})) reconnect(self, r);
}

claim::SlotRef SlotHandles::ref(const slot_actor& slot) {
  if (!slot) return 0;
  const caf::actor_addr addr = slot.address();
  if (auto it = by_addr_.find(addr); it != by_addr_.end()) return it->second;
  by_addr_.emplace(addr, next_);
  by_ref_.emplace(next_, slot);
  return next_++;
}

claim::SlotRef SlotHandles::find(const caf::actor_addr& addr) const {
  auto it = by_addr_.find(addr);
  return it == by_addr_.end() ? 0 : it->second;
}

slot_actor SlotHandles::get(claim::SlotRef ref) const {
  auto it = by_ref_.find(ref);
  return it == by_ref_.end() ? slot_actor{} : it->second;
}

void SlotHandles::forget(claim::SlotRef ref) {
  auto it = by_ref_.find(ref);
  if (it == by_ref_.end()) return;
  by_addr_.erase(caf::actor_cast<caf::actor_addr>(it->second));
  by_ref_.erase(it);
}

// Accounts found are kept; one not found is looked up again next time (it
// may have been added since).
const Account* owner_account(ScheddSelf self, const std::string& owner) {
  auto& st = self->state;
  auto it = st.owners.find(owner);
  if (it != st.owners.end()) return &it->second;
  auto found = st.accounts->find(owner);
  if (!found) return nullptr;
  return &st.owners.emplace(owner, std::move(*found)).first->second;
}

// The outcome's queue changes are stored before its messages go out (a job
// is not started, released or requeued on the word of a change a crash
// could undo), and its messages follow every earlier outcome's.
void carry_out(ScheddSelf self, claim::Outcome out) {
  auto& st = self->state;
  if (out.queue_changed) changed(self);
  if (out.claims_changed) st.dirty = true;
  if (out.reschedule) st.reschedule = true;
  std::vector<Send> sends;
  for (const claim::Action& action : out.actions)
    if (Send send = act(self, action, *st.setup)) sends.push_back(std::move(send));
  if (sends.empty()) return;
  after_commit(self, [sends = std::move(sends)] {
    for (const Send& send : sends) send();
  });
}

namespace {

// A failed connection is tried again before the claim goes through the
// central manager: under load a first attempt can fail while the node is
// busy (or while CAF connects the two nodes on its own), and a claim routed
// through the central manager loses the slot's and the schedd's view of
// each other's death (CAF reports a node's loss only to nodes connected to
// it), so its answer may never come.
constexpr int kConnectAttempts = 3;

void connect_attempt(ScheddSelf self, caf::node_id node, net::HostPort where, std::function<void()> then,
                     int attempts) {
  auto mm = caf::actor_cast<caf::io::middleman_actor>(self->state.setup->middleman);
  self->request(mm, kSlotTimeout, caf::connect_atom::value, where.host, where.port)
      .then(
          [self, then, node](const caf::node_id&, caf::strong_actor_ptr&, std::set<std::string>&) {
            self->state.direct.insert(node);
            then();
          },
          [self, then, node, where, attempts](caf::error& e) {
            if (attempts > 1) return connect_attempt(self, node, where, then, attempts - 1);
            self->state.setup->context.warning("cannot connect to " + where.host + ":" +
                                               std::to_string(where.port) + " (" + caf::to_string(e) +
                                               "); reaching its slot through the central manager");
            then();
          });
}

}  // namespace

// Over a connection of our own to the slot's node: a message through the
// central manager would arrive too, but the slot's death would not (CAF
// reports a node's loss only to nodes connected to it).
void connect_then(ScheddSelf self, const slot_actor& slot, const classad::ClassAd& slot_ad,
                  std::function<void()> then) {
  const ScheddSetup& setup = *self->state.setup;
  const caf::node_id node = slot ? slot.node() : caf::node_id{};
  classad::Value my_address = classad::evaluate_attr(slot_ad, "MyAddress");
  auto address = my_address.is_string()
                     ? net::parse_host_port(std::string(my_address.as_string()), "MyAddress")
                     : Result<net::HostPort>(Error{"no MyAddress"});
  if (!setup.middleman || !slot || node == self->system().node() || self->state.direct.count(node) ||
      !address)
    return then();
  connect_attempt(self, node, *address, std::move(then), kConnectAttempts);
}

void claim_match(ScheddSelf self, MatchInfo m, const ScheddSetup&) {
  auto match = std::make_shared<MatchInfo>(std::move(m));
  connect_then(self, match->slot, match->slot_ad.ad, [self, match] {
    auto& st = self->state;
    MatchInfo& m = *match;
    claim::Offer o{
        std::move(m.claim_id), std::move(m.submitter), std::move(m.slot_name), std::move(m.slot_ad.ad),
        st.slots.ref(m.slot),  std::move(m.job_ids),   m.preempting,           std::move(m.preempt_dslots)};
    carry_out(self, st.claims->offered(std::move(o)));
  });
}

}  // namespace cara::actors
