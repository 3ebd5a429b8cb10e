// Runs a program as a child process with bounded time: standard input from
// a string, standard output and error captured, killed by PID on timeout.
#pragma once

#include <string>
#include <vector>

namespace cara::test {

struct ProcessResult {
  int exit_code = -1;  // -1 when killed or not started
  bool timed_out = false;
  std::string out, err;
};

// Writes `content` to a new file in the temporary directory; returns its path.
std::string write_temp_file(const std::string& content, const std::string& suffix = ".tmp");

ProcessResult run_process(const std::vector<std::string>& argv, const std::string& input = "",
                          int timeout_ms = 20000);

}  // namespace cara::test
