// The messages of the gate handshake (net/gate.h): mutual proof of
// identity over a TLS connection of the pool CA. Each side signs the
// other's fresh nonce together with both CAF node ids, so a proof is bound
// to this pair of nodes and cannot be replayed elsewhere.
#pragma once

#include <caf/actor.hpp>
#include <caf/meta/type_name.hpp>
#include <string>
#include <vector>

namespace cara::net {

struct GateHello {
  std::string certificate;  // the client's, PEM
  std::string nonce;
};
struct GateChallenge {
  bool ok = false;
  std::string reason;
  std::string certificate;  // the gate's node, PEM
  std::string nonce;
  std::string signature;  // over the client's nonce and both node ids
};
struct GateProof {
  std::string signature;  // over the gate's nonce and both node ids
  // An actor of the joining node that lives as long as its connection
  // matters (a node's own gate; a tool's session actor): the gate watches
  // it and forgets the node's identity when it goes.
  caf::actor session;
};
// The node's daemons, by DAEMON_LIST name, once the client is proven.
struct GateWelcome {
  bool ok = false;
  std::string reason;
  std::vector<std::string> names;
  std::vector<caf::actor> daemons;
};
// Local: the master (re)registers a daemon it spawned.
// A proven peer asks again for the node's daemons (one may have been
// restarted and be another actor now); answered with a GateWelcome.
struct GateDirectoryQuery {};
struct GateRegister {
  std::string name;
  caf::actor daemon;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, GateHello& x) {
  return f(caf::meta::type_name("GateHello"), x.certificate, x.nonce);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, GateChallenge& x) {
  return f(caf::meta::type_name("GateChallenge"), x.ok, x.reason, x.certificate, x.nonce, x.signature);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, GateProof& x) {
  return f(caf::meta::type_name("GateProof"), x.signature, x.session);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, GateWelcome& x) {
  return f(caf::meta::type_name("GateWelcome"), x.ok, x.reason, x.names, x.daemons);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, GateRegister& x) {
  return f(caf::meta::type_name("GateRegister"), x.name, x.daemon);
}

// What each side signs: the purpose, the nonce it was given, and the node
// ids of the signer and of the peer.
inline std::string gate_proof_text(const char* role, const std::string& nonce, const std::string& signer,
                                   const std::string& peer) {
  return std::string("caracara-gate/") + role + "\n" + nonce + "\n" + signer + "\n" + peer;
}

template <class I>
typename I::result_type inspect(I& f, GateDirectoryQuery&) {
  return f(caf::meta::type_name("GateDirectoryQuery"));
}

}  // namespace cara::net
