#include "actors/procd_client.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <vector>

extern char** environ;

namespace cara::actors {
namespace {

using nlohmann::json;

constexpr int kReadyWithinMs = 10000;

Result<json> receive(int socket, int timeout_ms) {
  pollfd p{socket, POLLIN, 0};
  int r = 0;
  while ((r = ::poll(&p, 1, timeout_ms)) < 0 && errno == EINTR) {
  }
  if (r == 0) return Error{"no answer within " + std::to_string(timeout_ms / 1000) + " s"};
  std::vector<char> packet(procd::kMaxPacket);
  const ssize_t n = ::recv(socket, packet.data(), packet.size(), 0);
  if (n <= 0) return Error{"it ended before it was ready"};
  json j = procd::decode(packet.begin(), packet.begin() + n);
  if (j.is_discarded() || !j.is_object()) return Error{"it said something that is not a message"};
  return j;
}

void reap(pid_t pid, std::chrono::milliseconds within) {
  const auto until = std::chrono::steady_clock::now() + within;
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() >= until) return;  // left to init: the node is ending
    ::usleep(2000);
  }
}

}  // namespace

Result<std::unique_ptr<Procd>> Procd::start(const std::string& program, const std::string& execute_dir) {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
    return Error{std::string("socketpair: ") + std::strerror(errno)};
  const int size = static_cast<int>(procd::kMaxPacket) * 2;
  for (int fd : sv) {
    ::setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
    ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
  }
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&files, sv[1], 3);  // dup2 clears close-on-exec
  posix_spawn_file_actions_addclosefrom_np(&files, 4);
  std::vector<char*> argv{const_cast<char*>(program.c_str()), const_cast<char*>(execute_dir.c_str()),
                          nullptr};
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, program.c_str(), &files, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  ::close(sv[1]);
  if (rc != 0) {
    ::close(sv[0]);
    return Error{"cannot start the process keeper " + program + ": " + std::strerror(rc)};
  }
  auto hello = receive(sv[0], kReadyWithinMs);
  if (!hello || hello->value("op", "") != "ready") {
    const std::string why = !hello ? hello.error() : hello->value("error", std::string("it is not ready"));
    ::close(sv[0]);
    ::kill(pid, SIGKILL);
    reap(pid, std::chrono::seconds(5));
    return Error{"the process keeper " + program + " did not start: " + why};
  }
  std::unique_ptr<Procd> p(new Procd(sv[0], pid));
  p->reader_ = std::thread([raw = p.get()] { raw->read_loop(); });
  return p;
}

Procd::~Procd() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    waiting_.clear();  // no callback after this: its receivers may be gone
  }
  ::shutdown(socket_, SHUT_RDWR);  // the keeper reads end-of-file and kills what runs
  if (reader_.joinable()) reader_.join();
  ::close(socket_);
  reap(pid_, std::chrono::seconds(15));
}

bool Procd::send(const std::string& text) {
  ssize_t n = 0;
  while ((n = ::send(socket_, text.data(), text.size(), MSG_NOSIGNAL)) < 0 && errno == EINTR) {
  }
  return n == static_cast<ssize_t>(text.size());
}

std::int64_t Procd::launch(procd::JobSpec spec, OnEnd on_end) {
  std::int64_t id = 0;
  bool alive = true;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    id = ++next_id_;
    alive = alive_;
    if (alive) waiting_[id] = std::move(on_end);
  }
  if (!alive) {
    on_end(ProcessExit{false, 0, "the process keeper has ended"});
    return id;
  }
  spec.id = id;
  const std::string text = procd::encode(json(spec));
  if (text.size() > procd::kMaxPacket || !send(text)) {
    OnEnd failed;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = waiting_.find(id);
      if (it != waiting_.end()) failed = std::move(it->second), waiting_.erase(it);
    }
    if (failed)
      failed(ProcessExit{false, 0,
                         text.size() > procd::kMaxPacket ? "the job's arguments and environment are too large"
                                                         : "cannot reach the process keeper"});
  }
  return id;
}

void Procd::signal(std::int64_t id, int sig) {
  send(procd::encode(json{{"op", "signal"}, {"id", id}, {"sig", sig}}));
}

bool Procd::alive() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return alive_;
}

void Procd::read_loop() {
  std::vector<char> packet(procd::kMaxPacket);
  for (;;) {
    const ssize_t n = ::recv(socket_, packet.data(), packet.size(), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    json j = procd::decode(packet.begin(), packet.begin() + n);
    if (j.is_discarded() || !j.is_object()) continue;
    const std::string op = j.value("op", "");
    if (op != "exited" && op != "failed") continue;  // "started": nothing to do
    ProcessExit e;
    if (op == "exited") {
      e.by_signal = j.value("signaled", false);
      e.code = j.value("code", 0);
    } else {
      e.error = j.value("error", std::string("the job could not be started"));
    }
    OnEnd done;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = waiting_.find(j.value("id", std::int64_t{-1}));
      if (it == waiting_.end()) continue;
      done = std::move(it->second);
      waiting_.erase(it);
    }
    done(std::move(e));
  }
  // The keeper is gone (or this side closed): its jobs died with it.
  std::map<std::int64_t, OnEnd> lost;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    alive_ = false;
    lost.swap(waiting_);
  }
  for (auto& [id, done] : lost)
    done(ProcessExit{false, 0, "the process keeper (cara-procd) ended and took the job with it"});
}

}  // namespace cara::actors
