#include "model/sim/swf_trace.h"

#include <charconv>
#include <cmath>

namespace cara::sim {
namespace {

constexpr const char* kFieldNames[18] = {"job number",
                                         "submit time",
                                         "wait time",
                                         "run time",
                                         "allocated processors",
                                         "average CPU time",
                                         "used memory",
                                         "requested processors",
                                         "requested time",
                                         "requested memory",
                                         "status",
                                         "user id",
                                         "group id",
                                         "executable number",
                                         "queue number",
                                         "partition number",
                                         "preceding job number",
                                         "think time"};

// Fields that hold counts or identifiers: whole numbers only.
constexpr bool kWhole[18] = {true,  false, false, false, true, false, false, true, false,
                             false, true,  true,  true,  true, true,  true,  true, false};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::optional<std::int64_t> whole(std::string_view s) {
  s = trim(s);
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

std::optional<double> number(std::string_view s) {
  double v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty() || !std::isfinite(v)) return std::nullopt;
  return v;
}

}  // namespace

std::int64_t SwfJob::processors() const {
  if (allocated_processors > 0) return allocated_processors;
  if (requested_processors > 0) return requested_processors;
  return 1;
}

std::optional<std::int64_t> SwfTrace::unix_start_time() const {
  auto it = header.find("UnixStartTime");
  return it == header.end() ? std::nullopt : whole(it->second);
}

std::optional<std::int64_t> SwfTrace::max_processors() const {
  for (const char* key : {"MaxProcs", "MaxNodes"}) {
    auto it = header.find(key);
    if (it == header.end()) continue;
    auto v = whole(it->second);
    if (v && *v > 0) return v;
  }
  return std::nullopt;
}

Result<SwfTrace> parse_swf(std::string_view text, const std::string& file) {
  SwfTrace trace;
  int line_no = 0;
  std::int64_t previous_id = -1;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    std::string_view line = trim(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_no;
    const std::string where = file + ", line " + std::to_string(line_no);
    if (line.empty()) continue;
    if (line.front() == ';') {
      // ";Name: value" is a header field; any other comment is prose.
      std::string_view body = trim(line.substr(1));
      const std::size_t colon = body.find(':');
      if (colon != std::string_view::npos && colon > 0 &&
          body.substr(0, colon).find_first_of(" \t") == std::string_view::npos)
        trace.header[std::string(body.substr(0, colon))] = std::string(trim(body.substr(colon + 1)));
      continue;
    }
    std::vector<std::string_view> fields;
    for (std::size_t i = 0; i < line.size();) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      std::size_t j = i;
      while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
      if (j > i) fields.push_back(line.substr(i, j - i));
      i = j;
    }
    if (fields.size() != 18)
      return Error{where + ": expected the 18 fields of a Standard Workload Format job, found " +
                   std::to_string(fields.size())};
    double values[18];
    for (int f = 0; f < 18; ++f) {
      const std::string field = "field " + std::to_string(f + 1) + " (" + kFieldNames[f] + ")";
      if (kWhole[f]) {
        auto v = whole(fields[f]);
        if (!v)
          return Error{where + ": " + field + ": '" + std::string(fields[f]) + "' is not a whole number"};
        values[f] = static_cast<double>(*v);
      } else {
        auto v = number(fields[f]);
        if (!v) return Error{where + ": " + field + ": '" + std::string(fields[f]) + "' is not a number"};
        values[f] = *v;
      }
      // -1 marks a missing value; nothing else is negative in SWF.
      if (values[f] < 0 && values[f] != -1)
        return Error{where + ": " + field + ": " + std::string(fields[f]) +
                     " is negative (only -1, for a missing value, may be)"};
    }
    SwfJob j;
    j.id = static_cast<std::int64_t>(values[0]);
    j.submit_time = values[1];
    j.wait_time = values[2];
    j.run_time = values[3];
    j.allocated_processors = static_cast<std::int64_t>(values[4]);
    j.average_cpu_time = values[5];
    j.used_memory = values[6];
    j.requested_processors = static_cast<std::int64_t>(values[7]);
    j.requested_time = values[8];
    j.requested_memory = values[9];
    j.status = static_cast<std::int64_t>(values[10]);
    j.user = static_cast<std::int64_t>(values[11]);
    j.group = static_cast<std::int64_t>(values[12]);
    j.executable = static_cast<std::int64_t>(values[13]);
    j.queue = static_cast<std::int64_t>(values[14]);
    j.partition = static_cast<std::int64_t>(values[15]);
    j.preceding_job = static_cast<std::int64_t>(values[16]);
    j.think_time = values[17];
    j.line = line_no;
    if (j.id < 1) return Error{where + ": field 1 (job number): expected a job number of 1 or more"};
    if (j.id <= previous_id)
      return Error{where + ": field 1 (job number): " + std::to_string(j.id) + " does not follow " +
                   std::to_string(previous_id) + " (jobs are numbered in increasing order)"};
    if (j.submit_time < 0) return Error{where + ": field 2 (submit time): a job must say when it arrived"};
    if (!trace.jobs.empty() && j.submit_time < trace.jobs.back().submit_time)
      return Error{where + ": field 2 (submit time): " + std::string(fields[1]) +
                   " is before the previous job's " + "(jobs are in order of arrival)"};
    previous_id = j.id;
    trace.jobs.push_back(j);
  }
  return trace;
}

}  // namespace cara::sim
