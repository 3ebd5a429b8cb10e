#include "net/tls_error_queue.h"

#include <dlfcn.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include "net/tls_failures.h"

namespace {

template <class Fn>
Fn openssl_function(const char* name) {
  // RTLD_NEXT: the definition after this executable's, i.e. libssl's.
  return reinterpret_cast<Fn>(::dlsym(RTLD_NEXT, name));
}

using ReadWrite = int (*)(SSL*, void*, int);
using ConstWrite = int (*)(SSL*, const void*, int);
using Handshake = int (*)(SSL*);

}  // namespace

extern "C" {

int SSL_read(SSL* ssl, void* buf, int num) {
  static const ReadWrite real = openssl_function<ReadWrite>("SSL_read");
  ERR_clear_error();
  const int r = real(ssl, buf, num);
  // With TLS 1.3 a client's handshake ends before the server has checked
  // its certificate: a refusal arrives as an alert on the first read.
  if (r <= 0 && !SSL_is_server(ssl)) cara::net::observe_client_read(ssl, r);
  return r;
}

int SSL_write(SSL* ssl, const void* buf, int num) {
  static const ConstWrite real = openssl_function<ConstWrite>("SSL_write");
  ERR_clear_error();
  return real(ssl, buf, num);
}

// The handshakes also tell why one failed (tls_failures.h).
int SSL_connect(SSL* ssl) {
  static const Handshake real = openssl_function<Handshake>("SSL_connect");
  ERR_clear_error();
  const int r = real(ssl);
  cara::net::observe_handshake(ssl, r, false);
  return r;
}

int SSL_accept(SSL* ssl) {
  static const Handshake real = openssl_function<Handshake>("SSL_accept");
  ERR_clear_error();
  const int r = real(ssl);
  cara::net::observe_handshake(ssl, r, true);
  return r;
}

}  // extern "C"

namespace cara::net {

bool tls_error_queue_guarded() {
  return ::dlsym(RTLD_DEFAULT, "SSL_read") == reinterpret_cast<void*>(&SSL_read);
}

}  // namespace cara::net
