// A Unix account, and the machine's book of them. The model never reads
// the system's user database itself: a daemon passes in the real one
// (actors/system_accounts.h), tests a table.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cara {

// What a process needs to become a user.
struct Account {
  std::string name;
  std::uint32_t uid = 0;
  std::uint32_t gid = 0;
  std::vector<std::uint32_t> groups;  // supplementary groups (with gid)

  bool is_root() const { return uid == 0; }
  bool operator==(const Account&) const = default;
};

class AccountBook {
 public:
  virtual ~AccountBook() = default;
  virtual std::optional<Account> find(std::string_view name) const = 0;
};

}  // namespace cara
