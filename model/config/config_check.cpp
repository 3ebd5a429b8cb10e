#include "model/config/config_check.h"

#include <algorithm>
#include <cctype>

#include "model/config/defaults.h"

namespace cara::config {
namespace {

// The knob an error message starts with ("NUM_CPUS = eight (set at ...)",
// "START (f, line 3): ...", "PRIORITY_HALFLIFE must be ..."), if it names a
// definition that is not a built-in default.
const Definition* knob_of(const Config& config, const std::string& message) {
  std::size_t n = 0;
  while (n < message.size() &&
         (std::isalnum(static_cast<unsigned char>(message[n])) || message[n] == '_' || message[n] == '.'))
    ++n;
  if (n == 0) return nullptr;
  const Definition* d = config.definition(message.substr(0, n));
  if (!d || d->origin.file == "<default>" || d->origin.file == "<machine>") return nullptr;
  return d;
}

std::string with_origin(const std::string& message, const Definition* d) {
  if (!d) return message;
  const std::string origin = d->origin.describe();
  if (message.find(origin) != std::string::npos) return message;
  return message + " (set at " + origin + ")";
}

}  // namespace

std::vector<std::string> collect_config_errors(const Config& config, const ConfigReading& read,
                                               std::size_t max_errors) {
  std::vector<std::string> errors;
  Config current = config;
  while (errors.size() < max_errors) {
    Status s = read(current);
    if (s) break;
    const Definition* d = knob_of(current, s.error());
    const std::string message = with_origin(s.error(), d);
    if (std::find(errors.begin(), errors.end(), message) != errors.end()) break;
    errors.push_back(message);
    if (!d) break;  // nothing to set aside: what follows cannot be told
    current = current.with_default(d->name);
  }
  return errors;
}

}  // namespace cara::config
