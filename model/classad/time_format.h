// Absolute and relative times for the ClassAd language (absTime, relTime,
// splitTime, formatTime, interval). Pure arithmetic on the proleptic
// Gregorian calendar: no libc time zone, so results do not depend on the
// machine; the "local" offset is always a parameter.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cara::classad {

struct CivilTime {
  std::int64_t year;
  int month, day, hour, minute, second;  // month 1-12, day 1-31
  int weekday;                           // 0 = Sunday
  int yday;                              // 0-365
};

std::int64_t days_from_civil(std::int64_t y, int m, int d);
// Broken-down time of `secs` seconds since the epoch shifted by `offset`.
CivilTime civil_from_secs(std::int64_t secs, std::int32_t offset);

// "2004-01-01T00:00:00+00:00" (HTCondor absTimeToString).
std::string format_abs_time(std::int64_t secs, std::int32_t offset);
// "[-]D+HH:MM:SS[.fff]", with leading zero components left out (relTime).
std::string format_rel_time(double secs);

struct AbsTime {
  std::int64_t secs;
  std::int32_t offset;
};
// Parses "YYYY-MM-DD[T[:]HH:MM[:SS]][Z|+hh[:]mm|-hh[:]mm]"; a time without
// a zone is local time at `local_offset`.
std::optional<AbsTime> parse_abs_time(std::string_view text, std::int32_t local_offset);
// Parses "[-][D+]HH:MM:SS[.fff]" (fewer fields allowed) or "1d2h3m4.5s".
std::optional<double> parse_rel_time(std::string_view text);

// strftime's ANSI conversions (and %e %T %D %F %R %s %z %%), C locale.
std::string format_time(const CivilTime& t, std::int32_t offset, std::int64_t secs, std::string_view format);

}  // namespace cara::classad
