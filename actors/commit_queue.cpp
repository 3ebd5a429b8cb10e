#include "actors/commit_queue.h"

namespace cara::actors {

void CommitQueue::after(std::function<void()> then) {
  if (!pending()) return then();
  waiting_.push_back(std::move(then));
}

bool CommitQueue::commit() {
  while (true) {
    if (unsaved_) {
      unsaved_ = false;
      ++saves_;
      if (!save_()) {
        waiting_.clear();
        return false;
      }
    }
    if (waiting_.empty()) return true;
    std::function<void()> next = std::move(waiting_.front());
    waiting_.pop_front();
    next();
  }
}

}  // namespace cara::actors
