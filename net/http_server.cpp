#include "net/http_server.h"

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <mutex>
#include <thread>
#include <type_traits>

namespace cara::net {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

constexpr std::size_t kHeaderLimit = 16 * 1024;  // a GET needs far less
constexpr std::size_t kBodyLimit = 64 * 1024;

using PlainStream = beast::tcp_stream;
using TlsStream = beast::ssl_stream<beast::tcp_stream>;

}  // namespace

struct HttpServer::Impl {
  HttpServerOptions options;
  HttpHandler handler;
  asio::io_context io{1};
  std::optional<asio::ssl::context> ssl;
  tcp::acceptor acceptor{io};
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work;
  std::thread thread;
  std::atomic<std::size_t> connections{0};
  // Replies come from other threads: none is posted once stopping began,
  // so every handler posted runs before the server's thread ends.
  std::mutex post_mutex;
  bool stopped = false;
  // The live sessions' sockets, closed on stop (weak: a session ends on its own).
  std::vector<std::weak_ptr<void>> sessions;
  std::vector<std::function<void()>> closers;
  std::mutex sessions_mutex;

  void accept(std::shared_ptr<Impl> self);
};

namespace {

// The client's address as text (empty when the socket has none).
std::string peer_of(const tcp::socket& s) {
  beast::error_code ec;
  const auto ep = s.remote_endpoint(ec);
  return ec ? std::string() : ep.address().to_string();
}

HttpResponse plain_answer(unsigned status, std::string text) {
  HttpResponse r;
  r.status = status;
  r.body = std::move(text) + "\n";
  return r;
}

template <class Stream>
class Session : public std::enable_shared_from_this<Session<Stream>> {
 public:
  template <class... Args>
  Session(std::shared_ptr<HttpServer::Impl> server, bool overloaded, tcp::socket socket, Args&&... args)
      : server_(std::move(server)),
        overloaded_(overloaded),
        peer_(peer_of(socket)),
        stream_(std::move(socket), std::forward<Args>(args)...) {}
  ~Session() { server_->connections.fetch_sub(1); }

  void start() {
    if constexpr (std::is_same_v<Stream, TlsStream>) {
      beast::get_lowest_layer(stream_).expires_after(server_->options.io_timeout);
      stream_.async_handshake(asio::ssl::stream_base::server,
                              [self = this->shared_from_this()](beast::error_code ec) {
                                if (!ec) self->read();
                              });
    } else {
      read();
    }
  }

  void close() {
    beast::error_code ec;
    beast::get_lowest_layer(stream_).socket().shutdown(tcp::socket::shutdown_both, ec);
    beast::get_lowest_layer(stream_).close();
  }

 private:
  void read() {
    parser_.emplace();
    parser_->header_limit(kHeaderLimit);
    parser_->body_limit(kBodyLimit);
    beast::get_lowest_layer(stream_).expires_after(server_->options.io_timeout);
    http::async_read(
        stream_, buffer_, *parser_,
        [self = this->shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
  }

  void on_read(beast::error_code ec) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout ||
        ec == asio::error::operation_aborted || ec == asio::error::connection_reset || ec == asio::error::eof)
      return;  // gone, or too slow: nothing to answer
    if (ec) {
      keep_alive_ = false;
      write(plain_answer(400, "malformed HTTP request: " + ec.message()));
      return;
    }
    const auto& req = parser_->get();
    keep_alive_ = req.keep_alive();
    head_ = req.method() == http::verb::head;
    if (overloaded_) {
      keep_alive_ = false;
      write(plain_answer(503, "too many connections; try again"));
      return;
    }
    if (server_->options.refusal) {
      if (auto no = server_->options.refusal(peer_)) {
        write(plain_answer(403, *no));
        return;
      }
    }
    HttpRequest r{std::string(req.method_string()), std::string(req.target()), peer_};
    server_->handler(std::move(r), [self = this->shared_from_this()](HttpResponse answer) {
      auto& server = *self->server_;
      std::lock_guard<std::mutex> lock(server.post_mutex);
      if (server.stopped) return;
      asio::post(self->stream_.get_executor(),
                 [self, answer = std::move(answer)]() mutable { self->write(std::move(answer)); });
    });
  }

  void write(HttpResponse answer) {
    auto res =
        std::make_shared<http::response<http::string_body>>(static_cast<http::status>(answer.status), 11);
    res->set(http::field::server, "caracara");
    res->set(http::field::content_type, answer.content_type);
    res->set(http::field::cache_control, answer.cache_control);
    res->set("X-Content-Type-Options", "nosniff");
    res->keep_alive(keep_alive_);
    res->body() = std::move(answer.body);
    res->prepare_payload();
    if (head_) res->body().clear();  // Content-Length stays that of the GET
    beast::get_lowest_layer(stream_).expires_after(server_->options.io_timeout);
    http::async_write(stream_, *res,
                      [self = this->shared_from_this(), res](beast::error_code ec, std::size_t) {
                        if (ec || !self->keep_alive_) return self->close();
                        self->read();
                      });
  }

  std::shared_ptr<HttpServer::Impl> server_;  // first: outlives the stream
  bool overloaded_;
  std::string peer_;
  Stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  bool keep_alive_ = false, head_ = false;
};

template <class Stream, class... Args>
void open_session(const std::shared_ptr<HttpServer::Impl>& server, tcp::socket socket, Args&&... args) {
  const bool overloaded = server->connections.fetch_add(1) >= server->options.max_connections;
  auto s =
      std::make_shared<Session<Stream>>(server, overloaded, std::move(socket), std::forward<Args>(args)...);
  {
    std::lock_guard<std::mutex> lock(server->sessions_mutex);
    // Forget sessions that ended, so the list stays as long as the live ones.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < server->sessions.size(); ++i)
      if (!server->sessions[i].expired()) {
        server->sessions[kept] = std::move(server->sessions[i]);
        server->closers[kept] = std::move(server->closers[i]);
        ++kept;
      }
    server->sessions.resize(kept);
    server->closers.resize(kept);
    std::weak_ptr<Session<Stream>> weak = s;
    server->sessions.push_back(weak);
    server->closers.push_back([weak] {
      if (auto live = weak.lock()) live->close();
    });
  }
  s->start();
}

}  // namespace

void HttpServer::Impl::accept(std::shared_ptr<Impl> self) {
  acceptor.async_accept(asio::make_strand(io), [self](beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || !self->acceptor.is_open()) return;
    if (!ec) {
      if (self->ssl)
        open_session<TlsStream>(self, std::move(socket), *self->ssl);
      else
        open_session<PlainStream>(self, std::move(socket));
    }
    self->accept(self);
  });
}

Result<std::unique_ptr<HttpServer>> HttpServer::start(HttpServerOptions options, HttpHandler handler) {
  auto impl = std::make_shared<Impl>();
  impl->options = std::move(options);
  impl->handler = std::move(handler);
  const std::string where = impl->options.bind + ":" + std::to_string(impl->options.port);
  if (!impl->options.certificate.empty() || !impl->options.key.empty()) {
    impl->ssl.emplace(asio::ssl::context::tls_server);
    impl->ssl->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                           asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                           asio::ssl::context::no_tlsv1_1);
    beast::error_code ec;
    impl->ssl->use_certificate_chain_file(impl->options.certificate, ec);
    if (ec)
      return Error{"web endpoint: cannot read certificate " + impl->options.certificate + ": " +
                   ec.message()};
    impl->ssl->use_private_key_file(impl->options.key, asio::ssl::context::pem, ec);
    if (ec) return Error{"web endpoint: cannot read key " + impl->options.key + ": " + ec.message()};
  }
  beast::error_code ec;
  const auto address = asio::ip::make_address(impl->options.bind, ec);
  if (ec) return Error{"web endpoint: '" + impl->options.bind + "' is not an IP address"};
  const tcp::endpoint endpoint(address, impl->options.port);
  impl->acceptor.open(endpoint.protocol(), ec);
  if (!ec) impl->acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) impl->acceptor.bind(endpoint, ec);
  if (!ec) impl->acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return Error{"web endpoint: cannot listen on " + where + ": " + ec.message()};
  impl->work.emplace(impl->io.get_executor());
  impl->accept(impl);
  impl->thread = std::thread([io = &impl->io] { io->run(); });
  return std::unique_ptr<HttpServer>(new HttpServer(std::move(impl)));
}

HttpServer::~HttpServer() {
  stop();
}

std::uint16_t HttpServer::port() const {
  beast::error_code ec;
  const auto ep = impl_->acceptor.local_endpoint(ec);
  return ec ? 0 : ep.port();
}

bool HttpServer::tls() const {
  return impl_->ssl.has_value();
}

void HttpServer::stop() {
  Impl& s = *impl_;
  {
    std::lock_guard<std::mutex> lock(s.post_mutex);
    if (s.stopped) return;
    s.stopped = true;  // no reply is posted from now on
  }
  // On the server's thread: no more accepts, every connection closed; the
  // thread ends when the handlers that were queued have run.
  asio::post(s.io, [&s] {
    beast::error_code ec;
    s.acceptor.close(ec);
    std::vector<std::function<void()>> closers;
    {
      std::lock_guard<std::mutex> lock(s.sessions_mutex);
      closers.swap(s.closers);
      s.sessions.clear();
    }
    for (auto& close : closers) close();
  });
  s.work.reset();
  if (s.thread.joinable()) s.thread.join();
}

}  // namespace cara::net
