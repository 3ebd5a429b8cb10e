// The schedd's half of the claim exchange as messages: what the claim
// model (model/claim/schedd_claims.h) decides is sent here, and each
// answer goes back to it. Nothing here decides what happens to a claim.
#include <caf/actor_system.hpp>
#include <caf/io/middleman_actor.hpp>
#include <variant>

#include "actors/schedd_state.h"
#include "actors/system_accounts.h"
#include "model/classad/eval.h"
#include "net/address.h"

namespace cara::actors {
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

void request_claim(ScheddSelf self, const claim::RequestClaim& r) {
  auto& st = self->state;
  const slot_actor slot = st.slots.get(r.slot);
  const classad::ClassAd* job = st.queue->find(r.job);
  if (!slot || !job) return carry_out(self, st.claims->refused(r.claim_id));
  self->request(slot, caf::infinite,
                ClaimSlot{r.claim_id, WireAd{*job}, r.preempting, handle_of(self), r.preempt_dslots,
                          st.claim_leftovers})
      .then(
          [self, id = r.claim_id](ClaimReply& reply) {
            auto& st = self->state;
            if (!reply.ok) return carry_out(self, st.claims->refused(id));
            claim::Grant grant{st.slots.ref(reply.slot), reply.slot_name, std::move(reply.slot_ad.ad),
                               std::move(reply.leftover_claim_id), std::move(reply.leftover_ad.ad)};
            carry_out(self, st.claims->granted(id, std::move(grant)));
          },
          [self, id = r.claim_id](caf::error&) { carry_out(self, self->state.claims->refused(id)); });
}

void activate(ScheddSelf self, const claim::Activate& a, const ScheddSetup& setup) {
  auto& st = self->state;
  const slot_actor slot = st.slots.get(a.slot);
  const classad::ClassAd* job = st.queue->find(a.job);
  if (!slot || !job)
    return carry_out(self, st.claims->activated(a.claim_id, a.job, false, setup.clock.now(self)));
  // The owner's ids here, for an execution point with SOFT_UID_DOMAIN.
  ActivateClaim activation{a.claim_id, WireAd{*job}, -1, -1};
  if (const Account* owner = owner_account(self, schedd::string_attr(*job, "Owner"))) {
    activation.owner_uid = owner->uid;
    activation.owner_gid = owner->gid;
  }
  auto answer = [self, id = a.claim_id, j = a.job](bool ok) {
    const ScheddSetup& setup = *self->state.setup;
    carry_out(self, self->state.claims->activated(id, j, ok, setup.clock.now(self)));
  };
  self->request(slot, kSlotTimeout, std::move(activation))
      .then([answer](ActivateReply& r) { answer(r.ok); }, [answer](caf::error&) { answer(false); });
}

void act(ScheddSelf self, const claim::Action& action, const ScheddSetup& setup) {
  auto& st = self->state;
  std::visit(Overloaded{
                 [&](const claim::RequestClaim& r) { request_claim(self, r); },
                 [&](const claim::Activate& a) { activate(self, a, setup); },
                 [&](const claim::Release& r) {
                   if (slot_actor slot = st.slots.get(r.slot)) self->send(slot, ReleaseSlot{r.claim_id});
                 },
                 [&](const claim::Watch& w) {
                   if (slot_actor slot = st.slots.get(w.slot)) self->monitor(slot);
                 },
                 [&](const claim::Unwatch& w) {
                   // One demonitor drops every monitor of the slot.
                   if (slot_actor slot = st.slots.get(w.slot))
                     self->demonitor(caf::actor_cast<caf::actor_addr>(slot));
                   st.slots.forget(w.slot);
                 },
                 [&](const claim::Note& n) {
                   if (n.warning)
                     setup.context.warning(n.text);
                   else
                     setup.context.info(n.text);
                 },
             },
             action);
}

}  // namespace

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

// The outcome's queue changes are stored before its actions go out (a job
// is not started, released or requeued on the word of a change a crash
// could undo), and its actions follow every earlier outcome's.
void carry_out(ScheddSelf self, claim::Outcome out) {
  auto& st = self->state;
  if (out.queue_changed) changed(self);
  if (out.claims_changed) st.dirty = true;
  if (out.reschedule) st.reschedule = true;
  if (out.actions.empty()) return;
  after_commit(self, [self, actions = std::move(out.actions)] {
    for (const claim::Action& action : actions) act(self, action, *self->state.setup);
  });
}

// Claims over a connection of our own to the slot's node: a message
// through the central manager would arrive too, but the slot's death
// would not (CAF reports a node's loss only to nodes connected to it).
void claim_match(ScheddSelf self, MatchInfo m, const ScheddSetup& setup) {
  auto offer = [self](MatchInfo& m) {
    auto& st = self->state;
    claim::Offer o{
        std::move(m.claim_id), std::move(m.submitter), std::move(m.slot_name), std::move(m.slot_ad.ad),
        st.slots.ref(m.slot),  std::move(m.job_ids),   m.preempting,           std::move(m.preempt_dslots)};
    carry_out(self, st.claims->offered(std::move(o)));
  };
  const caf::node_id node = m.slot ? m.slot.node() : caf::node_id{};
  classad::Value my_address = classad::evaluate_attr(m.slot_ad.ad, "MyAddress");
  auto address = my_address.is_string()
                     ? net::parse_host_port(std::string(my_address.as_string()), "MyAddress")
                     : Result<net::HostPort>(Error{"no MyAddress"});
  if (!setup.middleman || !m.slot || node == self->system().node() || self->state.direct.count(node) ||
      !address)
    return offer(m);
  auto mm = caf::actor_cast<caf::io::middleman_actor>(setup.middleman);
  self->request(mm, kSlotTimeout, caf::connect_atom::value, address->host, address->port)
      .then(
          [self, m, offer, node](const caf::node_id&, caf::strong_actor_ptr&,
                                 std::set<std::string>&) mutable {
            self->state.direct.insert(node);
            offer(m);
          },
          [self, m, offer, where = *address](caf::error& e) mutable {
            self->state.setup->context.warning("cannot connect to " + where.host + ":" +
                                               std::to_string(where.port) + " (" + caf::to_string(e) +
                                               "); claiming through the central manager");
            offer(m);
          });
}

}  // namespace cara::actors
