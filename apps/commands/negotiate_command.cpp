#include "apps/commands/negotiate_command.h"

#include <chrono>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>

#include "apps/commands/arguments.h"
#include "apps/commands/tool_options.h"
#include "model/accounting/accountant.h"
#include "model/accounting/accountant_records.h"
#include "model/accounting/group_tree.h"
#include "model/classad/parser.h"
#include "model/config/config.h"
#include "model/config/config_host.h"
#include "model/negotiation/negotiation_cycle.h"
#include "model/negotiation/submitter_requests.h"

namespace cara::apps {
namespace {

constexpr const char* kUsage =
    "usage: cara negotiate --config FILE --slots FILE --jobs FILE [--accountant FILE] [--now EPOCH] "
    "[--plain]\n";

struct Options {
  std::optional<std::string> config, slots, jobs, accountant;
  std::optional<std::int64_t> now;
  bool plain = false;
};

Result<Options> parse_args(const std::vector<std::string>& args) {
  Options o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::optional<std::string>& into) -> Status {
      if (i + 1 >= args.size()) return Error{a + " expects a value"};
      into = args[++i];
      return Ok{};
    };
    Status s = Ok{};
    if (is_flag(a, "config")) {
      s = value(o.config);
    } else if (is_flag(a, "slots")) {
      s = value(o.slots);
    } else if (is_flag(a, "jobs")) {
      s = value(o.jobs);
    } else if (is_flag(a, "accountant")) {
      s = value(o.accountant);
    } else if (is_flag(a, "plain")) {
      o.plain = true;
    } else if (is_flag(a, "now")) {
      std::optional<std::string> text;
      s = value(text);
      if (s) {
        char* end = nullptr;
        const long long n = std::strtoll(text->c_str(), &end, 10);
        if (text->empty() || *end != '\0' || n < 0)
          return Error{"--now expects seconds since the epoch, got '" + *text + "'"};
        o.now = n;
      }
    } else {
      return Error{"unknown argument '" + a + "'"};
    }
    if (!s) return Error{s.error()};
  }
  if (!o.config) return Error{"--config FILE is required"};
  if (!o.slots) return Error{"--slots FILE is required"};
  if (!o.jobs) return Error{"--jobs FILE is required"};
  return o;
}

Result<std::vector<classad::ClassAd>> read_ads(config::ConfigHost& host, const std::string& file,
                                               const char* what) {
  auto text = host.read_file(file);
  if (!text) return Error{"cannot read " + std::string(what) + " file " + text.error()};
  auto ads = classad::parse_long_form_ads(*text);
  if (!ads) return Error{std::string(what) + " file " + file + ": " + ads.error()};
  return ads;
}

nlohmann::json to_json(const negotiation::CycleResult& r, const std::vector<classad::ClassAd>& slots) {
  (void)slots;
  nlohmann::json out;
  out["matches"] = nlohmann::json::array();
  for (const auto& m : r.matches) {
    nlohmann::json match = {{"job", m.job_id ? m.job_id->str() : ""},
                            {"slot", m.slot_name},
                            {"submitter", m.submitter},
                            {"group", m.group},
                            {"negotiating_group", m.negotiating_group},
                            {"reason", negotiation::reason_name(m.reason)},
                            {"preempts", m.preempts ? nlohmann::json(*m.preempts) : nlohmann::json(nullptr)},
                            {"weight", m.weight}};
    // ALLOW_PSLOT_PREEMPTION: the dynamic slots the match evicts.
    if (!m.victim_names.empty()) match["preempts_slots"] = m.victim_names;
    out["matches"].push_back(std::move(match));
  }
  out["rejections"] = nlohmann::json::array();
  for (const auto& j : r.rejections)
    out["rejections"].push_back(
        {{"job", j.job_id ? j.job_id->str() : ""}, {"submitter", j.submitter}, {"reason", j.reason}});
  out["submitters"] = nlohmann::json::array();
  for (const auto& s : r.submitters)
    out["submitters"].push_back({{"name", s.name},
                                 {"group", s.group},
                                 {"rup", s.rup},
                                 {"eup", s.eup},
                                 {"pie_slice", s.pie_slice},
                                 {"resources_in_use", s.usage},
                                 {"matched", s.matched}});
  out["groups"] = nlohmann::json::array();
  for (const auto& g : r.groups)
    out["groups"].push_back({{"name", g.name},
                             {"config_quota", g.configured_quota},
                             {"effective_quota", g.effective_quota},
                             {"subtree_quota", g.subtree_quota},
                             {"accept_surplus", g.accept_surplus},
                             {"oversubscribed", g.oversubscribed},
                             {"allocated", g.allocated},
                             {"matched", g.matched},
                             {"requested", g.requested}});
  nlohmann::json stats;
  constexpr std::string_view kPrefix = "LastNegotiationCycle";
  for (const auto& [name, value] : r.stats.attributes()) {
    std::string key = name.substr(kPrefix.size());
    key.pop_back();  // the trailing cycle index 0
    stats[key] = value;
  }
  stats["SlotClasses"] = r.stats.slot_classes;
  stats["SlotEvaluations"] = r.stats.slot_evaluations;
  out["stats"] = stats;
  return out;
}

}  // namespace

int run_negotiate(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                  std::shared_ptr<config::ConfigHost> host, std::int64_t now) {
  if (wants_help(args)) return (out << kUsage, 0);
  auto options = parse_args(args);
  if (!options) {
    err << "cara negotiate: " << options.error() << "\n" << kUsage;
    return kExitUserError;
  }
  const Options& o = *options;
  config::LoadOptions load;
  load.config_file = o.config;
  load.who = {"NEGOTIATOR", ""};
  auto cfg = config::load_config(load, host);
  if (!cfg) {
    err << "cara negotiate: " << cfg.error() << "\n";
    return kExitUserError;
  }
  auto policy = negotiation::NegotiatorPolicy::from_config(*cfg);
  auto accountant_config = accounting::AccountantConfig::from_config(*cfg);
  auto groups = accounting::GroupTree::from_config(*cfg);
  for (const std::string* e :
       {policy ? nullptr : &policy.error(), accountant_config ? nullptr : &accountant_config.error(),
        groups ? nullptr : &groups.error()}) {
    if (e == nullptr) continue;
    err << "cara negotiate: " << *e << "\n";
    return kExitUserError;
  }
  for (const std::string& w : groups->warnings()) err << "cara negotiate: warning: " << w << "\n";
  auto slots = read_ads(*host, *o.slots, "slots");
  if (!slots) {
    err << "cara negotiate: " << slots.error() << "\n";
    return kExitUserError;
  }
  auto jobs = read_ads(*host, *o.jobs, "jobs");
  if (!jobs) {
    err << "cara negotiate: " << jobs.error() << "\n";
    return kExitUserError;
  }
  const std::int64_t when = o.now.value_or(now);
  accounting::Accountant accountant(*accountant_config, when);
  if (o.accountant) {
    auto text = host->read_file(*o.accountant);
    if (!text) {
      err << "cara negotiate: cannot read accountant file " << text.error() << "\n";
      return kExitUserError;
    }
    if (auto s = accounting::load_accountant_records(accountant, *text, *o.accountant, when); !s) {
      err << "cara negotiate: " << s.error() << "\n";
      return kExitUserError;
    }
  }
  // Autoclusters over what the slots and the negotiator read, as a schedd
  // would build them.
  std::vector<const classad::ClassAd*> slot_ptrs;
  for (const classad::ClassAd& s : *slots) slot_ptrs.push_back(&s);
  std::vector<const classad::ExprTree*> exprs;
  for (const classad::ExprPtr* e : {&policy->pre_job_rank, &policy->post_job_rank,
                                    &policy->preemption_requirements, &policy->preemption_rank})
    if (*e) exprs.push_back(e->get());
  const auto requests =
      negotiation::submitter_requests(*jobs, schedd::SignificantAttributes::from_slots(slot_ptrs, exprs));

  classad::EvalEnv env;
  env.now = when;
  std::optional<accounting::GroupTree> tree;
  if (groups->nodes().size() > 1) tree = std::move(*groups);
  negotiation::NegotiationCycle cycle(*policy, accountant, std::move(tree), env);
  cycle.set_slot_classes(!o.plain);
  const auto origin = std::chrono::steady_clock::now();
  cycle.set_clock(
      [origin] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - origin).count(); });
  const negotiation::CycleResult result = cycle.run(*slots, requests);
  out << to_json(result, *slots).dump(2) << "\n";
  return 0;
}

}  // namespace cara::apps
