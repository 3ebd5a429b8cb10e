// Why a TLS handshake failed, as OpenSSL says it, seen from the
// interposed SSL_accept and SSL_connect (tls_error_queue.cpp). CAF's TLS
// layer drops a refused peer silently on the refusing side and tells the
// connecting side only "cannot connect"; with this, the refusing node logs
// who was refused and why (once per peer and interval), and a node that
// cannot join says why (its certificate is not the pool CA's, say).
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>

namespace cara::net {

// Where refused peers are logged (a node's MasterLog); each peer address
// and reason at most once per `interval`. Null: not logged.
void set_tls_refusal_log(std::function<void(const std::string&)> log,
                         std::chrono::seconds interval = std::chrono::seconds(60));

// Why the last handshake with host:port (this side connecting) failed over
// a certificate — ours refused, or the peer's — if it did within the last
// minute. A connection that broke otherwise is not remembered. `host` may be a name: its addresses
// are looked up.
std::optional<std::string> tls_connect_failure(const std::string& host, unsigned port);

// Called by the interposed handshake functions with the handshake's
// result: a fatal one is recorded and, when accepting, logged.
void observe_handshake(void* ssl, int result, bool accepting);
// Called by the interposed SSL_read of a client connection: a TLS alert
// (the server refusing our certificate, which TLS 1.3 tells only after the
// client's handshake) is recorded as the connection's failure.
void observe_client_read(void* ssl, int result);

}  // namespace cara::net
