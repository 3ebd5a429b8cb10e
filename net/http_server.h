// The central manager's web endpoint (issue 24): a small HTTP/1.1 server
// on Boost.Beast, plain or over TLS with the node's certificate, that hands
// each request to a handler and writes the handler's answer whenever it
// comes (the handler may answer from another thread). Nothing here knows
// of pools or actors. Every connection is asynchronous on the server's own
// thread, with a deadline on each read and write: a slow or silent client
// is cut off, and one that sends garbage gets a 400; neither holds up
// another client, nor anything outside the server.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "model/common/result.h"

namespace cara::net {

struct HttpRequest {
  std::string method;  // "GET", "HEAD", ...
  std::string target;  // path and query, as sent
  std::string peer;    // the client's address
};

struct HttpResponse {
  unsigned status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
  std::string cache_control = "no-store";
};

// Answers `request` by calling `reply` once, from any thread.
using HttpHandler = std::function<void(HttpRequest request, std::function<void(HttpResponse)> reply)>;

struct HttpServerOptions {
  std::string bind = "127.0.0.1";
  std::uint16_t port = 0;  // 0: any free port (HttpServer::port says which)
  // TLS with these PEM files; empty: plain HTTP.
  std::string certificate, key;
  std::chrono::milliseconds io_timeout{10000};  // per read of a request, per write of an answer
  std::size_t max_connections = 512;            // beyond: answered 503 and closed
  // Whether a client at this address may read; refused ones get 403 with
  // `refusal(address)`'s text.
  std::function<std::optional<std::string>(const std::string& address)> refusal;
};

class HttpServer {
 public:
  // Listens (an error names the address and why), then serves on a thread
  // of its own until stop() or destruction.
  static Result<std::unique_ptr<HttpServer>> start(HttpServerOptions options, HttpHandler handler);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  std::uint16_t port() const;
  bool tls() const;
  // Closes the listener and every connection, and joins the thread.
  void stop();

  struct Impl;

 private:
  explicit HttpServer(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<Impl> impl_;  // shared with the connections, which may outlive stop()
};

}  // namespace cara::net
