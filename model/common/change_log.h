// Which names changed, and since when: the claims an accountant began or
// ended, the slots a board holds claimed (issue 29: a negotiator that
// reconciles its claims with its slots from what changed since the last
// cycle, claim/claim_tracker.h, instead of from every claim every cycle).
//
// A stamp names one moment of one log. A copy of a log is another log (its
// stamps are its own and it keeps no history), so a stamp of one log never
// passes for a stamp of another, nor of a log restored or rebuilt in its
// place.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace cara {

class ChangeLog {
 public:
  struct Stamp {
    std::uint64_t log = 0, version = 0;
    bool operator==(const Stamp&) const = default;
  };

  ChangeLog();
  ChangeLog(const ChangeLog& other);
  ChangeLog& operator=(const ChangeLog& other);
  ChangeLog(ChangeLog&&) = default;
  ChangeLog& operator=(ChangeLog&&) = default;

  // `name` changed.
  void changed(const std::string& name);
  // Now.
  Stamp stamp() const { return {id_, version_}; }
  // The names changed since `since` (in the order they changed, a name as
  // often as it did), or none when `since` is not a stamp of this log or
  // is older than the changes it keeps (the last 65,536).
  std::optional<std::vector<std::string>> since(Stamp since) const;

 private:
  static constexpr std::size_t kKept = 1 << 16;
  std::uint64_t id_, version_ = 0;
  std::deque<std::string> recent_;  // the names of versions (version_ - recent_.size(), version_]
};

}  // namespace cara
