#include "os/daemon_log.h"

#include <chrono>
#include <ctime>

#include "model/common/text.h"

namespace cara::os {
namespace {

const char* level_name(LogLevel l) {
  switch (l) {
    case LogLevel::Debug: return "DEBUG";
    case LogLevel::Info: return "INFO";
    case LogLevel::Warning: return "WARNING";
    case LogLevel::Error: return "ERROR";
  }
  return "?";
}

}  // namespace

DaemonLog::DaemonLog(std::string name, const std::string& file, bool to_stderr)
    : name_(std::move(name)), to_stderr_(to_stderr) {
  if (file.empty()) return;
  file_ = std::fopen(file.c_str(), "a");
  if (!file_)
    std::fprintf(stderr, "%s: cannot open log file %s; logging to stderr only\n", name_.c_str(),
                 file.c_str());
  if (!file_) to_stderr_ = true;
}

DaemonLog::~DaemonLog() {
  if (file_) std::fclose(file_);
}

void DaemonLog::write(LogLevel level, std::string_view text) {
  if (sink_) {
    std::lock_guard<std::mutex> lock(mutex_);
    sink_(level, text);
  }
  if (!file_ && !to_stderr_) return;
  using namespace std::chrono;
  const auto now = system_clock::now();
  const std::time_t secs = system_clock::to_time_t(now);
  const auto millis = duration_cast<milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm local{};
  localtime_r(&secs, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", &local);
  std::lock_guard<std::mutex> lock(mutex_);
  for (std::FILE* out : {file_, to_stderr_ ? stderr : nullptr}) {
    if (!out) continue;
    std::fprintf(out, "%s.%03d %s %s %.*s\n", stamp, static_cast<int>(millis), level_name(level),
                 name_.c_str(), static_cast<int>(text.size()), text.data());
    std::fflush(out);
  }
}

std::string log_file_name(const std::string& daemon) {
  if (daemon == "COLLECTOR") return "CollectorLog";
  if (daemon == "NEGOTIATOR") return "NegotiatorLog";
  if (daemon == "SCHEDD") return "SchedLog";
  if (daemon == "STARTD") return "StartLog";
  if (daemon == "MASTER") return "MasterLog";
  if (daemon == "HAD") return "HADLog";
  const std::string name = daemon.empty() ? "Daemon" : daemon;
  return name.substr(0, 1) + to_lower(name.substr(1)) + "Log";
}

}  // namespace cara::os
