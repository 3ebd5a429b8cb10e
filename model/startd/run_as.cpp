#include "model/startd/run_as.h"

#include <algorithm>
#include <cctype>

#include "model/classad/eval.h"
#include "model/common/text.h"
#include "model/config/config.h"

namespace cara::startd {
namespace {

std::string string_attr(const classad::ClassAd& ad, const char* name) {
  classad::Value v = classad::evaluate_attr(ad, name);
  return v.is_string() ? std::string(v.as_string()) : std::string();
}

// Whether `host` lies in `domain` (the host is the domain or a name under
// it): HTCondor's check that a submit machine belongs to the UID_DOMAIN it
// claims, unless TRUST_UID_DOMAIN.
bool host_in_domain(const std::string& host, const std::string& domain) {
  if (host.empty() || domain.empty()) return false;
  const std::string h = to_lower(host), d = to_lower(domain);
  if (h == d) return true;
  return h.size() > d.size() && h.compare(h.size() - d.size(), d.size(), d) == 0 &&
         h[h.size() - d.size() - 1] == '.';
}

RunAs refuse(std::string why) {
  RunAs r;
  r.hold_reason = std::move(why);
  return r;
}

RunAs as(Account a, std::string how) {
  RunAs r;
  r.ok = true;
  r.account = std::move(a);
  r.switch_user = true;
  r.how = std::move(how);
  return r;
}

// Why the job may not run as its owner here, or nullopt when it may.
std::optional<std::string> owner_refused(const RunAsPolicy& policy, const classad::ClassAd& job,
                                         const Submission& s) {
  if (!policy.allow_runas_owner) return "STARTER_ALLOW_RUNAS_OWNER is False";
  classad::Value wants = classad::evaluate_attr(job, "RunAsOwner");
  if (wants.is_bool() && !wants.as_bool()) return "the job sets RunAsOwner = False";
  const std::string user = string_attr(job, "User");
  const auto at = user.rfind('@');
  const std::string domain = at == std::string::npos ? std::string() : user.substr(at + 1);
  if (policy.uid_domain.empty() || to_lower(domain) != to_lower(policy.uid_domain))
    return "the job's UID domain '" + domain + "' is not this machine's ('" + policy.uid_domain + "')";
  if (!policy.trust_uid_domain && !s.schedd_local && !host_in_domain(s.schedd_host, policy.uid_domain))
    return "the access point " + (s.schedd_host.empty() ? std::string("(unknown host)") : s.schedd_host) +
           " is not in UID_DOMAIN " + policy.uid_domain + " and TRUST_UID_DOMAIN is False";
  return std::nullopt;
}

}  // namespace

Result<RunAsPolicy> RunAsPolicy::from_config(const config::Config& config) {
  RunAsPolicy p;
  auto domain = config.string("UID_DOMAIN");
  if (!domain) return Error{domain.error()};
  p.uid_domain = *domain;
  const std::pair<bool*, const char*> flags[] = {{&p.trust_uid_domain, "TRUST_UID_DOMAIN"},
                                                 {&p.soft_uid_domain, "SOFT_UID_DOMAIN"},
                                                 {&p.allow_runas_owner, "STARTER_ALLOW_RUNAS_OWNER"}};
  for (auto [field, knob] : flags) {
    auto b = config.boolean(knob);
    if (!b) return Error{b.error()};
    *field = *b;
  }
  // SLOT<N>_USER, for every N the configuration names.
  for (const config::Definition* d : config.macros().all()) {
    const std::string name = config::canonical_name(d->name);
    if (name.rfind("SLOT", 0) != 0 || name.size() < 10 || name.compare(name.size() - 5, 5, "_USER") != 0)
      continue;
    const std::string digits = name.substr(4, name.size() - 9);
    if (digits.empty() || !std::all_of(digits.begin(), digits.end(), [](char c) { return std::isdigit(c); }))
      continue;
    auto user = config.string(name);
    if (!user) return Error{user.error()};
    if (!user->empty()) p.slot_users[std::stoi(digits)] = *user;
  }
  return p;
}

const std::string& RunAsPolicy::fallback_user(int slot_id) const {
  auto it = slot_users.find(slot_id);
  return it == slot_users.end() ? nobody : it->second;
}

RunAs decide_run_as(const RunAsPolicy& policy, const classad::ClassAd& job, const Submission& s,
                    const AccountBook& accounts, const Account& daemon) {
  if (!daemon.is_root()) {
    // Without root, no user can be switched to: every job runs as the
    // daemon (the slot ad says so).
    RunAs r;
    r.ok = true;
    r.account = daemon;
    r.how = "the daemon's user " + daemon.name;
    return r;
  }
  const std::optional<std::string> not_owner = owner_refused(policy, job, s);
  if (!not_owner) {
    const std::string owner = string_attr(job, "Owner");
    if (owner.empty()) return refuse("the job has no Owner");
    if (owner == "root") return refuse("the job's owner is root: no job runs as root");
    std::optional<Account> account = accounts.find(owner);
    if (!account && policy.soft_uid_domain && s.owner_uid) {
      // SOFT_UID_DOMAIN: the owner has no account here; the job runs with
      // the ids the access point gave.
      account = Account{owner, *s.owner_uid, s.owner_gid.value_or(*s.owner_uid), {}};
      account->groups.push_back(account->gid);
    }
    if (!account)
      return refuse(
          "the job's owner " + owner + " is not a user on this execution point" +
          (policy.soft_uid_domain ? " and the access point gave no uid" : " (SOFT_UID_DOMAIN is False)"));
    if (account->is_root()) return refuse("the job's owner " + owner + " has uid 0: no job runs as root");
    return as(std::move(*account), "owner");
  }
  const std::string& user = policy.fallback_user(s.slot_id);
  const bool dedicated = policy.slot_users.count(s.slot_id) > 0;
  const std::string knob = dedicated ? "SLOT" + std::to_string(s.slot_id) + "_USER" : "nobody";
  std::optional<Account> account = accounts.find(user);
  if (!account)
    return refuse("the job cannot run as its owner and " + knob + " (" + user + ") is not a user here");
  if (account->is_root()) return refuse(knob + " (" + user + ") is root: no job runs as root");
  RunAs r = as(std::move(*account), knob);
  r.not_owner = *not_owner;
  return r;
}

std::vector<std::string> check_run_as_accounts(const RunAsPolicy& policy, const AccountBook& accounts,
                                               const Account& daemon) {
  std::vector<std::string> problems;
  if (!daemon.is_root()) return problems;
  auto check = [&](const std::string& what, const std::string& user) {
    auto a = accounts.find(user);
    if (!a)
      problems.push_back(what + " = " + user + ": no such user on this machine");
    else if (a->is_root())
      problems.push_back(what + " = " + user + ": uid 0; no job runs as root");
  };
  for (const auto& [n, user] : policy.slot_users) check("SLOT" + std::to_string(n) + "_USER", user);
  check("the account of last resort", policy.nobody);
  return problems;
}

int slot_number(std::string_view name) {
  if (name.rfind("slot", 0) != 0) return 0;
  int n = 0;
  std::size_t i = 4;
  for (; i < name.size() && std::isdigit(static_cast<unsigned char>(name[i])); ++i)
    n = n * 10 + (name[i] - '0');
  if (i == 4 || (i < name.size() && name[i] != '_' && name[i] != '@')) return 0;
  return n;
}

}  // namespace cara::startd
