#include "net/tls_failures.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <sys/socket.h>

#include <map>
#include <mutex>

namespace cara::net {
namespace {

using Clock = std::chrono::steady_clock;

struct Failures {
  std::mutex mutex;
  std::function<void(const std::string&)> log;
  std::chrono::seconds interval{60};
  std::map<std::string, Clock::time_point> logged;                              // peer ip + reason
  std::map<std::string, std::pair<std::string, Clock::time_point>> connecting;  // ip:port -> reason
};

Failures& failures() {
  static Failures f;
  return f;
}

std::string address_text(const sockaddr* sa, bool with_port) {
  char host[INET6_ADDRSTRLEN] = "?";
  unsigned port = 0;
  if (sa->sa_family == AF_INET) {
    auto in = reinterpret_cast<const sockaddr_in*>(sa);
    ::inet_ntop(AF_INET, &in->sin_addr, host, sizeof host);
    port = ntohs(in->sin_port);
  } else if (sa->sa_family == AF_INET6) {
    auto in = reinterpret_cast<const sockaddr_in6*>(sa);
    ::inet_ntop(AF_INET6, &in->sin6_addr, host, sizeof host);
    port = ntohs(in->sin6_port);
  }
  return with_port ? std::string(host) + ":" + std::to_string(port) : std::string(host);
}

std::string peer_of(SSL* ssl, bool with_port) {
  sockaddr_storage sa{};
  socklen_t len = sizeof sa;
  const int fd = SSL_get_fd(ssl);
  if (fd < 0 || ::getpeername(fd, reinterpret_cast<sockaddr*>(&sa), &len) != 0) return "an unknown peer";
  return address_text(reinterpret_cast<sockaddr*>(&sa), with_port);
}

// OpenSSL's words for a fatal handshake failure: the certificate check
// first (the usual cause: a certificate of another CA), else the first
// error queued.
std::string reason_of(SSL* ssl) {
  const long verify = SSL_get_verify_result(ssl);
  if (verify != X509_V_OK)
    return std::string("its certificate is not the pool CA's (") + X509_verify_cert_error_string(verify) +
           ")";
  const unsigned long e = ERR_peek_error();
  const char* text = e ? ERR_reason_error_string(e) : nullptr;
  if (!text) return "the TLS handshake failed";
  const std::string t = text;
  // OpenSSL's terse words for the usual causes, explained.
  if (t.find("unknown ca") != std::string::npos || t.find("bad certificate") != std::string::npos)
    return "the other side does not trust this node's certificate (" + t + ")";
  if (t.find("certificate required") != std::string::npos ||
      t.find("did not return a certificate") != std::string::npos)
    return "it sent no certificate (" + t + ")";
  if (t.find("wrong version number") != std::string::npos || t.find("http request") != std::string::npos)
    return "it does not speak TLS (" + t + ")";
  return t;
}

// Whether a failed handshake was about certificates: ours refused by the
// peer (its alert), or its refused by us (the verification).
bool is_certificate_refusal(SSL* ssl) {
  if (SSL_get_verify_result(ssl) != X509_V_OK) return true;
  const unsigned long e = ERR_peek_error();
  const char* text = e ? ERR_reason_error_string(e) : nullptr;
  if (!text) return false;
  const std::string t = text;
  return t.find("certificate") != std::string::npos || t.find("unknown ca") != std::string::npos;
}

}  // namespace

void set_tls_refusal_log(std::function<void(const std::string&)> log, std::chrono::seconds interval) {
  Failures& f = failures();
  std::lock_guard<std::mutex> lock(f.mutex);
  f.log = std::move(log);
  f.interval = interval;
  f.logged.clear();
}

void observe_handshake(void* raw, int result, bool accepting) {
  if (result > 0) return;
  SSL* ssl = static_cast<SSL*>(raw);
  if (SSL_get_error(ssl, result) != SSL_ERROR_SSL) return;  // would block, or the peer left
  const std::string reason = reason_of(ssl);
  Failures& f = failures();
  std::function<void(const std::string&)> log;
  std::string message;
  {
    std::lock_guard<std::mutex> lock(f.mutex);
    const auto now = Clock::now();
    if (!accepting) {
      // Only a certificate refused, by either side, is kept: a node stops
      // joining for that, not for a connection that merely broke.
      if (is_certificate_refusal(ssl)) f.connecting[peer_of(ssl, true)] = {reason, now};
      return;
    }
    const std::string peer = peer_of(ssl, false);
    auto& last = f.logged[peer + " " + reason];
    if (!f.log || (last != Clock::time_point{} && now - last < f.interval)) return;
    last = now;
    log = f.log;
    message = "refused a TLS connection from " + peer_of(ssl, true) + ": " + reason +
              " (logged once per peer every " + std::to_string(f.interval.count()) + " s)";
  }
  log(message);
}

void observe_client_read(void* raw, int result) {
  if (result > 0) return;
  SSL* ssl = static_cast<SSL*>(raw);
  if (SSL_get_error(ssl, result) != SSL_ERROR_SSL) return;
  const unsigned long e = ERR_peek_error();
  const char* text = e ? ERR_reason_error_string(e) : nullptr;
  if (!text || std::string(text).find("alert") == std::string::npos) return;  // an end, not a refusal
  observe_handshake(raw, result, false);
}

std::optional<std::string> tls_connect_failure(const std::string& host, unsigned port) {
  std::vector<std::string> keys{host + ":" + std::to_string(port)};
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (::getaddrinfo(host.c_str(), nullptr, &hints, &found) == 0) {
    for (addrinfo* a = found; a; a = a->ai_next)
      keys.push_back(address_text(a->ai_addr, false) + ":" + std::to_string(port));
    ::freeaddrinfo(found);
  }
  Failures& f = failures();
  std::lock_guard<std::mutex> lock(f.mutex);
  for (const std::string& k : keys) {
    auto it = f.connecting.find(k);
    if (it != f.connecting.end() && Clock::now() - it->second.second < std::chrono::minutes(1))
      return it->second.first;
  }
  return std::nullopt;
}

}  // namespace cara::net
