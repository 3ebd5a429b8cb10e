// Which account a job runs as on an execution point. HTCondor never runs a
// job as root; a startd running as root runs each job as its owner when the
// owner's UID domain is the machine's, else as a dedicated slot user or
// "nobody" (HTCondor manual, configuration macros UID_DOMAIN,
// TRUST_UID_DOMAIN, SOFT_UID_DOMAIN, STARTER_ALLOW_RUNAS_OWNER,
// SLOT<N>_USER; the job attribute RunAsOwner). A startd that is not root
// cannot switch users: its jobs run as its own user.
//
// Pure: the machine's user database comes in as an AccountBook, the
// daemon's own account as a parameter; the decision goes out as a value
// (the account, or the hold reason).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/classad/classad.h"
#include "model/common/account.h"
#include "model/common/result.h"

namespace cara::config {
class Config;
}

namespace cara::startd {

using cara::Account;
using cara::AccountBook;

// HTCondor's hold code for a job whose user account cannot be used
// (CONDOR_HOLD_CODE_FailedToAccessUserAccount).
constexpr int kHoldFailedToAccessUserAccount = 23;

struct RunAsPolicy {
  std::string uid_domain;         // UID_DOMAIN
  bool trust_uid_domain = false;  // TRUST_UID_DOMAIN: believe the submitter's domain
  bool soft_uid_domain = false;   // SOFT_UID_DOMAIN: an owner unknown here runs with the submitter's uid
  bool allow_runas_owner = true;  // STARTER_ALLOW_RUNAS_OWNER
  std::map<int, std::string> slot_users;  // SLOT<N>_USER, by N
  std::string nobody = "nobody";          // the account of last resort

  static Result<RunAsPolicy> from_config(const config::Config& config);
  // The dedicated user of slot `slot_id` (its SLOT<N>_USER), else nobody.
  const std::string& fallback_user(int slot_id) const;
};

// What the execution point knows of the job's submission: who activated
// the claim and, for SOFT_UID_DOMAIN, the owner's ids at the access point.
struct Submission {
  int slot_id = 0;            // N of slotN and of its dynamic slots slotN_M
  std::string schedd_host;    // the schedd's proven host name; empty when unknown
  bool schedd_local = false;  // the schedd is in this process (an embedded pool): trusted
  std::optional<std::uint32_t> owner_uid, owner_gid;  // at the access point, when it knows them
};

struct RunAs {
  bool ok = false;
  Account account;
  bool switch_user = false;  // false: the job runs as the daemon itself
  std::string how;           // "owner", "SLOT1_USER", "nobody", "the daemon's user": for logs
  std::string not_owner;     // why not as the owner, when it is not
  std::string hold_reason;   // !ok: why the job cannot run here
};

// The account `job` runs as. `daemon` is the startd's own account.
RunAs decide_run_as(const RunAsPolicy& policy, const classad::ClassAd& job, const Submission& submission,
                    const AccountBook& accounts, const Account& daemon);

// Problems a start-up check reports: a SLOT<N>_USER or nobody that does
// not exist here, or is root (only when the daemon is root: otherwise none
// of them is used).
std::vector<std::string> check_run_as_accounts(const RunAsPolicy& policy, const AccountBook& accounts,
                                               const Account& daemon);

// The N of "slotN" or "slotN_M" (0 when the name is not of that form).
int slot_number(std::string_view slot_name);

}  // namespace cara::startd
