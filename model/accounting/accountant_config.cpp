#include "model/accounting/accountant_config.h"

#include <algorithm>

#include "model/common/text.h"
#include "model/config/config.h"

namespace cara::accounting {

Result<AccountantConfig> AccountantConfig::from_config(const config::Config& config) {
  AccountantConfig c;
  const std::pair<double*, const char*> reals[] = {
      {&c.halflife, "PRIORITY_HALFLIFE"},
      {&c.default_factor, "DEFAULT_PRIO_FACTOR"},
      {&c.nice_user_factor, "NICE_USER_PRIO_FACTOR"},
      {&c.remote_factor, "REMOTE_PRIO_FACTOR"},
  };
  for (auto [slot, knob] : reals) {
    auto v = config.real(knob);
    if (!v) return Error{v.error()};
    *slot = *v;
  }
  if (c.halflife <= 0) return Error{"PRIORITY_HALFLIFE must be a positive number of seconds"};
  if (c.default_factor < 1) return Error{"DEFAULT_PRIO_FACTOR must be at least 1"};
  auto weights = config.boolean("NEGOTIATOR_USE_SLOT_WEIGHTS");
  if (!weights) return Error{weights.error()};
  c.use_slot_weights = *weights;
  auto domain = config.string("ACCOUNTANT_LOCAL_DOMAIN");
  if (!domain) return Error{domain.error()};
  if (domain->empty()) domain = config.string("UID_DOMAIN");
  if (!domain) return Error{domain.error()};
  c.local_domain = to_lower(*domain);
  auto groups = config.list("GROUP_NAMES");
  if (!groups) return Error{groups.error()};
  for (const std::string& g : *groups) {
    c.groups.push_back(to_lower(g));
    if (config.defined("GROUP_PRIO_FACTOR_" + g)) {
      auto f = config.real("GROUP_PRIO_FACTOR_" + g);
      if (!f) return Error{f.error()};
      c.group_factors[to_lower(g)] = *f;
    }
  }
  return c;
}

std::string AccountantConfig::group_of(std::string_view submitter) const {
  std::string name = to_lower(submitter.substr(0, submitter.find('@')));
  for (;;) {
    const std::size_t dot = name.rfind('.');
    if (dot == std::string::npos) return kNoGroup;
    name.resize(dot);
    if (is_lower_group(name)) return name;
  }
}

bool AccountantConfig::is_group(std::string_view name) const {
  return std::any_of(groups.begin(), groups.end(), [&](const std::string& g) { return iequals(g, name); });
}

bool AccountantConfig::is_lower_group(std::string_view lower) const {
  return std::find(groups.begin(), groups.end(), lower) != groups.end();
}

double AccountantConfig::initial_factor(std::string_view name, bool is_group) const {
  const std::string n = to_lower(name);
  if (is_group) {
    auto it = group_factors.find(n);
    return it != group_factors.end() ? it->second : default_factor;
  }
  if (n.rfind("nice-user.", 0) == 0) return nice_user_factor;
  const std::size_t at = n.find('@');
  if (at != std::string::npos && !local_domain.empty() && n.substr(at + 1) != local_domain)
    return remote_factor;
  auto it = group_factors.find(group_of(n));
  return it != group_factors.end() ? it->second : default_factor;
}

}  // namespace cara::accounting
