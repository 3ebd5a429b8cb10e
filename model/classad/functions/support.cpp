#include "model/classad/functions/support.h"

#include <cstdlib>

#include "model/classad/symbol.h"
#include "model/classad/time_format.h"
#include "model/classad/unparse.h"

namespace cara::classad::fn {

Value to_string_value(const Value& v) {
  switch (v.type()) {
    case ValueType::Undefined:
    case ValueType::Error:
    case ValueType::String: return v;
    case ValueType::AbsTime: return Value::string(format_abs_time(v.abs_secs(), v.abs_offset()));
    case ValueType::RelTime: return Value::string(format_rel_time(v.rel_secs()));
    default: return Value::string(unparse(v));
  }
}

std::optional<double> parse_number(std::string_view s) {
  std::string tmp(s);
  const char* start = tmp.c_str();
  char* end = nullptr;
  double r = std::strtod(start, &end);
  if (end == start) return std::nullopt;
  switch (*end) {
    case 'k':
    case 'K': r *= 1024.0; break;
    case 'm':
    case 'M': r *= 1024.0 * 1024.0; break;
    case 'g':
    case 'G': r *= 1024.0 * 1024.0 * 1024.0; break;
    case 't':
    case 'T': r *= 1024.0 * 1024.0 * 1024.0 * 1024.0; break;
    default: break;
  }
  return r;
}

std::vector<std::string_view> tokens(std::string_view list, std::string_view delims) {
  std::vector<std::string_view> out;
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  std::size_t pos = 0;
  while (pos <= list.size()) {
    std::size_t end = list.find_first_of(delims, pos);
    if (end == std::string_view::npos) end = list.size();
    std::string_view tok = list.substr(pos, end - pos);
    while (!tok.empty() && space(tok.front())) tok.remove_prefix(1);
    while (!tok.empty() && space(tok.back())) tok.remove_suffix(1);
    if (!tok.empty()) out.push_back(tok);
    if (end == list.size()) break;
    pos = end + 1;
  }
  return out;
}

}  // namespace cara::classad::fn
