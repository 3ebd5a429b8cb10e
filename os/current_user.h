// Who runs this process: the name of its effective uid (condor_q shows
// that user's jobs by default).
#pragma once

#include <string>

namespace cara::os {

// The account name of geteuid(); "uid N" when it has none.
std::string current_user();

}  // namespace cara::os
