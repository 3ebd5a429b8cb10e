#include "apps/commands/userprio_view.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "apps/commands/arguments.h"
#include "apps/commands/tool_options.h"
#include "model/classad/eval.h"
#include "model/classad/time_format.h"

namespace cara::apps {

const char* const kUserprioUsage =
    "usage: cara userprio [--config FILE] [-pool CM] [-name NEGOTIATOR] [-allusers]\n"
    "                     [-most | -usage | -quotas | -getreslist NAME] [-l | -json | -af ATTR...]\n"
    "       cara userprio [--config FILE] [-pool CM] [-name NEGOTIATOR] CHANGE...\n"
    "  CHANGE: -setfactor NAME F | -setprio NAME P | -setaccum NAME A | -setfloor NAME N [-duration S] |\n"
    "          -setceil NAME N [-duration S] | -resetusage NAME | -delete NAME |\n"
    "          -setbegin NAME EPOCH | -setlast NAME EPOCH\n"
    "  NAME is a submitter (user@domain) or an accounting group.\n"
    "  -name asks the negotiator of that name (NEGOTIATOR_NAME) when several share the pool;\n"
    "  without it, the central manager's.\n";

namespace {

double number(const classad::ClassAd& ad, const char* attr) {
  double d = 0;
  return classad::evaluate_attr(ad, attr).number(d) ? d : 0;
}

std::string text(const classad::ClassAd& ad, const char* attr) {
  const classad::Value v = classad::evaluate_attr(ad, attr);
  return v.is_string() ? std::string(v.as_string()) : "";
}

std::string fixed2(double d) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", d);
  return buf;
}

std::string pad_left(const std::string& s, std::size_t w) {
  return s.size() >= w ? s : std::string(w - s.size(), ' ') + s;
}

std::string pad_right(const std::string& s, std::size_t w) {
  return s.size() >= w ? s : s + std::string(w - s.size(), ' ');
}

// "11/12 15:18": condor_userprio's "Last Priority Update".
std::string month_day_time(std::int64_t secs, std::int32_t offset) {
  const classad::CivilTime t = classad::civil_from_secs(secs, offset);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%02d/%02d %02d:%02d", t.month, t.day, t.hour, t.minute);
  return buf;
}

// "11/12/2026 15:18" for -most and -usage; "<never>" for none.
std::string full_date(std::int64_t secs, std::int32_t offset) {
  if (secs <= 0) return "<never>";
  const classad::CivilTime t = classad::civil_from_secs(secs, offset);
  char buf[48];
  std::snprintf(buf, sizeof buf, "%02d/%02d/%04lld %02d:%02d", t.month, t.day, static_cast<long long>(t.year),
                t.hour, t.minute);
  return buf;
}

// "d+hh:mm" since the record last had claims; "<now>" while it has some.
std::string time_since(const classad::ClassAd& r, std::int64_t now) {
  if (number(r, "ResourcesUsed") > 0) return "<now>";
  const auto last = static_cast<std::int64_t>(number(r, "LastUsageTime"));
  if (last <= 0) return "<never>";
  const std::int64_t s = std::max<std::int64_t>(now - last, 0);
  char buf[48];
  std::snprintf(buf, sizeof buf, "%lld+%02lld:%02lld", static_cast<long long>(s / 86400),
                static_cast<long long>(s % 86400 / 3600), static_cast<long long>(s % 3600 / 60));
  return buf;
}

// A fixed-width table in condor_userprio's style: two header lines, a
// rule, the rows, a rule, and a footer.
struct Columns {
  std::vector<std::size_t> widths;
  std::vector<bool> left;
  std::string line(const std::vector<std::string>& cells) const {
    std::string out;
    for (std::size_t i = 0; i < widths.size(); ++i) {
      const std::string c = i < cells.size() ? cells[i] : "";
      out += (left[i] ? pad_right(c, widths[i]) : pad_left(c, widths[i])) + " ";
    }
    return out;
  }
  std::string rule() const {
    std::string out;
    for (std::size_t w : widths) out += std::string(w, '-') + " ";
    return out;
  }
};

bool has_usage(const classad::ClassAd& r) {
  return number(r, "ResourcesUsed") > 0 || number(r, "AccumulatedUsage") > 0 ||
         number(r, "LastUsageTime") > 0;
}

// The records to show, best effective priority first (condor_userprio's
// default order).
std::vector<const classad::ClassAd*> shown(const UserprioOptions& o, const AccountantView& a) {
  std::vector<const classad::ClassAd*> out;
  for (const classad::ClassAd& r : a.records)
    if (o.allusers || has_usage(r)) out.push_back(&r);
  std::stable_sort(out.begin(), out.end(), [](const classad::ClassAd* x, const classad::ClassAd* y) {
    const double ex = number(*x, "EffectivePriority"), ey = number(*y, "EffectivePriority");
    return ex != ey ? ex < ey : text(*x, "Name") < text(*y, "Name");
  });
  return out;
}

void user_table(std::ostream& out, const UserprioOptions& o, const AccountantView& a, std::int64_t now,
                std::int32_t offset) {
  const auto rows = shown(o, a);
  Columns c;
  std::vector<std::vector<std::string>> header(2);
  auto add = [&](std::size_t width, bool left, const char* top, const char* bottom) {
    c.widths.push_back(width);
    c.left.push_back(left);
    header[0].push_back(top);
    header[1].push_back(bottom);
  };
  add(34, true, "", "User Name");
  const bool most = o.view == UserprioOptions::View::Most, usage = o.view == UserprioOptions::View::Usage;
  if (!usage) add(12, false, "Effective", "Priority");
  if (most) add(9, false, "Real", "Priority");
  if (!usage) add(9, false, "Priority", "Factor");
  add(6, false, "Res", "In Use");
  add(12, false, "Total Usage", "(wghted-hrs)");
  if (most || usage) {
    add(16, false, "Usage", "Start Time");
    add(16, false, "Last", "Usage Time");
  } else {
    add(10, false, "Time Since", "Last Usage");
  }
  out << "Last Priority Update: " << month_day_time(a.last_update, offset) << "\n";
  out << c.line(header[0]) << "\n" << c.line(header[1]) << "\n" << c.rule() << "\n";
  double in_use = 0, hours = 0;
  for (const classad::ClassAd* r : rows) {
    const double used = number(*r, "WeightedResourcesUsed"),
                 h = number(*r, "WeightedAccumulatedUsage") / 3600;
    in_use += used;
    hours += h;
    std::vector<std::string> cells{text(*r, "Name")};
    if (!usage) cells.push_back(fixed2(number(*r, "EffectivePriority")));
    if (most) cells.push_back(fixed2(number(*r, "Priority")));
    if (!usage) cells.push_back(fixed2(number(*r, "PriorityFactor")));
    cells.push_back(std::to_string(static_cast<std::int64_t>(used)));
    cells.push_back(fixed2(h));
    if (most || usage) {
      cells.push_back(full_date(static_cast<std::int64_t>(number(*r, "BeginUsageTime")), offset));
      cells.push_back(full_date(static_cast<std::int64_t>(number(*r, "LastUsageTime")), offset));
    } else {
      cells.push_back(time_since(*r, now));
    }
    out << c.line(cells) << "\n";
  }
  out << c.rule() << "\n";
  // The footer sums In Use and Total Usage under their columns.
  std::vector<std::string> footer{"Number of users: " + std::to_string(rows.size())};
  for (std::size_t i = 1; i + 1 < c.widths.size(); ++i) {
    const std::string& h = header[1][i];
    footer.push_back(h == "In Use"         ? std::to_string(static_cast<std::int64_t>(in_use))
                     : h == "(wghted-hrs)" ? fixed2(hours)
                                           : "");
  }
  std::string f = c.line(footer);
  while (!f.empty() && f.back() == ' ') f.pop_back();
  out << f << "\n";
}

// As the spec's example: central-manager-configuration, "condor_userprio -quotas".
void quota_table(std::ostream& out, const AccountantView& a, std::int32_t offset) {
  out << "Last Priority Update: " << month_day_time(a.last_update, offset) << "\n"
      << "Group                    Effective  Config     Use    Subtree  Requested \n"
      << "Name                       Quota     Quota   Surplus   Quota   Resources \n"
      << "------------------------ --------- --------- ------- --------- ---------- \n";
  std::size_t n = 0;
  for (const classad::ClassAd& g : a.groups) {
    const std::string name = text(g, "Name");
    if (name == "<none>") continue;  // the root group has no quota of its own
    ++n;
    char buf[256];
    std::snprintf(buf, sizeof buf, "%-24s %9.2f %9.2f %-7s %9.2f %10lld \n", name.c_str(),
                  number(g, "EffectiveQuota"), number(g, "ConfigQuota"), text(g, "SurplusPolicy").c_str(),
                  number(g, "SubtreeQuota"), static_cast<long long>(number(g, "Requested")));
    out << buf;
  }
  out << "------------------------ --------- --------- ------- --------- ---------- \n"
      << pad_right("Number of users: " + std::to_string(n), 51) << "ByQuota\n";
}

void resource_list(std::ostream& out, const std::string& who, const AccountantView& a, std::int64_t now,
                   std::int32_t offset) {
  std::vector<const classad::ClassAd*> mine;
  for (const classad::ClassAd& c : a.claims)
    if (text(c, "Submitter") == who) mine.push_back(&c);
  out << who << ": " << mine.size() << " resource" << (mine.size() == 1 ? "" : "s") << "\n";
  for (const classad::ClassAd* c : mine) {
    const auto start = static_cast<std::int64_t>(number(*c, "StartTime"));
    out << "  " << pad_right(text(*c, "Name"), 40) << " since " << full_date(start, offset) << " ("
        << std::max<std::int64_t>(now - start, 0) << " s), weight " << fixed2(number(*c, "SlotWeight"))
        << "\n";
  }
}

Result<double> parse_number(const std::string& option, const std::string& text) {
  try {
    std::size_t used = 0;
    const double d = std::stod(text, &used);
    if (used == text.size()) return d;
  } catch (...) {
  }
  return Error{option + " expects a number, not '" + text + "'"};
}

}  // namespace

Result<UserprioOptions> parse_userprio_options(const std::vector<std::string>& args) {
  UserprioOptions o;
  const SharedOptions shared{&o.config, &o.pool, nullptr, &o.output, &o.name};
  // Options that change a record: how many values each takes after NAME.
  const std::pair<const char*, int> changes[] = {{"setfactor", 1}, {"setprio", 1},  {"setaccum", 1},
                                                 {"setfloor", 1},  {"setceil", 1},  {"resetusage", 0},
                                                 {"delete", 0},    {"setbegin", 1}, {"setlast", 1}};
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto common = shared.take(args, i);
    if (!common) return Error{common.error()};
    if (*common) continue;
    bool change = false;
    for (const auto& [word, values] : changes) {
      if (!is_flag(a, word)) continue;
      change = true;
      if (i + 1 + static_cast<std::size_t>(values) >= args.size())
        return Error{a + (values ? " expects a name and a value" : " expects a name")};
      UserprioEdit e{word, args[i + 1], 0, 0};
      if (values) {
        auto v = parse_number(a, args[i + 2]);
        if (!v) return Error{v.error()};
        e.value = *v;
      }
      i += 1 + static_cast<std::size_t>(values);
      o.edits.push_back(std::move(e));
    }
    if (change) continue;
    if (is_flag(a, "duration")) {
      auto v = option_value(args, i, "a number of seconds");
      if (!v) return Error{v.error()};
      auto d = parse_number(a, *v);
      if (!d) return Error{d.error()};
      if (o.edits.empty() || (o.edits.back().command != "setfloor" && o.edits.back().command != "setceil"))
        return Error{"-duration follows a -setfloor or -setceil"};
      if (*d <= 0) return Error{"-duration expects a positive number of seconds"};
      o.edits.back().duration = static_cast<std::int64_t>(*d);
    } else if (is_flag(a, "allusers")) {
      o.allusers = true;
    } else if (is_flag(a, "most")) {
      o.view = UserprioOptions::View::Most;
    } else if (is_flag(a, "usage")) {
      o.view = UserprioOptions::View::Usage;
    } else if (is_flag(a, "quotas")) {
      o.view = UserprioOptions::View::Quotas;
    } else if (is_flag(a, "getreslist")) {
      auto v = option_value(args, i, "a submitter's name");
      if (!v) return Error{v.error()};
      o.view = UserprioOptions::View::ResourceList;
      o.reslist = *v;
    } else if (!a.empty() && a[0] == '-') {
      return Error{"unknown option " + a};
    } else {
      return Error{"unexpected argument " + a};
    }
  }
  return o;
}

std::string format_userprio(const UserprioOptions& o, const AccountantView& a, std::int64_t now,
                            std::int32_t offset) {
  std::ostringstream out;
  if (o.output.mode != AdOutput::Mode::Table) {
    std::vector<classad::ClassAd> ads;
    for (const classad::ClassAd* r : shown(o, a)) ads.push_back(*r);
    o.output.print(out, ads);
    return out.str();
  }
  switch (o.view) {
    case UserprioOptions::View::Quotas: quota_table(out, a, offset); break;
    case UserprioOptions::View::ResourceList: resource_list(out, o.reslist, a, now, offset); break;
    default: user_table(out, o, a, now, offset);
  }
  return out.str();
}

std::string describe_edit(const UserprioEdit& e) {
  auto value = [&] {
    std::ostringstream s;
    s << e.value;
    return s.str();
  };
  const std::string lasting = e.duration > 0 ? " for " + std::to_string(e.duration) + " seconds" : "";
  if (e.command == "setfactor") return "The priority factor of " + e.name + " was set to " + fixed2(e.value);
  if (e.command == "setprio") return "The priority of " + e.name + " was set to " + fixed2(e.value);
  if (e.command == "setaccum") return "The accumulated usage of " + e.name + " was set to " + fixed2(e.value);
  if (e.command == "setfloor") return "The floor of " + e.name + " was set to " + value() + lasting;
  if (e.command == "setceil") return "The ceiling of " + e.name + " was set to " + value() + lasting;
  if (e.command == "resetusage") return "The usage of " + e.name + " was reset";
  if (e.command == "delete") return "The record of " + e.name + " was deleted";
  if (e.command == "setbegin") return "The usage start time of " + e.name + " was set to " + value();
  if (e.command == "setlast") return "The last usage time of " + e.name + " was set to " + value();
  return e.command + " " + e.name;
}

Result<std::optional<std::string>> check_edit_target(const UserprioEdit& e, const AccountantView& a) {
  for (const classad::ClassAd& r : a.records)
    if (text(r, "Name") == e.name) return std::optional<std::string>{};
  for (const classad::ClassAd& g : a.groups)
    if (text(g, "Name") == e.name) return std::optional<std::string>{};
  if (e.command == "delete" || e.command == "resetusage")
    return Error{"no submitter or group named " + e.name + " has a record"};
  if (e.name.find('@') == std::string::npos)
    return Error{"no submitter or group named " + e.name +
                 ": a submitter is named user@domain, a group as GROUP_NAMES has it"};
  return std::optional<std::string>{e.name + " has no record yet: one is made for it (it has not submitted)"};
}

}  // namespace cara::apps
