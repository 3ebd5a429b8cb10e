// The fields of the simulator's CSV outputs (jobs.csv, the time series),
// written one way for all of them.
#pragma once

#include <cstdio>
#include <string>

namespace cara::sim {

// Text quoted, with quotes doubled, when it holds a separator, a quote or
// a line break (RFC 4180).
inline std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// The shortest text that reads back as the same double ("60", "0.5025"):
// exact, and the same bytes on every run.
inline std::string csv_number(double v) {
  char buf[32];
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    double back = 0;
    std::sscanf(buf, "%lf", &back);
    if (back == v) break;
  }
  return buf;
}

}  // namespace cara::sim
