#include "model/schedd/user_log.h"

#include <cinttypes>
#include <cstdio>

#include "model/classad/time_format.h"

namespace cara::schedd {

std::string format_user_log_event(const UserLogEvent& e, std::int32_t local_offset) {
  const classad::CivilTime t = classad::civil_from_secs(e.time, local_offset);
  char head[96];
  std::snprintf(head, sizeof head, "%03d (%03" PRId64 ".%03" PRId64 ".000) %02d/%02d %02d:%02d:%02d ",
                static_cast<int>(e.code), e.job.cluster, e.job.proc, t.month, t.day, t.hour, t.minute,
                t.second);
  std::string out = head + e.headline + "\n";
  for (const std::string& line : e.lines) out += "\t" + line + "\n";
  out += "...\n";
  return out;
}

}  // namespace cara::schedd
