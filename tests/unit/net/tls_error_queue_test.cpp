// OpenSSL's error queue is cleared before each TLS I/O call
// (net/tls_error_queue.h): a stale error left by one dead connection must not
// make a healthy connection's "would block" look fatal.
#include "net/tls_error_queue.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <memory>

#include "net/pki.h"
#include "tests/support/scratch.h"

namespace fs = std::filesystem;

namespace {

using Ctx = std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)>;
using Ssl = std::unique_ptr<SSL, decltype(&SSL_free)>;

// A client and a server joined by an in-memory BIO pair, handshake done.
struct Connection {
  cara::scratch::TempDir scratch{"tls"};
  fs::path dir = scratch.path;
  Ctx server_ctx{SSL_CTX_new(TLS_server_method()), SSL_CTX_free};
  Ctx client_ctx{SSL_CTX_new(TLS_client_method()), SSL_CTX_free};
  Ssl server{nullptr, SSL_free}, client{nullptr, SSL_free};

  Connection() {
    REQUIRE(cara::net::create_ca((dir / "ca").string(), "test pool", 1).ok());
    REQUIRE(cara::net::issue_certificate((dir / "ca").string(), (dir / "node").string(),
                                         {"127.0.0.1", "condor@pool", 1})
                .ok());
    REQUIRE(SSL_CTX_use_certificate_chain_file(server_ctx.get(), (dir / "node.pem").c_str()) == 1);
    REQUIRE(SSL_CTX_use_PrivateKey_file(server_ctx.get(), (dir / "node.key").c_str(), SSL_FILETYPE_PEM) == 1);
    server.reset(SSL_new(server_ctx.get()));
    client.reset(SSL_new(client_ctx.get()));
    BIO *a = nullptr, *b = nullptr;
    REQUIRE(BIO_new_bio_pair(&a, 0, &b, 0) == 1);
    SSL_set_bio(client.get(), a, a);
    SSL_set_bio(server.get(), b, b);
    SSL_set_connect_state(client.get());
    SSL_set_accept_state(server.get());
    bool client_done = false, server_done = false;
    for (int round = 0; round < 20 && !(client_done && server_done); ++round) {
      client_done = client_done || SSL_do_handshake(client.get()) == 1;
      server_done = server_done || SSL_do_handshake(server.get()) == 1;
    }
    REQUIRE(client_done);
    REQUIRE(server_done);
    ERR_clear_error();
  }
};

// What the end of another connection leaves behind (CAF never drains it).
void leave_stale_error() {
  ERR_raise(ERR_LIB_SSL, SSL_R_UNEXPECTED_EOF_WHILE_READING);
}

}  // namespace

TEST_CASE("the process's OpenSSL I/O calls are the guarded ones", "[net][tls]") {
  CHECK(cara::net::tls_error_queue_guarded());
}

TEST_CASE("a stale OpenSSL error does not turn a blocked read into a failure", "[net][tls]") {
  Connection c;
  char buf[16];
  // Data flows both ways, then a read that would block.
  REQUIRE(SSL_write(c.server.get(), "ping", 4) == 4);
  REQUIRE(SSL_read(c.client.get(), buf, sizeof buf) == 4);
  leave_stale_error();
  const int r = SSL_read(c.client.get(), buf, sizeof buf);
  CHECK(r <= 0);
  CHECK(SSL_get_error(c.client.get(), r) == SSL_ERROR_WANT_READ);
  leave_stale_error();
  CHECK(SSL_write(c.client.get(), "pong", 4) == 4);
  CHECK(SSL_read(c.server.get(), buf, sizeof buf) == 4);
  leave_stale_error();
  const int s = SSL_read(c.server.get(), buf, sizeof buf);
  CHECK(SSL_get_error(c.server.get(), s) == SSL_ERROR_WANT_READ);
  ERR_clear_error();
}
