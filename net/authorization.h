// Who may do what: HTCondor's host-based authorization (the thesis, section
// 5.1 and figure 13; HTCondor's "Authorization" section). Each permission
// level has an ALLOW_<LEVEL> and a DENY_<LEVEL> list of entries:
//
//   *                        anyone the pool's CA vouches for
//   host | *.domain | 10.0.* a host name or address, with * wildcards
//   user@domain              a user on any host (a name with @ and no /)
//   user@domain/host         both; either side may be *
//
// A request needs one level; a peer allowed a level that implies it is
// allowed too (WRITE implies READ; ADMINISTRATOR and DAEMON imply WRITE;
// NEGOTIATOR implies READ). A DENY entry that matches wins over every
// ALLOW. The identity matched is the one the peer proved with its pool
// certificate (net/identity.h), never one it merely claims.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/common/result.h"
#include "model/config/config.h"

namespace cara::net {

enum class Permission { Read, Write, Administrator, Daemon, Negotiator };

const char* permission_name(Permission p);

// A proven identity: the certificate's user ("condor@pool" for a daemon)
// and host.
struct Identity {
  std::string user;
  std::string host;
  std::string text() const { return user + "/" + host; }
};

class Authorization {
 public:
  // Everyone may do everything (the embedded pool, where every daemon is in
  // one process).
  static Authorization open();
  // The ALLOW_*/DENY_* lists of `config`. Undefined lists: ALLOW_READ and
  // ALLOW_WRITE are * (the pool CA is the boundary, as with HTCondor's
  // HOST_BASED template); ALLOW_DAEMON and ALLOW_NEGOTIATOR are
  // condor@* (any daemon certificate); ALLOW_ADMINISTRATOR is nobody.
  static Result<Authorization> from_config(const config::Config& config);

  // nullopt when `who` may act at level `p`; otherwise why not, naming the
  // level and the peer (for the refusal's log line and reply).
  std::optional<std::string> refuse(Permission p, const Identity& who) const;

 private:
  struct Entry {
    std::string user;  // glob; "*" for any
    std::string host;  // glob; "*" for any
  };
  struct Level {
    std::vector<Entry> allow, deny;
  };
  bool open_ = false;
  Level levels_[5];

  static Entry parse_entry(const std::string& text);
  static bool matches(const std::vector<Entry>& list, const Identity& who);
};

}  // namespace cara::net
