// The cheap authenticated path for commands on a daemon's own node
// (TARGETS.md: `cara submit` ≤ 10 ms, where a TLS connect alone costs
// 14–28 ms). A Unix-domain stream socket: the kernel tells the server the
// caller's uid (SO_PEERCRED), so the caller is proven without certificates
// and cannot claim to be someone else. One request per connection, each a
// length-prefixed JSON document; the answer is one such document, after
// any number of progress notes ({"progress": NOTE}) when the request asked
// for them.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <thread>

#include "model/common/result.h"

namespace cara::net {

struct LocalPeer {
  unsigned uid = 0;
  std::string user;  // the uid's login name, or the uid as text
};

// A progress note (NOTE) to the caller before the answer.
using ProgressNote = std::function<void(const nlohmann::json& note)>;

class LocalServer {
 public:
  using Handler = std::function<nlohmann::json(const nlohmann::json& request, const LocalPeer& peer,
                                               const ProgressNote& note)>;
  LocalServer() = default;
  ~LocalServer();
  LocalServer(const LocalServer&) = delete;
  LocalServer& operator=(const LocalServer&) = delete;

  // Listens on `path` (replacing a stale socket) and serves requests on a
  // thread of its own, one at a time, until stop().
  Status start(const std::string& path, Handler handler);
  void stop();

 private:
  void serve();
  std::string path_;
  Handler handler_;
  int listen_fd_ = -1;
  int wake_[2] = {-1, -1};
  std::thread thread_;
};

// One request to the server at `path`; fails naming the path when nothing
// listens there or no reply comes within `timeout`. Progress notes before
// the answer go to `on_note` (ignored when it is empty).
Result<nlohmann::json> local_call(const std::string& path, const nlohmann::json& request,
                                  std::chrono::milliseconds timeout, const ProgressNote& on_note = {});

}  // namespace cara::net
