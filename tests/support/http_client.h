// A small blocking HTTP/1.1 client over POSIX sockets for the web
// endpoint's tests (127.0.0.1 only): one request per call on a connection
// that stays open (keep-alive) until the server closes it or the client
// goes. Raw bytes can be sent too, for malformed and slow clients.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <optional>
#include <string>

namespace cara::test {

struct HttpReply {
  int status = 0;
  std::string headers, body;
  std::string header(const std::string& name) const {
    std::string lower_headers, lower_name;
    for (char c : headers) lower_headers += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (char c : name) lower_name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const auto at = lower_headers.find("\r\n" + lower_name + ":");
    if (at == std::string::npos) return {};
    const auto start = headers.find_first_not_of(' ', at + 3 + name.size());
    return headers.substr(start, headers.find("\r\n", start) - start);
  }
};

class HttpConnection {
 public:
  explicit HttpConnection(int port, std::chrono::milliseconds timeout = std::chrono::seconds(10))
      : timeout_(timeout) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) close();
  }
  ~HttpConnection() { close(); }
  HttpConnection(const HttpConnection&) = delete;
  HttpConnection& operator=(const HttpConnection&) = delete;

  bool open() const { return fd_ >= 0; }
  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

  bool send_raw(const std::string& bytes) {
    std::size_t sent = 0;
    while (fd_ >= 0 && sent < bytes.size()) {
      const ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return false;
      sent += static_cast<std::size_t>(n);
    }
    return fd_ >= 0;
  }

  // One request; nullopt when the connection failed or timed out.
  std::optional<HttpReply> request(const std::string& target, const std::string& method = "GET",
                                   bool keep_alive = true) {
    if (!send_raw(method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
                  (keep_alive ? "" : "Connection: close\r\n") + "\r\n"))
      return std::nullopt;
    return read_reply(method == "HEAD");
  }

  // Reads one reply (what follows the headers: Content-Length bytes).
  std::optional<HttpReply> read_reply(bool head = false) {
    while (buffer_.find("\r\n\r\n") == std::string::npos)
      if (!fill()) return std::nullopt;
    const auto end = buffer_.find("\r\n\r\n");
    HttpReply r;
    r.headers = buffer_.substr(0, end + 2);
    buffer_.erase(0, end + 4);
    if (r.headers.size() < 12) return std::nullopt;
    r.status = std::atoi(r.headers.c_str() + 9);
    const std::string length = r.header("Content-Length");
    const std::size_t n = head || length.empty() ? 0 : std::stoul(length);
    while (buffer_.size() < n)
      if (!fill()) return std::nullopt;
    r.body = buffer_.substr(0, n);
    buffer_.erase(0, n);
    return r;
  }

  // Whether the server closed the connection within `wait`.
  bool closed_within(std::chrono::milliseconds wait) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(wait.count())) <= 0) return false;
    char c;
    return ::recv(fd_, &c, 1, MSG_PEEK) <= 0;
  }

 private:
  bool fill() {
    if (fd_ < 0) return false;
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(timeout_.count())) <= 0) return false;
    char chunk[16384];
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n <= 0) return false;
    buffer_.append(chunk, static_cast<std::size_t>(n));
    return true;
  }

  int fd_ = -1;
  std::chrono::milliseconds timeout_;
  std::string buffer_;
};

// One request on a connection of its own.
inline std::optional<HttpReply> http_get(int port, const std::string& target,
                                         const std::string& method = "GET") {
  HttpConnection c(port);
  return c.request(target, method, false);
}

}  // namespace cara::test
