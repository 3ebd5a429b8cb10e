// Files a daemon running as root writes for a user (the job's user log)
// are written with that user's rights, not root's: a submit file that
// names /etc/passwd as its log must not make the schedd append to it.
// On Linux the file-system uid, gid and groups are per thread, so the
// calling thread takes the user's for the open and gives them back. No CAF.
#pragma once

#include <string>

#include "model/common/account.h"
#include "model/common/result.h"

namespace cara::actors {

// Appends `text` to `path`, creating it, as `as` when this process is
// root (as itself otherwise, or when `as` is null).
Status append_as(const std::string& path, const std::string& text, const Account* as);

}  // namespace cara::actors
