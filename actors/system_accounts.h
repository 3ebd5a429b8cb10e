// This machine's users, from the system's user database (getpwnam_r and
// getgrouplist: /etc/passwd and /etc/group, or whatever NSS is set up to
// read), for the run-as decision (model/startd/run_as.h). No CAF here.
#pragma once

#include "model/common/account.h"

namespace cara::actors {

class SystemAccounts : public AccountBook {
 public:
  std::optional<Account> find(std::string_view name) const override;
};

// The account this process runs as (its effective uid).
Account current_account();

// Every name is one account: an embedded pool (`cara demo`, a bench) runs
// every job as one user, whatever its Owner, like a personal pool.
class OneAccount : public AccountBook {
 public:
  explicit OneAccount(Account account) : account_(std::move(account)) {}
  std::optional<Account> find(std::string_view) const override { return account_; }

 private:
  Account account_;
};

// The user an embedded pool runs its jobs as: this process's, or nobody's
// when this process is root (no job runs as root); nullopt when there is
// no nobody.
std::optional<Account> personal_account();

}  // namespace cara::actors
