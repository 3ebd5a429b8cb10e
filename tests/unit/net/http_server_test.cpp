// The web endpoint's HTTP server (net/http_server.h): answers from other
// threads, keep-alive, HEAD, 4xx for malformed requests, 403 for refused
// clients, a bounded load loop of 10,000 requests, slow and silent clients
// cut off without holding up others, HTTPS with the pool's certificates.
#include "net/http_server.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>
#include <vector>

#include "net/pki.h"
#include "tests/support/http_client.h"
#include "tests/support/scratch.h"

using namespace cara;
using namespace std::chrono_literals;
using test::HttpConnection;

namespace {

// Answers "<method> <target>" at once, or from another thread after a
// pause for /slow.
std::unique_ptr<net::HttpServer> echo_server(net::HttpServerOptions options = {}) {
  auto server = net::HttpServer::start(std::move(options), [](net::HttpRequest r, auto reply) {
    net::HttpResponse a;
    a.body = r.method + " " + r.target + " from " + r.peer;
    if (r.target == "/slow") {
      std::thread([reply, a] {
        std::this_thread::sleep_for(200ms);
        reply(a);
      }).detach();
      return;
    }
    reply(a);
  });
  REQUIRE(server);
  return std::move(*server);
}

}  // namespace

TEST_CASE("the HTTP server answers GET and HEAD, on one connection kept alive", "[net][web]") {
  auto server = echo_server();
  REQUIRE(server->port() != 0);
  HttpConnection c(server->port());
  auto a = c.request("/metrics?x=1");
  REQUIRE(a);
  CHECK(a->status == 200);
  CHECK(a->body == "GET /metrics?x=1 from 127.0.0.1");
  CHECK(a->header("Cache-Control") == "no-store");
  // An answer given later from another thread, on the same connection.
  auto b = c.request("/slow");
  REQUIRE(b);
  CHECK(b->body == "GET /slow from 127.0.0.1");
  auto h = c.request("/x", "HEAD");
  REQUIRE(h);
  CHECK(h->status == 200);
  CHECK(h->header("Content-Length") == "22");  // that of the GET's body
}

TEST_CASE("a malformed request gets a 400 with a message, and the server goes on", "[net][web]") {
  auto server = echo_server();
  for (const std::string& garbage :
       {std::string("NOT HTTP AT ALL\r\n\r\n"), std::string("GET / HTTP/9.9\r\n\r\n"),
        std::string("GET / HTTP/1.1\r\nBad Header Line\r\n\r\n"),
        std::string("GET / HTTP/1.1\r\nHost: x\r\nX: ") + std::string(20000, 'a') + "\r\n\r\n"}) {
    HttpConnection c(server->port());
    REQUIRE(c.send_raw(garbage));
    auto r = c.read_reply();
    REQUIRE(r);
    CHECK(r->status == 400);
    CHECK(r->body.find("malformed HTTP request") != std::string::npos);
    CHECK(c.closed_within(2s));
  }
  auto ok = test::http_get(server->port(), "/");
  REQUIRE(ok);
  CHECK(ok->status == 200);
}

TEST_CASE("a client ALLOW_READ refuses gets a 403 naming why", "[net][web]") {
  net::HttpServerOptions o;
  o.refusal = [](const std::string& address) -> std::optional<std::string> {
    return "READ refused to unauthenticated@unmapped/" + address;
  };
  auto server = echo_server(o);
  auto r = test::http_get(server->port(), "/metrics");
  REQUIRE(r);
  CHECK(r->status == 403);
  CHECK(r->body == "READ refused to unauthenticated@unmapped/127.0.0.1\n");
}

TEST_CASE("slow and silent clients are cut off and hold up no one", "[net][web]") {
  net::HttpServerOptions o;
  o.io_timeout = 500ms;
  auto server = echo_server(o);
  // Clients that connect and say nothing, or half a request, and wait.
  std::vector<std::unique_ptr<HttpConnection>> idle;
  for (int i = 0; i < 20; ++i) {
    idle.push_back(std::make_unique<HttpConnection>(server->port()));
    if (i % 2) REQUIRE(idle.back()->send_raw("GET /metrics HTTP/1.1\r\nHost: 1"));
  }
  // Meanwhile another client is served at once.
  const auto t0 = std::chrono::steady_clock::now();
  auto r = test::http_get(server->port(), "/now");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(std::chrono::steady_clock::now() - t0 < 400ms);
  // And the silent ones are closed after the deadline.
  for (auto& c : idle) CHECK(c->closed_within(5s));
}

TEST_CASE("the HTTP server survives a bounded loop of 10,000 requests", "[net][web]") {
  auto server = echo_server();
  std::atomic<int> ok{0}, failed{0};
  std::vector<std::thread> clients;
  for (int t = 0; t < 4; ++t)
    clients.emplace_back([&, t] {
      // Half the requests on kept-alive connections, half each on its own.
      auto conn = std::make_unique<HttpConnection>(server->port());
      for (int i = 0; i < 2500; ++i) {
        std::optional<test::HttpReply> r;
        if (i % 2 == 0) {
          if (!conn->open()) conn = std::make_unique<HttpConnection>(server->port());
          r = conn->request("/metrics?t=" + std::to_string(t));
        } else {
          r = test::http_get(server->port(), "/api/v1/status");
        }
        (r && r->status == 200 ? ok : failed)++;
      }
    });
  for (auto& c : clients) c.join();
  CHECK(failed == 0);
  CHECK(ok == 10000);
  auto after = test::http_get(server->port(), "/still-here");
  REQUIRE(after);
  CHECK(after->status == 200);
}

TEST_CASE("connections beyond the limit get a 503", "[net][web]") {
  net::HttpServerOptions o;
  o.max_connections = 2;
  auto server = echo_server(o);
  HttpConnection a(server->port()), b(server->port());
  REQUIRE(a.request("/"));
  REQUIRE(b.request("/"));
  auto c = test::http_get(server->port(), "/");
  REQUIRE(c);
  CHECK(c->status == 503);
  a.close();
  b.close();
  // Once they are gone, a new client is served again.
  bool served = false;
  for (int i = 0; i < 50 && !served; ++i) {
    auto d = test::http_get(server->port(), "/");
    served = d && d->status == 200;
    if (!served) std::this_thread::sleep_for(20ms);
  }
  CHECK(served);
}

TEST_CASE("a port in use is an error naming the address", "[net][web]") {
  auto first = echo_server();
  net::HttpServerOptions o;
  o.port = first->port();
  o.bind = "127.0.0.1";
  auto second = net::HttpServer::start(o, [](net::HttpRequest, auto reply) { reply({}); });
  REQUIRE_FALSE(second);
  CHECK(second.error().find("cannot listen on 127.0.0.1:" + std::to_string(first->port())) !=
        std::string::npos);
  o.bind = "not-an-address";
  auto third = net::HttpServer::start(o, [](net::HttpRequest, auto reply) { reply({}); });
  REQUIRE_FALSE(third);
  CHECK(third.error() == "web endpoint: 'not-an-address' is not an IP address");
}

TEST_CASE("HTTPS with the pool's certificates", "[net][web][tls]") {
  scratch::TempDir dir("web-tls");
  REQUIRE(net::create_ca(dir / "ca", "test pool", 30));
  REQUIRE(
      net::issue_certificate(dir / "ca", dir / "cm", net::CertificateSpec{"127.0.0.1", "condor@pool", 30}));
  net::HttpServerOptions o;
  o.certificate = dir / "cm.pem";
  o.key = dir / "cm.key";
  auto server = echo_server(o);
  CHECK(server->tls());

  // A TLS client that trusts only the pool CA and checks the host.
  SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
  REQUIRE(SSL_CTX_load_verify_locations(ctx, (dir / "ca/ca.pem").c_str(), nullptr) == 1);
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(server->port());
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  SSL* ssl = SSL_new(ctx);
  SSL_set_fd(ssl, fd);
  SSL_set1_host(ssl, "127.0.0.1");
  REQUIRE(SSL_connect(ssl) == 1);
  CHECK(SSL_get_verify_result(ssl) == X509_V_OK);
  const std::string req = "GET /secure HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
  REQUIRE(SSL_write(ssl, req.data(), static_cast<int>(req.size())) == static_cast<int>(req.size()));
  std::string got;
  char buf[4096];
  for (int n; (n = SSL_read(ssl, buf, sizeof buf)) > 0;) got.append(buf, static_cast<std::size_t>(n));
  CHECK(got.rfind("HTTP/1.1 200", 0) == 0);
  CHECK(got.find("GET /secure from 127.0.0.1") != std::string::npos);
  SSL_free(ssl);
  ::close(fd);
  SSL_CTX_free(ctx);

  // Plain HTTP to the HTTPS port gets nothing but a closed connection.
  HttpConnection plain(server->port(), 3s);
  CHECK_FALSE(plain.request("/"));
}

TEST_CASE("a certificate that cannot be read is an error naming the file", "[net][web][tls]") {
  net::HttpServerOptions o;
  o.certificate = "/nonexistent/cm.pem";
  o.key = "/nonexistent/cm.key";
  auto server = net::HttpServer::start(o, [](net::HttpRequest, auto reply) { reply({}); });
  REQUIRE_FALSE(server);
  CHECK(server.error().find("cannot read certificate /nonexistent/cm.pem") != std::string::npos);
}
