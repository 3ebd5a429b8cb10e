// Job transforms (policy-configuration-ep-ap, "Job Transforms"): the
// schedd rewrites each job ad at submission with the rules of every
// transform in JOB_TRANSFORM_NAMES whose REQUIREMENTS the job meets, in
// order (all matching transforms apply, not just the first).
//
// The rule language is the job router's:
//   # comment
//   NAME = value              a temporary macro, for $(NAME) in later rules
//   REQUIREMENTS expr         the transform applies when expr is true (MY = job)
//   SET attr [=] expr         attr becomes expr
//   DEFAULT attr [=] expr     ... only when the job has no attr
//   EVALSET attr [=] expr     attr becomes the value of expr, evaluated now
//   EVALMACRO name [=] expr   macro name becomes the value of expr
//   COPY from to | COPY /re/ to     (to may use \1..\9 captures)
//   RENAME from to | RENAME /re/ to
//   DELETE attr | DELETE /re/
//   UNIVERSE vanilla
// Rules are expanded as they are applied: $(MY.Attr) is the job's Attr as
// written (so `SET Requirements = TARGET.HasDocker && $(MY.Requirements)`
// extends the job's own), $(NAME) a macro of the transform, and any
// other $(NAME) a configuration macro.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/eval_env.h"
#include "model/common/result.h"

namespace cara::config {
class Config;
}

namespace cara::schedd {

enum class TransformVerb { Macro, Requirements, Set, Default, EvalSet, EvalMacro, Copy, Rename, Delete };

struct TransformRule {
  TransformVerb verb;
  std::string target;    // attribute, macro name, or /regex/ (Copy, Rename, Delete)
  std::string argument;  // expression, macro value, or the new attribute name
  int line = 0;          // within the transform's text, from 1
};

class JobTransform {
 public:
  // Reads the rules of transform `name` from `text`. Errors name the
  // transform and the line and say what was expected.
  static Result<JobTransform> parse(std::string_view name, std::string_view text);

  const std::string& name() const { return name_; }
  const std::vector<TransformRule>& rules() const { return rules_; }

  // Applies the transform to `job` when its REQUIREMENTS hold: true when
  // it applied, false when the job did not match. `config` (may be null)
  // supplies other macros. An error (a rule that does not parse once
  // expanded) leaves `job` unchanged.
  Result<bool> apply(classad::ClassAd& job, const config::Config* config, const classad::EvalEnv& env) const;

 private:
  std::string name_;
  std::vector<TransformRule> rules_;
};

// The transforms JOB_TRANSFORM_NAMES lists, from JOB_TRANSFORM_<name>
// (raw: $(MY.x) is expanded per job, not when the configuration is read).
// A listed name without a definition is an error.
Result<std::vector<JobTransform>> load_job_transforms(const config::Config& config);

// Applies every transform in order; the first error stops and is returned
// with the transform's name.
Status apply_job_transforms(const std::vector<JobTransform>& transforms, classad::ClassAd& job,
                            const config::Config* config, const classad::EvalEnv& env);

}  // namespace cara::schedd
