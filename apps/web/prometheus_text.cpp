#include "apps/web/prometheus_text.h"

#include <fmt/format.h>

#include <cmath>

namespace cara::web {

std::string escape_label(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

namespace {

// HELP text escapes backslash and line feed only.
std::string escape_help(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

std::string number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  // Shortest text that reads back exactly; integers without a fraction.
  return fmt::format("{}", v);
}

}  // namespace

void PrometheusText::family(const std::string& name, const char* type, const std::string& help) {
  name_ = name;
  out_ += "# HELP " + name + " " + escape_help(help) + "\n";
  out_ += "# TYPE " + name + " " + type + "\n";
}

void PrometheusText::sample(const Labels& labels, double value) {
  out_ += name_;
  if (!labels.empty()) {
    out_ += '{';
    for (std::size_t i = 0; i < labels.size(); ++i) {
      if (i) out_ += ',';
      out_ += labels[i].first + "=\"" + escape_label(labels[i].second) + "\"";
    }
    out_ += '}';
  }
  out_ += ' ' + number(value) + '\n';
}

}  // namespace cara::web
