// Concurrency limits (central-manager-configuration, "Concurrency
// Limits"): pool-wide counts of jobs that declare they use a named
// resource. A job declares ConcurrencyLimits = "XSW, DATABASE,
// FILESERVER:3" (one unit unless ":units" follows), or
// ConcurrencyLimitsExpr, evaluated against the slot it is matched with
// (MY = job, TARGET = slot). The negotiator's configuration gives each
// name its capacity: <NAME>_LIMIT, else CONCURRENCY_LIMIT_DEFAULT_<SET>
// for a name SET.MEMBER, else CONCURRENCY_LIMIT_DEFAULT, else no limit.
// Names are case-insensitive.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/eval_env.h"
#include "model/common/result.h"

namespace cara::config {
class Config;
}

namespace cara::negotiation {

struct LimitUse {
  std::string name;  // lower-cased
  double units = 1;
  bool operator==(const LimitUse&) const = default;
};

// Parses a list of limits separated by commas and/or spaces. A name is
// letters, digits and '_' with at most one '.', not starting with a digit;
// units are a positive number.
Result<std::vector<LimitUse>> parse_concurrency_limits(std::string_view text);

// The limits `job` uses when it runs on `slot` (which may be null when no
// slot is known: then ConcurrencyLimitsExpr cannot be evaluated and only
// ConcurrencyLimits counts).
Result<std::vector<LimitUse>> job_concurrency_limits(const classad::ClassAd& job,
                                                     const classad::ClassAd* slot,
                                                     const classad::EvalEnv& env);

class ConcurrencyLimits {
 public:
  // Reads every <NAME>_LIMIT and CONCURRENCY_LIMIT_DEFAULT[_<SET>] the
  // configuration defines (not the built-in defaults), refusing values
  // that are not numbers.
  static Result<ConcurrencyLimits> from_config(const config::Config& config);

  // The capacity of limit `name`, or nullopt for no limit.
  std::optional<double> capacity(std::string_view name) const;

  void set_limit(std::string_view name, double capacity);  // <NAME>_LIMIT
  void set_default(std::optional<double> capacity);        // CONCURRENCY_LIMIT_DEFAULT
  void set_set_default(std::string_view set, double capacity);

 private:
  std::map<std::string, double> named_;
  std::map<std::string, double> sets_;
  std::optional<double> default_;
};

// Units in use per limit, and the check a new match must pass.
class ConcurrencyUsage {
 public:
  void add(const std::vector<LimitUse>& uses);
  double in_use(std::string_view name) const;
  // The first limit `uses` would take beyond its capacity, or empty.
  std::string exceeded(const ConcurrencyLimits& limits, const std::vector<LimitUse>& uses) const;

 private:
  std::map<std::string, double> used_;
};

}  // namespace cara::negotiation
