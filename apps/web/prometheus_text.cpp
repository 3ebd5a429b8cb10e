#include "apps/web/prometheus_text.h"

#include <fmt/format.h>

#include <cmath>

namespace cara::web {

namespace {

// Backslash and line feed escaped, and double quotes too in a label value
// (HELP text keeps them as they are).
std::string escape(const std::string& text, bool quotes) {
  std::string out;
  for (char c : text) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else if (c == '"' && quotes)
      out += "\\\"";
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

std::string escape_label(const std::string& value) {
  return escape(value, true);
}

void PrometheusText::family(const std::string& name, const char* type, const std::string& help) {
  name_ = name;
  out_ += "# HELP " + name + " " + escape(help, false) + "\n";
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
