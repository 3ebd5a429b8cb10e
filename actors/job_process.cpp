#include "actors/job_process.h"

#include <signal.h>

#include <cctype>
#include <cstdlib>

#include "model/schedd/job_builder.h"
#include "model/schedd/job_status.h"

namespace cara::actors {
namespace {

using schedd::string_attr;

std::string under(const std::string& iwd, const std::string& path) {
  if (path.empty() || path[0] == '/' || iwd.empty()) return path;
  return iwd + "/" + path;
}

// Environment = "A=1 B='x y'": white space separates entries; single
// quotes group (the new syntax of the submit language).
std::vector<std::string> split_environment(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false, any = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '\'') {
      if (quoted && i + 1 < s.size() && s[i + 1] == '\'') {
        cur += '\'';
        ++i;
      } else {
        quoted = !quoted;
      }
      any = true;
    } else if (!quoted && (c == ' ' || c == '\t')) {
      if (any) out.push_back(cur);
      cur.clear();
      any = false;
    } else {
      cur += c;
      any = true;
    }
  }
  if (any) out.push_back(cur);
  return out;
}

}  // namespace

int signal_number(const std::string& name) {
  static const std::pair<const char*, int> kSignals[] = {
      {"HUP", SIGHUP},   {"INT", SIGINT},   {"QUIT", SIGQUIT}, {"KILL", SIGKILL}, {"USR1", SIGUSR1},
      {"USR2", SIGUSR2}, {"TERM", SIGTERM}, {"CONT", SIGCONT}, {"STOP", SIGSTOP}, {"ALRM", SIGALRM}};
  if (!name.empty() && std::isdigit(static_cast<unsigned char>(name[0]))) {
    char* end = nullptr;
    const long n = std::strtol(name.c_str(), &end, 10);
    return *end == '\0' && n > 0 && n < 65 ? static_cast<int>(n) : -1;
  }
  std::string n;
  for (char c : name) n += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (n.rfind("SIG", 0) == 0) n = n.substr(3);
  for (const auto& [text, number] : kSignals)
    if (n == text) return number;
  return -1;
}

Result<JobLaunch> job_launch(const classad::ClassAd& job) {
  JobLaunch l;
  procd::JobSpec& s = l.spec;
  s.cmd = string_attr(job, "Cmd");
  if (s.cmd.empty()) return Error{"the job ad has no Cmd (the executable to run)"};
  s.args = schedd::job_arguments(job);
  s.env = split_environment(string_attr(job, "Environment"));
  s.iwd = string_attr(job, "Iwd");
  s.in = under(s.iwd, string_attr(job, "In"));
  s.out = under(s.iwd, string_attr(job, "Out"));
  s.err = under(s.iwd, string_attr(job, "Err"));
  const std::string sig = string_attr(job, "KillSig");
  if (!sig.empty()) {
    const int n = signal_number(sig);
    if (n < 0) return Error{"KillSig '" + sig + "' is not a signal name"};
    l.kill_sig = n;
  }
  return l;
}

}  // namespace cara::actors
