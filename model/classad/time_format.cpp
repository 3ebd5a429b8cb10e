#include "model/classad/time_format.h"

#include <cmath>
#include <cstdio>

namespace cara::classad {
namespace {

constexpr const char* kDays[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                 "Thursday", "Friday", "Saturday"};
constexpr const char* kMonths[] = {"January", "February", "March",     "April",   "May",      "June",
                                   "July",    "August",   "September", "October", "November", "December"};

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

bool digit(char c) {
  return c >= '0' && c <= '9';
}

// Reads exactly `n` digits at `pos`.
bool fixed(std::string_view s, std::size_t& pos, int n, int& out) {
  if (pos + n > s.size()) return false;
  out = 0;
  for (int k = 0; k < n; ++k) {
    char c = s[pos + k];
    if (!digit(c)) return false;
    out = out * 10 + (c - '0');
  }
  pos += n;
  return true;
}

}  // namespace

std::int64_t days_from_civil(std::int64_t y, int m, int d) {
  // Howard Hinnant's algorithm.
  y -= m <= 2;
  const std::int64_t era = floor_div(y, 400);
  const std::int64_t yoe = y - era * 400;
  const std::int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

CivilTime civil_from_secs(std::int64_t secs, std::int32_t offset) {
  std::int64_t t = secs + offset;
  std::int64_t days = floor_div(t, 86400);
  std::int64_t rem = t - days * 86400;
  CivilTime c{};
  c.hour = static_cast<int>(rem / 3600);
  c.minute = static_cast<int>(rem % 3600 / 60);
  c.second = static_cast<int>(rem % 60);
  std::int64_t z = days + 719468;
  const std::int64_t era = floor_div(z, 146097);
  const std::int64_t doe = z - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  c.day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  c.month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  c.year = yoe + era * 400 + (c.month <= 2);
  c.weekday = static_cast<int>(floor_div(days + 4, 7) * -7 + days + 4);  // 1970-01-01 was a Thursday
  c.yday = static_cast<int>(days - days_from_civil(c.year, 1, 1));
  return c;
}

std::string format_abs_time(std::int64_t secs, std::int32_t offset) {
  CivilTime c = civil_from_secs(secs, offset);
  char buf[64];
  int off = offset < 0 ? -offset : offset;
  std::snprintf(buf, sizeof buf, "%04lld-%02d-%02dT%02d:%02d:%02d%c%02d:%02d", static_cast<long long>(c.year),
                c.month, c.day, c.hour, c.minute, c.second, offset < 0 ? '-' : '+', off / 3600,
                off % 3600 / 60);
  return buf;
}

std::string format_rel_time(double secs) {
  std::string out;
  if (secs < 0) {
    out += '-';
    secs = -secs;
  }
  double whole = std::floor(secs);
  double frac = secs - whole;
  auto total = static_cast<std::int64_t>(whole);
  std::int64_t days = total / 86400;
  int hours = static_cast<int>(total % 86400 / 3600);
  int mins = static_cast<int>(total % 3600 / 60);
  int s = static_cast<int>(total % 60);
  char buf[96];
  if (days)
    std::snprintf(buf, sizeof buf, "%lld+%02d:%02d:%02d", static_cast<long long>(days), hours, mins, s);
  else if (hours)
    std::snprintf(buf, sizeof buf, "%d:%02d:%02d", hours, mins, s);
  else if (mins)
    std::snprintf(buf, sizeof buf, "%d:%02d", mins, s);
  else
    std::snprintf(buf, sizeof buf, "%d", s);
  out += buf;
  if (frac > 0) {
    int ms = static_cast<int>(std::lround(frac * 1000));
    if (ms > 0) {
      std::snprintf(buf, sizeof buf, ".%03d", ms > 999 ? 999 : ms);
      out += buf;
    }
  }
  return out;
}

std::optional<AbsTime> parse_abs_time(std::string_view s, std::int32_t local_offset) {
  std::size_t pos = 0;
  while (pos < s.size() && s[pos] == ' ') ++pos;
  int year, month, day, hour = 0, minute = 0, second = 0;
  if (!fixed(s, pos, 4, year)) return std::nullopt;
  if (pos < s.size() && s[pos] == '-') ++pos;
  if (!fixed(s, pos, 2, month)) return std::nullopt;
  if (pos < s.size() && s[pos] == '-') ++pos;
  if (!fixed(s, pos, 2, day)) return std::nullopt;
  if (pos < s.size() && (s[pos] == 'T' || s[pos] == 't' || s[pos] == ' ')) {
    ++pos;
    if (pos < s.size() && s[pos] == ':') ++pos;  // "1970-01-01T:00:00:01Z" is accepted
    if (!fixed(s, pos, 2, hour)) return std::nullopt;
    if (pos < s.size() && s[pos] == ':') ++pos;
    if (!fixed(s, pos, 2, minute)) return std::nullopt;
    if (pos < s.size() && s[pos] == ':') ++pos;
    if (pos < s.size() && digit(s[pos]) && !fixed(s, pos, 2, second)) return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
    return std::nullopt;
  }
  std::optional<std::int32_t> offset;
  if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
    offset = 0;
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    int sign = s[pos] == '-' ? -1 : 1;
    ++pos;
    int oh, om = 0;
    if (!fixed(s, pos, 2, oh)) return std::nullopt;
    if (pos < s.size() && s[pos] == ':') ++pos;
    if (pos < s.size() && digit(s[pos]) && !fixed(s, pos, 2, om)) return std::nullopt;
    offset = sign * (oh * 3600 + om * 60);
  }
  while (pos < s.size() && s[pos] == ' ') ++pos;
  if (pos != s.size()) return std::nullopt;
  std::int32_t off = offset.value_or(local_offset);
  std::int64_t local = days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second;
  return AbsTime{local - off, off};
}

std::optional<double> parse_rel_time(std::string_view s) {
  std::size_t pos = 0;
  while (pos < s.size() && s[pos] == ' ') ++pos;
  double sign = 1;
  if (pos < s.size() && (s[pos] == '-' || s[pos] == '+')) {
    sign = s[pos] == '-' ? -1 : 1;
    ++pos;
  }
  auto number = [&](double& out) {
    std::size_t start = pos;
    while (pos < s.size() && (digit(s[pos]) || s[pos] == '.')) ++pos;
    if (start == pos) return false;
    std::string tmp(s.substr(start, pos - start));
    char* end = nullptr;
    out = std::strtod(tmp.c_str(), &end);
    return end && *end == '\0';
  };
  bool units = s.find_first_of("dhmsDHMS") != std::string_view::npos;
  double total = 0;
  if (units) {
    // "1d2h3m4.5s"
    while (pos < s.size() && s[pos] != ' ') {
      double v;
      if (!number(v) || pos >= s.size()) return std::nullopt;
      switch (s[pos]) {
        case 'd':
        case 'D': total += v * 86400; break;
        case 'h':
        case 'H': total += v * 3600; break;
        case 'm':
        case 'M': total += v * 60; break;
        case 's':
        case 'S': total += v; break;
        default: return std::nullopt;
      }
      ++pos;
    }
  } else {
    double days = 0;
    double fields[3];
    int n = 0;
    double v;
    if (!number(v)) return std::nullopt;
    if (pos < s.size() && s[pos] == '+') {
      days = v;
      ++pos;
      if (!number(v)) return std::nullopt;
    }
    fields[n++] = v;
    while (pos < s.size() && s[pos] == ':' && n < 3) {
      ++pos;
      if (!number(v)) return std::nullopt;
      fields[n++] = v;
    }
    // The last field is seconds, then minutes, then hours.
    double secs = fields[n - 1];
    double mins = n >= 2 ? fields[n - 2] : 0;
    double hours = n >= 3 ? fields[n - 3] : 0;
    total = days * 86400 + hours * 3600 + mins * 60 + secs;
  }
  while (pos < s.size() && s[pos] == ' ') ++pos;
  if (pos != s.size()) return std::nullopt;
  return sign * total;
}

std::string format_time(const CivilTime& t, std::int32_t offset, std::int64_t secs, std::string_view fmt) {
  std::string out;
  char buf[64];
  auto two = [&](int v) {
    std::snprintf(buf, sizeof buf, "%02d", v);
    out += buf;
  };
  for (std::size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%' || i + 1 == fmt.size()) {
      out += fmt[i];
      continue;
    }
    char c = fmt[++i];
    switch (c) {
      case 'a': out.append(kDays[t.weekday], 3); break;
      case 'A': out += kDays[t.weekday]; break;
      case 'b':
      case 'h': out.append(kMonths[t.month - 1], 3); break;
      case 'B': out += kMonths[t.month - 1]; break;
      case 'c': out += format_time(t, offset, secs, "%a %b %e %H:%M:%S %Y"); break;
      case 'd': two(t.day); break;
      case 'e':
        std::snprintf(buf, sizeof buf, "%2d", t.day);
        out += buf;
        break;
      case 'D': out += format_time(t, offset, secs, "%m/%d/%y"); break;
      case 'F': out += format_time(t, offset, secs, "%Y-%m-%d"); break;
      case 'H': two(t.hour); break;
      case 'I': two(t.hour % 12 == 0 ? 12 : t.hour % 12); break;
      case 'j':
        std::snprintf(buf, sizeof buf, "%03d", t.yday + 1);
        out += buf;
        break;
      case 'm': two(t.month); break;
      case 'M': two(t.minute); break;
      case 'p': out += t.hour < 12 ? "AM" : "PM"; break;
      case 'R': out += format_time(t, offset, secs, "%H:%M"); break;
      case 'S': two(t.second); break;
      case 's': out += std::to_string(secs); break;
      case 'T': out += format_time(t, offset, secs, "%H:%M:%S"); break;
      case 'U': two((t.yday + 7 - t.weekday) / 7); break;
      case 'w': out += static_cast<char>('0' + t.weekday); break;
      case 'W': two((t.yday + 7 - (t.weekday + 6) % 7) / 7); break;
      case 'x': out += format_time(t, offset, secs, "%m/%d/%y"); break;
      case 'X': out += format_time(t, offset, secs, "%H:%M:%S"); break;
      case 'y': two(static_cast<int>(((t.year % 100) + 100) % 100)); break;
      case 'Y': out += std::to_string(t.year); break;
      case 'z':
      case 'Z': {
        if (c == 'Z' && offset == 0) {
          out += "UTC";
          break;
        }
        int off = offset < 0 ? -offset : offset;
        std::snprintf(buf, sizeof buf, "%c%02d%02d", offset < 0 ? '-' : '+', off / 3600, off % 3600 / 60);
        out += buf;
        break;
      }
      case '%': out += '%'; break;
      default: out += '%'; out += c;
    }
  }
  return out;
}

}  // namespace cara::classad
