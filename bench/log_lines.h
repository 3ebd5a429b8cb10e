// Reading the daemons' logs in the bench programs that run real `cara`
// processes: a log line's time, and the first line after a moment that
// says something.
#pragma once

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <optional>
#include <regex>
#include <sstream>
#include <string>

namespace cara::bench {

using Wall = std::chrono::system_clock;

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A log line's time ("2026-11-26 08:10:09.123 INFO ..."), local time.
inline std::optional<Wall::time_point> line_time(const std::string& line) {
  std::tm tm{};
  std::istringstream in(line.substr(0, 19));
  in >> std::get_time(&tm, "%Y-%m-%d %H:%M:%S");
  if (in.fail() || line.size() < 23 || line[19] != '.') return std::nullopt;
  tm.tm_isdst = -1;
  const std::time_t secs = std::mktime(&tm);
  return Wall::from_time_t(secs) + std::chrono::milliseconds(std::stoi(line.substr(20, 3)));
}

struct LogLine {
  Wall::time_point time;
  std::string text;
};

// The first line of `log` at or after `since` that matches `pattern`.
inline std::optional<LogLine> first_after(const std::filesystem::path& log, const std::regex& pattern,
                                          Wall::time_point since) {
  std::istringstream lines(read_file(log));
  std::string line;
  while (std::getline(lines, line)) {
    auto t = line_time(line);
    if (t && *t >= since && std::regex_search(line, pattern)) return LogLine{*t, line};
  }
  return std::nullopt;
}

}  // namespace cara::bench
