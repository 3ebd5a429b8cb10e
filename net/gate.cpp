#include "net/gate.h"

#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/event_based_actor.hpp>
#include <caf/openssl/remote_actor.hpp>
#include <caf/scoped_actor.hpp>
#include <caf/send.hpp>
#include <caf/stateful_actor.hpp>
#include <caf/typed_event_based_actor.hpp>

#include "net/tls_failures.h"

namespace cara::net {
namespace {

constexpr std::size_t kNonceBytes = 32;

// A hello whose proof has not come yet.
struct Pending {
  std::string nonce;        // what the client must sign
  std::string certificate;  // the client's, checked with its proof
  caf::actor_clock::time_point at;
};

// A proof must follow its hello within this; at most this many wait.
constexpr auto kProofWithin = std::chrono::seconds(30);
constexpr std::size_t kMaxPending = 1024;

struct GateState {
  GateSetup setup;
  std::map<caf::node_id, Pending> pending;
  std::map<std::string, caf::actor> daemons;
  std::map<caf::actor_addr, std::pair<caf::node_id, Identity>>
      sessions;  // watched, by the node they speak for
};

using gate_pointer = gate_actor::stateful_pointer<GateState>;

void log(gate_pointer self, os::LogLevel level, const std::string& text) {
  if (self->state.setup.log) self->state.setup.log->write(level, "gate: " + text);
}

// The node's daemons by name, as a welcome: the answer to a proof and to a
// directory query alike.
GateWelcome directory(const GateState& st) {
  GateWelcome w{true, "", {}, {}};
  for (const auto& [name, daemon] : st.daemons) {
    w.names.push_back(name);
    w.daemons.push_back(daemon);
  }
  return w;
}

// Hellos whose proof never came are dropped; beyond the cap new ones are
// refused, so a peer cannot grow the gate without end.
bool room_for_hello(gate_pointer self) {
  auto& pending = self->state.pending;
  if (pending.size() < kMaxPending) return true;
  const auto now = self->clock().now();
  for (auto it = pending.begin(); it != pending.end();)
    it = now - it->second.at > kProofWithin ? pending.erase(it) : std::next(it);
  return pending.size() < kMaxPending;
}

gate_actor::behavior_type gate(gate_pointer self, GateSetup setup) {
  self->state.setup = std::move(setup);
  // A joined node (or tool) is gone: its identity goes too.
  self->set_down_handler([self](caf::down_msg& d) {
    auto it = self->state.sessions.find(d.source);
    if (it == self->state.sessions.end()) return;
    const auto [node, who] = it->second;
    self->state.sessions.erase(it);
    for (const auto& [addr, other] : self->state.sessions)
      if (other.first == node) return;  // it has another session still
    if (self->state.setup.guard) self->state.setup.guard->forget(node);
    log(self, os::LogLevel::Info, "node " + to_string(node) + " (" + who.text() + ") left");
  });
  return {
      [=](GateHello& hello) -> GateChallenge {
        auto& st = self->state;
        auto sender = self->current_sender();
        if (!sender) return GateChallenge{false, "anonymous hello", "", "", ""};
        const std::string peer = to_string(sender->node()), me = to_string(self->system().node());
        // The certificate alone proves nothing; it is checked with the proof.
        auto sig = st.setup.credentials.sign(gate_proof_text("server", hello.nonce, me, peer));
        if (!sig) return GateChallenge{false, sig.error(), "", "", ""};
        if (!st.pending.count(sender->node()) && !room_for_hello(self)) {
          log(self, os::LogLevel::Warning, "refused node " + peer + ": too many unfinished handshakes");
          return GateChallenge{false, "too many unfinished handshakes; try again", "", "", ""};
        }
        Pending p{random_bytes(kNonceBytes), std::move(hello.certificate), self->clock().now()};
        GateChallenge c{true, "", st.setup.credentials.certificate_pem(), p.nonce, *sig};
        st.pending[sender->node()] = std::move(p);
        return c;
      },
      [=](GateProof& proof) -> GateWelcome {
        auto& st = self->state;
        auto sender = self->current_sender();
        if (!sender) return GateWelcome{false, "anonymous proof", {}, {}};
        auto it = st.pending.find(sender->node());
        const std::string peer = to_string(sender->node()), me = to_string(self->system().node());
        if (it == st.pending.end()) {
          log(self, os::LogLevel::Warning, "refused node " + peer + ": a proof without a hello");
          return GateWelcome{false, "a proof without a hello", {}, {}};
        }
        const Pending pending = std::move(it->second);
        st.pending.erase(it);
        auto who = st.setup.anchor.verify(
            pending.certificate, gate_proof_text("client", pending.nonce, peer, me), proof.signature);
        if (!who) {
          log(self, os::LogLevel::Warning, "refused node " + peer + ": " + who.error());
          return GateWelcome{false, who.error(), {}, {}};
        }
        if (self->clock().now() - pending.at > kProofWithin) {
          log(self, os::LogLevel::Warning, "refused node " + peer + ": the proof came too late");
          return GateWelcome{false, "the proof came too late", {}, {}};
        }
        if (st.setup.guard) st.setup.guard->admit(sender->node(), *who);
        if (proof.session && proof.session.node() == sender->node()) {
          self->monitor(proof.session);
          st.sessions[proof.session.address()] = {sender->node(), *who};
        }
        log(self, os::LogLevel::Info, "node " + peer + " proved " + who->text());
        return directory(st);
      },
      [=](GateDirectoryQuery) -> GateWelcome {
        auto& st = self->state;
        auto sender = self->current_sender();
        // Only a peer that proved itself (and is still connected) may ask.
        if (!from_this_node(self) &&
            (!sender || !st.setup.guard || !st.setup.guard->identity(sender->node())))
          return GateWelcome{false, "not a proven peer", {}, {}};
        return directory(st);
      },
      [=](GateRegister& r) {
        // Only this node's master may change the directory.
        if (!from_this_node(self)) return;
        self->state.daemons[r.name] = std::move(r.daemon);
      },
  };
}

}  // namespace

gate_actor spawn_gate(caf::actor_system& sys, GateSetup setup) {
  return sys.spawn(gate, std::move(setup));
}

Result<Joined> join(caf::actor_system& sys, const std::string& host, std::uint16_t port,
                    const Credentials& credentials, const TrustAnchor& anchor, Guard* guard,
                    std::chrono::milliseconds timeout, caf::actor session) {
  const std::string where = host + ":" + std::to_string(port);
  auto remote = caf::openssl::remote_actor<gate_actor>(sys, host, port);
  if (!remote) {
    // The handshake's own reason, when it got that far: a certificate the
    // other side refused (or we refused) is no network trouble.
    if (auto why = tls_connect_failure(host, port))
      return Error{where + ": cannot connect over TLS: " + *why +
                   "; both sides need certificates of the same pool CA (AUTH_SSL_SERVER_CAFILE)"};
    return Error{where + ": cannot connect over TLS (" + sys.render(remote.error()) +
                 "; is it up, and does it trust the same pool CA?)"};
  }
  gate_actor g = *remote;
  const std::string me = to_string(sys.node()), peer = to_string(g.node());
  caf::scoped_actor self{sys};
  const std::string nonce = random_bytes(kNonceBytes);
  std::optional<Error> failure;
  GateChallenge challenge;
  self->request(g, timeout, GateHello{credentials.certificate_pem(), nonce})
      .receive(
          [&](GateChallenge& c) { challenge = std::move(c); },
          [&](caf::error& e) { failure = Error{where + ": no answer to hello (" + sys.render(e) + ")"}; });
  if (failure) return *failure;
  if (!challenge.ok) return Error{where + ": hello refused: " + challenge.reason};
  auto who =
      anchor.verify(challenge.certificate, gate_proof_text("server", nonce, peer, me), challenge.signature);
  if (!who) return Error{where + ": the node did not prove its identity: " + who.error()};
  auto sig = credentials.sign(gate_proof_text("client", challenge.nonce, me, peer));
  if (!sig) return Error{sig.error()};
  std::shared_ptr<const caf::actor> owned;
  if (!session) {
    session = sys.spawn(
        [](caf::event_based_actor*, int) -> caf::behavior {
          return {[](std::int32_t) {}};  // only watched
        },
        0);
    owned = std::shared_ptr<const caf::actor>(new caf::actor(session), [](const caf::actor* a) {
      caf::anon_send_exit(*a, caf::exit_reason::user_shutdown);
      delete a;
    });
  }
  GateWelcome welcome;
  self->request(g, timeout, GateProof{*sig, session})
      .receive(
          [&](GateWelcome& w) { welcome = std::move(w); },
          [&](caf::error& e) { failure = Error{where + ": no answer to proof (" + sys.render(e) + ")"}; });
  if (failure) return *failure;
  if (!welcome.ok) return Error{where + ": refused our identity: " + welcome.reason};
  if (guard) guard->admit(g.node(), *who);
  Joined j{*who, g.node(), g, owned, {}};
  for (std::size_t i = 0; i < welcome.names.size() && i < welcome.daemons.size(); ++i)
    j.daemons[welcome.names[i]] = welcome.daemons[i];
  return j;
}

void add_gate_message_types(caf::actor_system_config& cfg) {
  cfg.add_message_type<GateHello>("cara::GateHello")
      .add_message_type<GateChallenge>("cara::GateChallenge")
      .add_message_type<GateProof>("cara::GateProof")
      .add_message_type<GateWelcome>("cara::GateWelcome")
      .add_message_type<GateRegister>("cara::GateRegister")
      .add_message_type<GateDirectoryQuery>("cara::GateDirectoryQuery");
}

}  // namespace cara::net
