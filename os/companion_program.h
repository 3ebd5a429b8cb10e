// Where one of caracara's own programs is (cara-procd, cara-pool): beside
// the running binary in a build tree, else where it is installed.
#pragma once

#include <string>

namespace cara::os {

std::string companion_program(const std::string& name, const std::string& installed);

}  // namespace cara::os
