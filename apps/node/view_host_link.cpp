#include "apps/node/view_host_link.h"

#include <caf/send.hpp>

namespace cara::apps {

void ViewHostLink::tell() {
  if (!local_ || reached_.empty()) return;
  actors::ViewHosts v{reached_};
  // As the collector itself: it takes view hosts only from its own node,
  // and an anonymous message could come from anywhere.
  caf::send_as(local_, local_, std::move(v));
}

void ViewHostLink::attach(const actors::collector_actor& local) {
  std::lock_guard<std::mutex> lock(mutex_);
  local_ = local;
  tell();
}

void ViewHostLink::update(const std::vector<actors::collector_actor>& reached) {
  std::lock_guard<std::mutex> lock(mutex_);
  reached_.clear();
  for (const actors::collector_actor& c : reached)
    if (c) reached_.push_back(c);
  tell();
}

}  // namespace cara::apps
