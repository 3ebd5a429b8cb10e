#include "actors/job_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <thread>

#include "model/schedd/job_builder.h"
#include "model/schedd/job_status.h"

extern char** environ;

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
  l.cmd = string_attr(job, "Cmd");
  if (l.cmd.empty()) return Error{"the job ad has no Cmd (the executable to run)"};
  l.args = schedd::job_arguments(job);
  l.environment = split_environment(string_attr(job, "Environment"));
  l.iwd = string_attr(job, "Iwd");
  l.in = under(l.iwd, string_attr(job, "In"));
  l.out = under(l.iwd, string_attr(job, "Out"));
  l.err = under(l.iwd, string_attr(job, "Err"));
  const std::string sig = string_attr(job, "KillSig");
  if (!sig.empty()) {
    const int n = signal_number(sig);
    if (n < 0) return Error{"KillSig '" + sig + "' is not a signal name"};
    l.kill_sig = n;
  }
  return l;
}

Result<pid_t> launch_job(const JobLaunch& l, std::function<void(ProcessExit)> on_exit) {
  posix_spawn_file_actions_t files;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&files);
  posix_spawnattr_init(&attr);
  const std::string in = l.in.empty() ? "/dev/null" : l.in;
  const std::string out = l.out.empty() ? "/dev/null" : l.out;
  const std::string err = l.err.empty() ? "/dev/null" : l.err;
  posix_spawn_file_actions_addopen(&files, 0, in.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&files, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (err == out)
    posix_spawn_file_actions_adddup2(&files, 1, 2);
  else
    posix_spawn_file_actions_addopen(&files, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (!l.iwd.empty()) posix_spawn_file_actions_addchdir_np(&files, l.iwd.c_str());
  // Nothing else of the daemon's: a job holding a node's TCP connection would
  // keep it half-open after the node dies, hiding the death from its peers.
  posix_spawn_file_actions_addclosefrom_np(&files, 3);
  // Its own process group (pgid = pid), and default signal handling.
  sigset_t defaults, none;
  sigemptyset(&none);
  sigfillset(&defaults);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  std::vector<char*> argv, envp;
  argv.push_back(const_cast<char*>(l.cmd.c_str()));
  for (const std::string& a : l.args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const std::string& e : l.environment) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);

  pid_t pid = 0;
  const int rc = posix_spawn(&pid, l.cmd.c_str(), &files, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&files);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) return Error{"cannot start " + l.cmd + ": " + std::strerror(rc)};
  std::thread([pid, on_exit = std::move(on_exit)] {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    ProcessExit e;
    if (WIFSIGNALED(status)) {
      e.by_signal = true;
      e.code = WTERMSIG(status);
    } else {
      e.code = WEXITSTATUS(status);
    }
    on_exit(e);
  }).detach();
  return pid;
}

void signal_job(pid_t pid, int sig) {
  if (pid > 0) ::kill(-pid, sig);
}

}  // namespace cara::actors
