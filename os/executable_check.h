// condor_submit's check of a job's executable, made as the submitting
// user: it exists, is a file, and may be run.
#pragma once

#include <optional>
#include <string>

namespace cara::os {

// What is wrong with running `path` as this process's user, or nullopt:
// "does not exist", "is a directory", "is not executable (Permission denied)".
std::optional<std::string> executable_problem(const std::string& path);

}  // namespace cara::os
