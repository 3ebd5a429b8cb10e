// The server end of the local socket (local_socket.h), apart from the
// client's (local_socket.cpp): the static `cara` client links only that
// one, and so no user database lookup (getpwuid_r).
#include <fcntl.h>
#include <poll.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "net/local_frames.h"
#include "net/local_socket.h"

namespace cara::net {
namespace {

using namespace frames;

// Login names by uid, as HTCondor's daemons keep them (its passwd cache,
// PASSWD_CACHE_REFRESH): each connection read the user database anew, a
// twentieth of a one-job submit's time in the node (issue 21). A name is
// looked up again after kNameRefresh, so a renamed account is seen.
constexpr auto kNameRefresh = std::chrono::minutes(5);

struct KnownName {
  std::string user;
  std::chrono::steady_clock::time_point at;
};

LocalPeer peer_of(int fd, std::map<unsigned, KnownName>& names) {
  ucred cred{};
  socklen_t len = sizeof cred;
  LocalPeer p;
  if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return LocalPeer{~0u, ""};
  p.uid = cred.uid;
  const auto now = std::chrono::steady_clock::now();
  if (auto it = names.find(cred.uid); it != names.end() && now - it->second.at < kNameRefresh) {
    p.user = it->second.user;
    return p;
  }
  passwd pw{}, *found = nullptr;
  char buf[4096];
  if (::getpwuid_r(cred.uid, &pw, buf, sizeof buf, &found) == 0 && found) p.user = pw.pw_name;
  if (!p.user.empty()) names[cred.uid] = KnownName{p.user, now};  // a uid without a name is asked again
  if (p.user.empty()) p.user = std::to_string(cred.uid);
  return p;
}

}  // namespace

LocalServer::~LocalServer() {
  stop();
}

Status LocalServer::start(const std::string& path, Handler handler) {
  if (path.size() >= sizeof(sockaddr_un{}.sun_path))
    return Error{path + ": a socket path of at most " + std::to_string(sizeof(sockaddr_un{}.sun_path) - 1) +
                 " characters expected"};
  path_ = path;
  handler_ = std::move(handler);
  listen_fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) return Error{path + ": cannot create a socket (" + errno_text() + ")"};
  ::unlink(path.c_str());  // a stale socket of an earlier run
  sockaddr_un a = address_of(path);
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(listen_fd_, 64) != 0) {
    const std::string why = errno_text();
    ::close(listen_fd_);
    listen_fd_ = -1;
    return Error{path + ": cannot listen (" + why + ")"};
  }
  // Anyone on the node may connect; what they may do is decided from the
  // uid the kernel reports.
  ::chmod(path.c_str(), 0666);
  if (::pipe2(wake_, O_CLOEXEC) != 0) return Error{"cannot create a pipe (" + errno_text() + ")"};
  thread_ = std::thread([this] { serve(); });
  return Ok{};
}

void LocalServer::stop() {
  if (!thread_.joinable()) return;
  const char c = 'x';
  (void)!::write(wake_[1], &c, 1);
  thread_.join();
  ::close(listen_fd_);
  ::close(wake_[0]);
  ::close(wake_[1]);
  listen_fd_ = wake_[0] = wake_[1] = -1;
  ::unlink(path_.c_str());
}

void LocalServer::serve() {
  std::map<unsigned, KnownName> names;  // this thread's alone
  for (;;) {
    pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_[0], POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[1].revents) return;
    if (!(fds[0].revents & POLLIN)) continue;
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    const LocalPeer peer = peer_of(fd, names);
    nlohmann::json reply;
    auto text = receive_frame(fd, deadline);
    if (!text) {
      reply = {{"ok", false}, {"error", "bad request: " + text.error()}};
    } else {
      auto request = nlohmann::json::parse(*text, nullptr, false);
      if (request.is_discarded() || !request.is_object())
        reply = {{"ok", false}, {"error", "bad request: a JSON object expected"}};
      else
        reply = handler_(request, peer, [fd, deadline](const nlohmann::json& note) {
          // Whatever the handler says, the caller must see a note, never
          // take it for the answer.
          send_frame(fd, nlohmann::json{{"progress", note}}.dump(), deadline);
        });
    }
    send_frame(fd, reply.dump(), deadline);
    ::close(fd);
  }
}

}  // namespace cara::net
