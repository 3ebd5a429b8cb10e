// The commands a node with a schedd takes on its local socket
// (net/local_socket.h): `cara submit` and `cara q` from this machine's
// users, who the kernel says they are (SO_PEERCRED), checked against
// ALLOW_WRITE and ALLOW_READ like a remote peer.
#pragma once

#include <caf/fwd.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "actors/handles.h"
#include "net/guard.h"
#include "net/local_socket.h"

namespace cara::apps {

// Answers one request ({"command": "submit" | "q", ...}) from `peer`, a
// user of UID_DOMAIN `domain` on `host`, through the node's schedd.
// `certified`: a tool's request sent on over TLS to another node's schedd
// (cara q -name): that schedd knows the asker by its certificate and makes
// the checks (root's jobs refused there too), not this process's uid.
// A submit that asks for "progress" has the schedd's SubmitProgress told
// to `note` ({"built": N, "total": T}) before the answer.
// `self` asks the schedd (and receives its answer): the caller's own,
// used on its thread alone.
nlohmann::json handle_local(caf::scoped_actor& self, const actors::schedd_actor& schedd,
                            const net::Guard& guard, const std::string& domain, const std::string& host,
                            const nlohmann::json& request, const net::LocalPeer& peer, bool certified = false,
                            const net::ProgressNote& note = {});

}  // namespace cara::apps
