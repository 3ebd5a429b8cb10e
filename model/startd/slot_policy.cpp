#include "model/startd/slot_policy.h"

#include "model/classad/parser.h"
#include "model/config/config.h"
#include "model/startd/slot_layout.h"

namespace cara::startd {
namespace {

// The slot's expression for `knob`, or `fallback` (ClassAd text) when no
// configuration defines it.
Result<classad::ExprPtr> expr(const config::Config& config, int slot_id, int type, const std::string& knob,
                              const char* fallback) {
  std::string name = slot_knob(config, slot_id, type, knob);
  if (!config.defined(name)) {
    auto parsed = classad::parse_expression_shared(fallback);
    return *parsed;
  }
  return config.expression(name);
}

}  // namespace

Result<SlotPolicy> SlotPolicy::from_config(const config::Config& config, int slot_id, int type) {
  SlotPolicy p;
  struct Knob {
    const char* name;
    const char* fallback;
    classad::ExprPtr* out;
  };
  Knob knobs[] = {
      {"START", "True", &p.start},
      {"IS_OWNER", "False", &p.is_owner},
      {"RANK", "0", &p.rank},
      {"WANT_SUSPEND", "False", &p.normal.want_suspend},
      {"SUSPEND", "False", &p.normal.suspend},
      {"CONTINUE", "True", &p.normal.continue_job},
      {"PREEMPT", "False", &p.normal.preempt},
      {"WANT_VACATE", "False", &p.normal.want_vacate},
      {"KILL", "False", &p.normal.kill},
      {"MAXJOBRETIREMENTTIME", "0", &p.max_job_retirement_time},
      {"MachineMaxVacateTime", "600", &p.machine_max_vacate_time},
      {"CLAIM_WORKLIFE", "1200", &p.claim_worklife},
      {"RUNBENCHMARKS", "False", &p.run_benchmarks},
      {"START_BACKFILL", "False", &p.start_backfill},
      {"EVICT_BACKFILL", "False", &p.evict_backfill},
  };
  for (const Knob& k : knobs) {
    auto e = expr(config, slot_id, type, k.name, k.fallback);
    if (!e) return Error{e.error()};
    *k.out = *e;
  }
  p.vanilla = p.normal;
  Knob vanilla[] = {
      {"WANT_SUSPEND_VANILLA", nullptr, &p.vanilla.want_suspend},
      {"SUSPEND_VANILLA", nullptr, &p.vanilla.suspend},
      {"CONTINUE_VANILLA", nullptr, &p.vanilla.continue_job},
      {"PREEMPT_VANILLA", nullptr, &p.vanilla.preempt},
      {"WANT_VACATE_VANILLA", nullptr, &p.vanilla.want_vacate},
      {"KILL_VANILLA", nullptr, &p.vanilla.kill},
  };
  for (const Knob& k : vanilla) {
    std::string name = slot_knob(config, slot_id, type, k.name);
    if (!config.defined(name)) continue;
    auto e = config.expression(name);
    if (!e) return Error{e.error()};
    *k.out = *e;
  }
  for (auto [knob, out] :
       {std::pair{"MATCH_TIMEOUT", &p.match_timeout}, std::pair{"KILLING_TIMEOUT", &p.killing_timeout}}) {
    auto v = config.integer(slot_knob(config, slot_id, type, knob));
    if (!v) return Error{v.error()};
    if (*v < 0) return Error{std::string(knob) + " must not be negative"};
    *out = *v;
  }
  if (config.defined("ENABLE_BACKFILL")) {
    auto b = config.boolean("ENABLE_BACKFILL");
    if (!b) return Error{b.error()};
    p.enable_backfill = *b;
  }
  return p;
}

}  // namespace cara::startd
