#include "model/common/change_log.h"

#include <atomic>

namespace cara {
namespace {

// Only ever compared for equality: which log a stamp belongs to, never
// shown, so the numbering does not make a run depend on anything.
std::uint64_t next_log_id() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

ChangeLog::ChangeLog() : id_(next_log_id()) {}
ChangeLog::ChangeLog(const ChangeLog&) : id_(next_log_id()) {}

ChangeLog& ChangeLog::operator=(const ChangeLog& other) {
  if (this != &other) {
    id_ = next_log_id();
    version_ = 0;
    recent_.clear();
  }
  return *this;
}

void ChangeLog::changed(const std::string& name) {
  ++version_;
  recent_.push_back(name);
  if (recent_.size() > kKept) recent_.pop_front();
}

std::optional<std::vector<std::string>> ChangeLog::since(Stamp since) const {
  if (since.log != id_ || since.version > version_) return std::nullopt;
  const std::uint64_t missed = version_ - since.version;
  if (missed > recent_.size()) return std::nullopt;
  return std::vector<std::string>(recent_.end() - static_cast<std::ptrdiff_t>(missed), recent_.end());
}

}  // namespace cara
