#include "net/guard.h"

#include <caf/actor_control_block.hpp>
#include <caf/node_id.hpp>

namespace cara::net {

void Guard::admit(const caf::node_id& node, Identity who) {
  std::lock_guard<std::mutex> lock(mutex_);
  peers_[node] = std::move(who);
}

void Guard::forget(const caf::node_id& node) {
  std::lock_guard<std::mutex> lock(mutex_);
  peers_.erase(node);
}

std::shared_ptr<const Authorization> Guard::authorization() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return authorization_;
}

void Guard::set_authorization(Authorization authorization) {
  auto next = std::make_shared<const Authorization>(std::move(authorization));
  std::lock_guard<std::mutex> lock(mutex_);
  authorization_ = std::move(next);
}

std::optional<Identity> Guard::identity(const caf::node_id& node) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = peers_.find(node);
  if (it == peers_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::string> Guard::refuse(Permission p, const caf::strong_actor_ptr& sender,
                                         const caf::node_id& local, std::string_view daemon,
                                         os::DaemonLog* log) const {
  std::optional<std::string> why;
  std::string peer = "an anonymous sender";
  if (sender) {
    if (sender->node() == local) return std::nullopt;
    peer = "node " + to_string(sender->node());
    auto who = identity(sender->node());
    if (!who)
      why =
          std::string(permission_name(p)) + " access refused to " + peer + ": it has not proven its identity";
    else
      why = authorization()->refuse(p, *who);
  } else {
    why = std::string(permission_name(p)) + " access refused to an anonymous sender";
  }
  if (!log) log = log_.get();
  if (why && log) log->warning(std::string(daemon) + ": " + *why);
  return why;
}

std::optional<std::string> Guard::refuse(Permission p, const Identity& who, std::string_view daemon) const {
  auto why = authorization()->refuse(p, who);
  if (why && log_) log_->warning(std::string(daemon) + ": " + *why);
  return why;
}

}  // namespace cara::net
