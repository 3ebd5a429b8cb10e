// Submit requirements and submit warnings (policy-configuration-ep-ap,
// "Submit Requirements", "Submit Warnings"): SUBMIT_REQUIREMENT_NAMES
// lists criteria, each SUBMIT_REQUIREMENT_<name> a boolean expression
// evaluated with MY = the schedd's ad and TARGET = the job, in order.
//   - The first requirement that is not true rejects the job, stops the
//     evaluation and is the only one reported; one rejected job rejects
//     its whole cluster.
//   - SUBMIT_REQUIREMENT_<name>_REASON (an expression giving a string)
//     is the message; without it the message names the requirement.
//   - With SUBMIT_REQUIREMENT_<name>_IS_WARNING true a failure does not
//     reject and does not stop the evaluation; the last failed warning is
//     reported to the submitter and written to the user log.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/eval_env.h"
#include "model/classad/expr.h"
#include "model/common/result.h"

namespace cara::config {
class Config;
}

namespace cara::schedd {

struct SubmitRequirement {
  std::string name;
  classad::ExprPtr expr;
  classad::ExprPtr reason;  // null: the default message
  bool is_warning = false;
};

// Reads the requirements of SUBMIT_REQUIREMENT_NAMES. A listed name
// without a definition, or an expression that does not parse, is an error
// naming the knob.
Result<std::vector<SubmitRequirement>> load_submit_requirements(const config::Config& config);

struct SubmitVerdict {
  bool accepted = true;
  std::string error;                   // why, when not accepted
  std::optional<std::string> warning;  // the last failed warning, if any
};

// Checks the jobs of one cluster.
SubmitVerdict check_submit_requirements(const std::vector<SubmitRequirement>& requirements,
                                        const classad::ClassAd& schedd_ad,
                                        const std::vector<classad::ClassAd>& jobs,
                                        const classad::EvalEnv& env);

}  // namespace cara::schedd
