#include "model/negotiation/job_analysis.h"

#include <cstdio>
#include <sstream>

#include "model/classad/eval.h"
#include "model/classad/match.h"
#include "model/classad/parser.h"
#include "model/classad/unparse.h"
#include "model/negotiation/slot_pool.h"

namespace cara::negotiation {
namespace {

// Whether `clause` is true with MY = `my` and TARGET = `target`.
bool holds(const classad::ExprTree& clause, const classad::ClassAd& my, const classad::ClassAd& target,
           const classad::EvalEnv& env) {
  bool ok = false;
  return classad::evaluate(clause, &my, &target, env).bool_equiv(ok) && ok;
}

struct Clause {
  std::string text;
  classad::ExprPtr expr;
};

std::vector<Clause> parsed_clauses(const std::string& text) {
  std::vector<Clause> out;
  for (std::string& c : conjunction_clauses(text))
    if (auto e = classad::parse_expression(c)) out.push_back({std::move(c), *e});
  return out;
}

std::string text_of(const classad::ClassAd& ad, const char* attr) {
  const classad::Attribute* a = ad.find(attr);
  return a ? classad::unparse(*a->expr) : "";
}

std::string string_of(const classad::ClassAd& ad, const char* attr) {
  const classad::Value v = classad::evaluate_attr(ad, attr);
  return v.is_string() ? std::string(v.as_string()) : "";
}

}  // namespace

namespace {

// Calls `visit(i)` for each character of `s` outside string literals.
template <class Visit>
void outside_strings(const std::string& s, Visit visit) {
  bool in_string = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"')
      in_string = true;
    else
      visit(i);
  }
}

std::string trimmed(std::string s) {
  while (!s.empty() && s.front() == ' ') s.erase(s.begin());
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// `s` without the parentheses that enclose the whole of it.
std::string unwrapped(std::string s) {
  s = trimmed(std::move(s));
  while (s.size() >= 2 && s.front() == '(' && s.back() == ')') {
    int depth = 0;
    bool whole = true;
    outside_strings(s, [&](std::size_t i) {
      if (s[i] == '(')
        ++depth;
      else if (s[i] == ')' && --depth == 0 && i + 1 < s.size())
        whole = false;
    });
    if (!whole) break;
    s = trimmed(s.substr(1, s.size() - 2));
  }
  return s;
}

}  // namespace

std::vector<std::string> conjunction_clauses(const std::string& expr) {
  const std::string s = unwrapped(expr);
  std::vector<std::string> out;
  int depth = 0;
  std::size_t start = 0, skip_to = 0;
  outside_strings(s, [&](std::size_t i) {
    if (i < skip_to) return;
    const char c = s[i];
    if (c == '(' || c == '[' || c == '{')
      ++depth;
    else if (c == ')' || c == ']' || c == '}')
      --depth;
    else if (depth == 0 && c == '&' && i + 1 < s.size() && s[i + 1] == '&') {
      out.push_back(unwrapped(s.substr(start, i - start)));
      start = i + 2;
      skip_to = i + 2;
    }
  });
  out.push_back(unwrapped(s.substr(start)));
  std::erase_if(out, [](const std::string& c) { return c.empty(); });
  return out;
}

JobAnalysis analyze_job(const classad::ClassAd& job, const std::vector<classad::ClassAd>& slots,
                        const std::map<std::string, double>& priorities, const std::string& submitter,
                        std::int64_t now, std::size_t max_refusals) {
  classad::EvalEnv env;
  env.now = now;
  JobAnalysis a;
  a.slots = slots.size();
  a.requirements = text_of(job, "Requirements");
  const std::vector<Clause> clauses = parsed_clauses(a.requirements);
  for (const Clause& c : clauses) a.clauses.push_back({c.text, 0});
  auto mine = priorities.find(submitter);
  for (const classad::ClassAd& slot : slots) {
    bool fits = true;
    for (std::size_t i = 0; i < clauses.size(); ++i) {
      if (holds(*clauses[i].expr, job, slot, env))
        ++a.clauses[i].matched;
      else
        fits = false;
    }
    if (!fits || !classad::requirements_met(job, slot, env)) {
      ++a.rejected_by_job;
      continue;
    }
    // The slot's own say: START (its Requirements is False while it is
    // Matched, Preempting or Drained, whatever START says).
    const classad::Attribute* start = slot.find("Start");
    const bool accepts =
        start ? holds(*start->expr, slot, job, env) : classad::requirements_met(slot, job, env);
    if (!accepts) {
      ++a.rejected_by_slot;
      if (a.refusals.size() < max_refusals) {
        SlotRefusal r{string_of(slot, "Name"), text_of(slot, start ? "Start" : "Requirements")};
        for (const Clause& c : parsed_clauses(r.clause))
          if (!holds(*c.expr, slot, job, env)) {
            r.clause = c.text;
            break;
          }
        a.refusals.push_back(std::move(r));
      }
      continue;
    }
    const std::string state = string_of(slot, "State");
    if (state == "Unclaimed" || state == "Owner") {
      ++a.available;
      continue;
    }
    const std::string user = remote_submitter(slot);
    if (user == submitter) {
      ++a.running_yours;
      continue;
    }
    auto theirs = priorities.find(user);
    if (theirs != priorities.end() && mine != priorities.end() && theirs->second < mine->second)
      ++a.serving_better;
    else
      ++a.serving_others;
  }
  return a;
}

std::optional<std::int64_t> estimated_wait(std::int64_t jobs_ahead, double starts_per_hour) {
  if (starts_per_hour <= 0) return std::nullopt;
  return static_cast<std::int64_t>(static_cast<double>(jobs_ahead + 1) / starts_per_hour * 3600.0);
}

std::string format_analysis(const std::string& job_id, const JobAnalysis& a, const CycleNote& cycle,
                            std::optional<std::int64_t> wait) {
  std::ostringstream out;
  out << "The Requirements expression for job " << job_id << " is\n\n    " << a.requirements << "\n\n";
  out << "The Requirements expression for job " << job_id << " reduces to these conditions:\n\n"
      << "         Slots\nStep    Matched  Condition\n-----  --------  ---------\n";
  for (std::size_t i = 0; i < a.clauses.size(); ++i) {
    char line[64];
    std::snprintf(line, sizeof line, "[%zu]%*s%8zu  ", i, static_cast<int>(6 - std::to_string(i).size() - 2),
                  "", a.clauses[i].matched);
    out << line << a.clauses[i].clause << "\n";
  }
  out << "\n";
  if (cycle.cycle_time == 0) {
    out << "Its submitter was not negotiated for yet.\n";
  } else {
    out << "In the last negotiation cycle its submitter got " << cycle.matched << " match"
        << (cycle.matched == 1 ? "" : "es");
    if (cycle.reasons.empty())
      out << ".\n";
    else {
      out << "; the reasons its requests went unmatched:\n";
      for (const std::string& r : cycle.reasons) out << "    " << r << "\n";
    }
  }
  out << "\n"
      << job_id << ":  Run analysis summary.  Of " << a.slots << " slots,\n"
      << "  " << a.rejected_by_job << " are rejected by your job's requirements\n"
      << "  " << a.rejected_by_slot << " reject your job because of their own requirements\n"
      << "  " << a.running_yours << " match and are already running your jobs\n"
      << "  " << a.serving_better << " match but are serving users with a better priority in the pool\n"
      << "  " << a.serving_others << " match but are serving other users\n"
      << "  " << a.available << " are able to run your job\n";
  if (!a.refusals.empty()) {
    out << "\nSlots whose START refuses it, and the clause that does:\n";
    for (const SlotRefusal& r : a.refusals) out << "    " << r.slot << ": " << r.clause << "\n";
  }
  if (a.rejected_by_job == a.slots && a.slots > 0)
    out << "\nWARNING: no slot of the pool matches your job's requirements: check the conditions above that "
           "match 0 slots.\n";
  if (wait) {
    const std::int64_t s = *wait;
    char when[64];
    std::snprintf(when, sizeof when, "%lld+%02lld:%02lld", static_cast<long long>(s / 86400),
                  static_cast<long long>(s % 86400 / 3600), static_cast<long long>(s % 3600 / 60));
    out << "\nAt the rate its submitter's jobs started of late, it may start in about " << when
        << " (d+hh:mm).\n";
  }
  return out.str();
}

}  // namespace cara::negotiation
