#include "actors/system_accounts.h"

#include <grp.h>
#include <pwd.h>
#include <unistd.h>

#include <vector>

namespace cara::actors {
namespace {

std::optional<Account> from_passwd(const passwd& pw) {
  Account a;
  a.name = pw.pw_name;
  a.uid = pw.pw_uid;
  a.gid = pw.pw_gid;
  // Every group the user is in, the primary one included (what initgroups
  // would give a login).
  int n = 32;
  std::vector<gid_t> groups(static_cast<std::size_t>(n));
  while (::getgrouplist(pw.pw_name, pw.pw_gid, groups.data(), &n) < 0)
    groups.resize(static_cast<std::size_t>(n));
  groups.resize(static_cast<std::size_t>(n));
  a.groups.assign(groups.begin(), groups.end());
  return a;
}

}  // namespace

std::optional<Account> SystemAccounts::find(std::string_view name) const {
  const std::string n(name);
  passwd pw{};
  passwd* found = nullptr;
  std::vector<char> buf(16384);
  if (::getpwnam_r(n.c_str(), &pw, buf.data(), buf.size(), &found) != 0 || !found) return std::nullopt;
  return from_passwd(pw);
}

Account current_account() {
  passwd pw{};
  passwd* found = nullptr;
  std::vector<char> buf(16384);
  const uid_t uid = ::geteuid();
  if (::getpwuid_r(uid, &pw, buf.data(), buf.size(), &found) == 0 && found) {
    if (auto a = from_passwd(pw)) return *a;
  }
  // A uid without a name (a container's arbitrary user): still itself.
  Account a;
  a.name = std::to_string(uid);
  a.uid = uid;
  a.gid = ::getegid();
  a.groups = {a.gid};
  return a;
}

std::optional<Account> personal_account() {
  Account me = current_account();
  if (!me.is_root()) return me;
  return SystemAccounts().find("nobody");
}

}  // namespace cara::actors
