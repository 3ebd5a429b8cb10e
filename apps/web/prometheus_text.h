// The Prometheus text exposition format (version 0.0.4), written: a
// family's HELP and TYPE lines, then its samples with escaped label values.
// Only what the exporter needs; promtool checks the result in the tests.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace cara::web {

using Labels = std::vector<std::pair<std::string, std::string>>;

class PrometheusText {
 public:
  // Starts a family: `type` is "gauge" or "counter" (a counter's name ends
  // in _total, by the convention promtool checks).
  void family(const std::string& name, const char* type, const std::string& help);
  // A sample of the family begun last.
  void sample(const Labels& labels, double value);
  void sample(double value) { sample({}, value); }
  const std::string& text() const { return out_; }

 private:
  std::string name_;
  std::string out_;
};

// A label value as the format wants it: backslash, double quote and line
// feed escaped.
std::string escape_label(const std::string& value);

}  // namespace cara::web
