#include "net/authorization.h"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>

#include "model/common/text.h"

namespace cara::net {
namespace {

constexpr Permission kAll[] = {Permission::Read, Permission::Write, Permission::Administrator,
                               Permission::Daemon, Permission::Negotiator};

// Which levels grant `p` (HTCondor's permission hierarchy).
std::vector<Permission> granting(Permission p) {
  switch (p) {
    case Permission::Read:
      return {Permission::Read, Permission::Write, Permission::Administrator, Permission::Daemon,
              Permission::Negotiator};
    case Permission::Write: return {Permission::Write, Permission::Administrator, Permission::Daemon};
    case Permission::Administrator: return {Permission::Administrator};
    case Permission::Daemon: return {Permission::Daemon};
    case Permission::Negotiator: return {Permission::Negotiator};
  }
  return {};
}

const char* default_allow(Permission p) {
  switch (p) {
    case Permission::Read:
    case Permission::Write: return "*";
    case Permission::Daemon:
    case Permission::Negotiator: return "condor@*";
    case Permission::Administrator: return "";
  }
  return "";
}

bool glob(const std::string& pattern, const std::string& text) {
  return pattern == "*" || fnmatch(pattern.c_str(), text.c_str(), FNM_CASEFOLD) == 0;
}

}  // namespace

const char* permission_name(Permission p) {
  switch (p) {
    case Permission::Read: return "READ";
    case Permission::Write: return "WRITE";
    case Permission::Administrator: return "ADMINISTRATOR";
    case Permission::Daemon: return "DAEMON";
    case Permission::Negotiator: return "NEGOTIATOR";
  }
  return "?";
}

Authorization Authorization::open() {
  Authorization a;
  a.open_ = true;
  return a;
}

Authorization::Entry Authorization::parse_entry(const std::string& text) {
  const auto slash = text.find('/');
  if (slash != std::string::npos)
    return Entry{to_lower(text.substr(0, slash)), to_lower(text.substr(slash + 1))};
  if (text.find('@') != std::string::npos) return Entry{to_lower(text), "*"};
  return Entry{"*", to_lower(text)};
}

Result<Authorization> Authorization::from_config(const config::Config& config) {
  Authorization a;
  for (Permission p : kAll) {
    Level& level = a.levels_[static_cast<int>(p)];
    for (bool allow : {true, false}) {
      const std::string knob = std::string(allow ? "ALLOW_" : "DENY_") + permission_name(p);
      std::vector<std::string> entries;
      if (config.defined(knob)) {
        auto list = config.list(knob);
        if (!list) return Error{list.error()};
        entries = *list;
      } else if (allow && *default_allow(p)) {
        entries = {default_allow(p)};
      }
      for (const std::string& e : entries) {
        if (e.empty()) continue;
        if (e.find('/') != e.rfind('/'))
          return Error{knob + ": entry '" + e + "' has more than one '/'; expected user/host"};
        (allow ? level.allow : level.deny).push_back(parse_entry(e));
      }
    }
  }
  return a;
}

bool Authorization::matches(const std::vector<Entry>& list, const Identity& who) {
  const std::string user = to_lower(who.user), host = to_lower(who.host);
  const std::string short_user = user.substr(0, user.find('@'));
  for (const Entry& e : list) {
    // A user pattern without a domain names the user on any domain.
    const bool user_ok = e.user.find('@') == std::string::npos && e.user != "*" ? glob(e.user, short_user)
                                                                                : glob(e.user, user);
    if (user_ok && glob(e.host, host)) return true;
  }
  return false;
}

std::optional<std::string> Authorization::refuse(Permission p, const Identity& who) const {
  if (open_) return std::nullopt;
  const Level& own = levels_[static_cast<int>(p)];
  if (matches(own.deny, who)) return "DENY_" + std::string(permission_name(p)) + " refuses " + who.text();
  for (Permission g : granting(p)) {
    const Level& level = levels_[static_cast<int>(g)];
    if (matches(level.allow, who) && !matches(level.deny, who)) return std::nullopt;
  }
  return std::string(permission_name(p)) + " access refused to " + who.text() + ": no ALLOW_" +
         permission_name(p) + " entry (or a level implying it) matches";
}

}  // namespace cara::net
