#include "model/negotiation/concurrency_limits.h"

#include <cctype>
#include <cstdlib>

#include "model/accounting/accountant_config.h"
#include "model/classad/eval.h"
#include "model/common/text.h"
#include "model/config/config.h"

namespace cara::negotiation {
namespace {

bool valid_name(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  int dots = 0;
  for (char c : name) {
    if (c == '.') {
      ++dots;
    } else if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') {
      return false;
    }
  }
  return dots <= 1 && name.front() != '.' && name.back() != '.';
}

constexpr std::string_view kDefault = "CONCURRENCY_LIMIT_DEFAULT";
constexpr std::string_view kSuffix = "_LIMIT";

}  // namespace

Result<std::vector<LimitUse>> parse_concurrency_limits(std::string_view text) {
  std::vector<LimitUse> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ',' || std::isspace(static_cast<unsigned char>(text[i])))) ++i;
    if (i >= text.size()) break;
    std::size_t end = i;
    while (end < text.size() && text[end] != ',' && !std::isspace(static_cast<unsigned char>(text[end])))
      ++end;
    const std::string_view item = text.substr(i, end - i);
    i = end;
    LimitUse use;
    const std::size_t colon = item.find(':');
    const std::string_view name = item.substr(0, colon);
    if (!valid_name(name))
      return Error{"concurrency limit '" + std::string(item) +
                   "': expected a name of letters, digits and '_' with at most one '.', not starting "
                   "with a digit"};
    use.name = to_lower(name);
    if (colon != std::string_view::npos) {
      const std::string units(item.substr(colon + 1));
      char* stop = nullptr;
      use.units = std::strtod(units.c_str(), &stop);
      if (units.empty() || *stop != '\0' || !(use.units > 0))
        return Error{"concurrency limit '" + std::string(item) +
                     "': expected a positive number of units after ':'"};
    }
    out.push_back(std::move(use));
  }
  return out;
}

Result<std::vector<LimitUse>> job_concurrency_limits(const classad::ClassAd& job,
                                                     const classad::ClassAd* slot,
                                                     const classad::EvalEnv& env) {
  if (job.find("ConcurrencyLimitsExpr") != nullptr && slot != nullptr) {
    const classad::Value v = classad::evaluate_attr(job, "ConcurrencyLimitsExpr", slot, env);
    if (v.is_undefined()) return std::vector<LimitUse>{};
    if (!v.is_string()) return Error{"ConcurrencyLimitsExpr does not evaluate to a string against this slot"};
    return parse_concurrency_limits(v.as_string());
  }
  const classad::Value v = classad::evaluate_attr(job, "ConcurrencyLimits", nullptr, env);
  if (v.is_undefined()) return std::vector<LimitUse>{};
  if (!v.is_string()) return Error{"ConcurrencyLimits is not a string"};
  return parse_concurrency_limits(v.as_string());
}

Result<ConcurrencyLimits> ConcurrencyLimits::from_config(const config::Config& config) {
  ConcurrencyLimits limits;
  for (const config::Definition* d : config.macros().all()) {
    if (d->origin.file == "<default>") continue;
    // The name without any SUBSYS./LOCAL. prefix; the configuration
    // resolves it for this daemon.
    std::string name = d->name;
    const std::size_t dot = name.rfind('.');
    if (dot != std::string::npos) name = name.substr(dot + 1);
    const std::string upper = [&] {
      std::string u = name;
      for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      return u;
    }();
    const bool is_default = upper.rfind(kDefault, 0) == 0;
    const bool is_limit = !is_default && upper.size() > kSuffix.size() &&
                          upper.compare(upper.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0;
    if (!is_default && !is_limit) continue;
    if (!config.defined(name)) continue;
    auto v = config.real(name);
    if (!v) return Error{v.error()};
    if (upper == kDefault) {
      limits.set_default(*v);
    } else if (is_default) {
      if (upper[kDefault.size()] != '_') continue;
      limits.set_set_default(name.substr(kDefault.size() + 1), *v);
    } else {
      limits.set_limit(name.substr(0, name.size() - kSuffix.size()), *v);
    }
  }
  return limits;
}

void ConcurrencyLimits::set_limit(std::string_view name, double capacity) {
  named_[to_lower(name)] = capacity;
}
void ConcurrencyLimits::set_default(std::optional<double> capacity) {
  default_ = capacity;
}
void ConcurrencyLimits::set_set_default(std::string_view set, double capacity) {
  sets_[to_lower(set)] = capacity;
}

std::optional<double> ConcurrencyLimits::capacity(std::string_view name) const {
  const std::string key = to_lower(name);
  if (auto it = named_.find(key); it != named_.end()) return it->second;
  const std::size_t dot = key.find('.');
  if (dot != std::string::npos) {
    if (auto it = sets_.find(key.substr(0, dot)); it != sets_.end()) return it->second;
  }
  return default_;
}

void ConcurrencyUsage::add(const std::vector<LimitUse>& uses) {
  for (const LimitUse& u : uses) used_[u.name] += u.units;
}

double ConcurrencyUsage::in_use(std::string_view name) const {
  auto it = used_.find(to_lower(name));
  return it == used_.end() ? 0 : it->second;
}

std::string ConcurrencyUsage::exceeded(const ConcurrencyLimits& limits,
                                       const std::vector<LimitUse>& uses) const {
  for (const LimitUse& u : uses) {
    const std::optional<double> cap = limits.capacity(u.name);
    if (cap && in_use(u.name) + u.units > *cap + 1e-9) return u.name;
  }
  return {};
}

}  // namespace cara::negotiation
