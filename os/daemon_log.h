// A daemon's log: one line per event, with the time and a level, to the
// daemon's own file in LOG (CollectorLog, NegotiatorLog, SchedLog,
// StartLog, MasterLog, as HTCondor names them) and, for a node in the
// foreground, to stderr. Thread-safe; a daemon that cannot open its file
// still logs to stderr and says so once.
#pragma once

#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace cara::os {

enum class LogLevel { Debug, Info, Warning, Error };

class DaemonLog {
 public:
  // Logs nowhere (embedded pools and tests that do not look).
  DaemonLog() = default;
  // `file` empty: stderr only (when `to_stderr`).
  DaemonLog(std::string name, const std::string& file, bool to_stderr);
  // Hands every line to `sink` (an embedding program's own log, a test).
  using Sink = std::function<void(LogLevel, std::string_view)>;
  DaemonLog(std::string name, Sink sink) : name_(std::move(name)), sink_(std::move(sink)) {}
  ~DaemonLog();
  DaemonLog(const DaemonLog&) = delete;
  DaemonLog& operator=(const DaemonLog&) = delete;

  void write(LogLevel level, std::string_view text);
  void info(std::string_view text) { write(LogLevel::Info, text); }
  void warning(std::string_view text) { write(LogLevel::Warning, text); }
  void error(std::string_view text) { write(LogLevel::Error, text); }

  const std::string& name() const { return name_; }

 private:
  std::string name_;
  std::FILE* file_ = nullptr;
  bool to_stderr_ = false;
  Sink sink_;
  std::mutex mutex_;
};

// HTCondor's log file name for a daemon of DAEMON_LIST ("SCHEDD" ->
// "SchedLog").
std::string log_file_name(const std::string& daemon);

}  // namespace cara::os
