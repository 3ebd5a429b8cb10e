#include "apps/commands/status_view.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iomanip>
#include <map>
#include <sstream>

#include "apps/commands/arguments.h"
#include "apps/commands/text_table.h"
#include "apps/commands/tool_options.h"
#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/classad/time_format.h"
#include "model/classad/unparse.h"

namespace cara::apps {

const char* const kStatusUsage =
    "usage: cara status [--config FILE] [-pool HOST[:PORT]]\n"
    "                   [-startd | -schedd | -submitters | -negotiator | -collector | -master | -any]\n"
    "                   [-absent] [-total | -compact] [-constraint EXPR] [NAME...]\n";

namespace {

using collector::AdType;

// An attribute as -af prints it; one the ad lacks, blank.
std::string text(const classad::ClassAd& ad, const char* attr) {
  if (classad::evaluate_attr(ad, attr).is_undefined()) return "";
  return autoformat_value(ad, attr);
}

std::optional<double> number(const classad::ClassAd& ad, const char* attr) {
  const classad::Value v = classad::evaluate_attr(ad, attr);
  if (v.is_int()) return static_cast<double>(v.as_int());
  if (v.is_real()) return v.as_real();
  return std::nullopt;
}

std::string integer(const classad::ClassAd& ad, const char* attr) {
  auto n = number(ad, attr);
  return n ? std::to_string(static_cast<std::int64_t>(*n)) : "?";
}

std::string fixed3(const classad::ClassAd& ad, const char* attr) {
  auto n = number(ad, attr);
  if (!n) return "?";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", *n);
  return buf;
}

// condor_status's summary of slots: per Arch/OpSys and in all, how many
// are in each state.
void slot_totals(std::ostream& out, const std::vector<classad::ClassAd>& ads) {
  static const char* const kStates[] = {"Owner",      "Claimed", "Unclaimed", "Matched",
                                        "Preempting", "Drained", "Backfill"};
  const std::vector<std::string> headers = {"Total",      "Owner", "Claimed",  "Unclaimed", "Matched",
                                            "Preempting", "Drain", "Backfill", "BkIdle"};
  using Counts = std::vector<std::int64_t>;
  std::map<std::string, Counts> by_platform;
  Counts all(headers.size(), 0);
  for (const classad::ClassAd& ad : ads) {
    Counts& c = by_platform[text(ad, "Arch") + "/" + text(ad, "OpSys")];
    c.resize(headers.size(), 0);
    const std::string state = text(ad, "State");
    for (Counts* k : {&c, &all}) {
      ++(*k)[0];
      for (std::size_t s = 0; s < std::size(kStates); ++s)
        if (state == kStates[s]) ++(*k)[s + 1];
      if (state == "Backfill" && text(ad, "Activity") == "Idle") ++(*k)[8];
    }
  }
  Table t;
  t.columns.push_back({"", true, 14});
  for (const std::string& h : headers) t.columns.push_back({h, true, 0});
  auto row = [](const std::string& label, const Counts& c) {
    std::vector<std::string> r{label};
    for (std::int64_t n : c) r.push_back(std::to_string(n));
    return r;
  };
  for (const auto& [platform, counts] : by_platform) t.rows.push_back(row(platform, counts));
  const auto w = t.widths();
  std::vector<std::string> header{""};
  for (const std::string& h : headers) header.push_back(h);
  t.line(out, header, w);
  out << '\n';
  for (const auto& r : t.rows) t.line(out, r, w);
  out << '\n';
  t.line(out, row("Total", all), w);
}

void slot_table(std::ostream& out, const std::vector<classad::ClassAd>& ads, std::int64_t now) {
  Table t;
  t.columns = {{"Name", false, 18},    {"OpSys", false, 10}, {"Arch", false, 6}, {"State", false, 9},
               {"Activity", false, 8}, {"LoadAv", true, 6},  {"Mem", true, 4},   {"ActvtyTime", true, 11}};
  for (const classad::ClassAd& ad : ads) {
    auto entered = number(ad, "EnteredCurrentActivity");
    t.rows.push_back({text(ad, "Name"), text(ad, "OpSys"), text(ad, "Arch"), text(ad, "State"),
                      text(ad, "Activity"), fixed3(ad, "LoadAvg"), integer(ad, "Memory"),
                      entered ? activity_time(now - static_cast<std::int64_t>(*entered)) : "?"});
  }
  t.print(out);
  out << '\n';
  slot_totals(out, ads);
}

// The schedd and submitter tables: their jobs, and the totals.
void jobs_table(std::ostream& out, const std::vector<classad::ClassAd>& ads, bool schedd, bool totals_only) {
  const char* running = schedd ? "TotalRunningJobs" : "RunningJobs";
  const char* idle = schedd ? "TotalIdleJobs" : "IdleJobs";
  const char* held = schedd ? "TotalHeldJobs" : "HeldJobs";
  Table t;
  t.columns = {{"Name", false, 18},
               {"Machine", false, 12},
               {"RunningJobs", true, 0},
               {"IdleJobs", true, 0},
               {"HeldJobs", true, 0}};
  std::int64_t sum[3] = {0, 0, 0};
  for (const classad::ClassAd& ad : ads) {
    t.rows.push_back(
        {text(ad, "Name"), text(ad, "Machine"), integer(ad, running), integer(ad, idle), integer(ad, held)});
    const char* attrs[3] = {running, idle, held};
    for (int i = 0; i < 3; ++i) sum[i] += static_cast<std::int64_t>(number(ad, attrs[i]).value_or(0));
  }
  if (!totals_only) {
    t.print(out);
    out << '\n';
  }
  Table totals;
  totals.columns = {
      {"", true, 20}, {"TotalRunningJobs", true, 0}, {"TotalIdleJobs", true, 0}, {"TotalHeldJobs", true, 0}};
  const auto w = totals.widths();
  totals.line(out, {"", "TotalRunningJobs", "TotalIdleJobs", "TotalHeldJobs"}, w);
  out << '\n';
  totals.line(out, {"Total", std::to_string(sum[0]), std::to_string(sum[1]), std::to_string(sum[2])}, w);
}

// condor_status -compact: one line per machine, its slots summed; a
// partitionable slot counts what it has left as free. ST is the state and
// activity the machine's slots share (Ui, Cb, ...), "**" when they differ.
void compact_table(std::ostream& out, const std::vector<classad::ClassAd>& ads) {
  struct Machine {
    std::string name, platform, st;
    std::int64_t slots = 0;
    double cpus = 0, memory = 0, free_cpus = 0, free_memory = 0, load = 0;
  };
  std::vector<Machine> machines;
  std::map<std::string, std::size_t> index;
  for (const classad::ClassAd& ad : ads) {
    const std::string name = text(ad, "Machine");
    auto [it, fresh] = index.emplace(name, machines.size());
    if (fresh) {
      machines.emplace_back();
      machines.back().name = name;
      std::string arch = text(ad, "Arch");
      if (arch == "X86_64") arch = "x64";
      machines.back().platform = arch + "/" + text(ad, "OpSys");
    }
    Machine& m = machines[it->second];
    ++m.slots;
    const double cpus = number(ad, "Cpus").value_or(0), memory = number(ad, "Memory").value_or(0);
    const std::string state = text(ad, "State"), activity = text(ad, "Activity");
    const bool dynamic = text(ad, "SlotType") == "Dynamic";
    if (!dynamic) {  // a dynamic slot's resources are its partitionable slot's
      m.cpus += number(ad, "TotalSlotCpus").value_or(cpus);
      m.memory += number(ad, "TotalSlotMemory").value_or(memory);
    }
    if (state == "Unclaimed") {
      m.free_cpus += cpus;
      m.free_memory += memory;
    }
    m.load += number(ad, "LoadAvg").value_or(0);
    const std::string st =
        state.substr(0, 1) +
        (activity.empty() ? "" : std::string(1, static_cast<char>(std::tolower(activity[0]))));
    m.st = m.st.empty() || m.st == st ? st : "**";
  }
  auto gb = [](double mb) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", mb / 1024);
    return std::string(buf);
  };
  Table t;
  t.columns = {{"Machine"},      {"Platform"},     {"Slots", true},   {"Cpus", true}, {"TotalGb", true},
               {"FreCpu", true}, {"FreeGb", true}, {"CpuLoad", true}, {"ST"}};
  std::int64_t slots = 0;
  double cpus = 0, free_cpus = 0;
  for (const Machine& m : machines) {
    char load[32];
    std::snprintf(load, sizeof load, "%.2f", m.load);
    t.rows.push_back({m.name, m.platform, std::to_string(m.slots),
                      std::to_string(static_cast<std::int64_t>(m.cpus)), gb(m.memory),
                      std::to_string(static_cast<std::int64_t>(m.free_cpus)), gb(m.free_memory), load, m.st});
    slots += m.slots;
    cpus += m.cpus;
    free_cpus += m.free_cpus;
  }
  t.print(out);
  out << "\n               Machines Slots   Cpus FreCpu\n"
      << "         Total " << std::setw(8) << machines.size() << std::setw(6) << slots << std::setw(7)
      << static_cast<std::int64_t>(cpus) << std::setw(7) << static_cast<std::int64_t>(free_cpus) << "\n";
}

std::string when(const classad::ClassAd& ad, const char* attr) {
  auto t = number(ad, attr);
  if (!t) return "?";
  const auto secs = static_cast<std::int64_t>(*t);
  return classad::format_time(classad::civil_from_secs(secs, 0), 0, secs, "%m/%d %H:%M:%S");
}

// condor_status -negotiator, and caracara's high availability: the
// negotiator that publishes is the active one; its term and since when.
void negotiator_table(std::ostream& out, const std::vector<classad::ClassAd>& ads) {
  Table t;
  t.columns = {{"Name", false, 18},  {"Machine", false, 12},    {"HA", false, 0},
               {"Term", true, 0},    {"ActiveSince", false, 0}, {"LastCycle (Sec)", true, 0},
               {"Slots", true, 0},   {"Submitrs", true, 0},     {"Jobs", true, 0},
               {"Matches", true, 0}, {"Rejections", true, 0}};
  for (const classad::ClassAd& ad : ads) {
    const bool ha = number(ad, "HadTerm").has_value();
    const classad::Value active = classad::evaluate_attr(ad, "HadActive");
    t.rows.push_back(
        {text(ad, "Name"), text(ad, "Machine"),
         !ha ? "-" : (active.is_bool() && active.as_bool() ? "Active" : "Standby"),
         ha ? integer(ad, "HadTerm") : "-", ha ? when(ad, "HadActiveSince") : "-",
         fixed3(ad, "LastNegotiationCycleDuration0"), integer(ad, "LastNegotiationCycleTotalSlots0"),
         integer(ad, "LastNegotiationCycleActiveSubmitterCount0"),
         integer(ad, "LastNegotiationCycleNumJobsConsidered0"), integer(ad, "LastNegotiationCycleMatches0"),
         integer(ad, "LastNegotiationCycleRejections0")});
  }
  t.print(out);
}

void collector_table(std::ostream& out, const std::vector<classad::ClassAd>& ads) {
  Table t;
  t.columns = {{"Name", false, 18},
               {"Machine", false, 12},
               {"RunningJobs", true, 0},
               {"IdleJobs", true, 0},
               {"HostsTotal", true, 0}};
  for (const classad::ClassAd& ad : ads)
    t.rows.push_back({text(ad, "Name"), text(ad, "Machine"), integer(ad, "RunningJobs"),
                      integer(ad, "IdleJobs"), integer(ad, "HostsTotal")});
  t.print(out);
}

// condor_status -defrag: each defrag daemon's machines draining now, the
// most ever, and the machines drained in all.
void defrag_table(std::ostream& out, const std::vector<classad::ClassAd>& ads) {
  Table t;
  t.columns = {{"Name", false, 18}, {"Draining", true, 0}, {"Peak", true, 0}, {"TotalDrained", true, 0}};
  for (const classad::ClassAd& ad : ads)
    t.rows.push_back({text(ad, "Name"), integer(ad, "MachinesDraining"), integer(ad, "MachinesDrainingPeak"),
                      integer(ad, "DrainedMachines")});
  t.print(out);
}

// -any, and the types without a table of their own: condor_status -any's
// MyType, TargetType, Name.
void generic_table(std::ostream& out, const std::vector<classad::ClassAd>& ads) {
  Table t;
  t.columns = {{"MyType", false, 18}, {"TargetType", false, 18}, {"Name", false, 0}};
  for (const classad::ClassAd& ad : ads)
    t.rows.push_back({text(ad, "MyType"), text(ad, "TargetType"), text(ad, "Name")});
  t.print(out);
}

// HTCondor's order: by Machine, then by slot number, then by name.
void sort_ads(std::vector<classad::ClassAd>& ads) {
  std::stable_sort(ads.begin(), ads.end(), [](const classad::ClassAd& a, const classad::ClassAd& b) {
    const std::string ma = text(a, "Machine"), mb = text(b, "Machine");
    if (ma != mb) return ma < mb;
    const double sa = number(a, "SlotID").value_or(0), sb = number(b, "SlotID").value_or(0);
    if (sa != sb) return sa < sb;
    return text(a, "Name") < text(b, "Name");
  });
}

}  // namespace

std::string activity_time(std::int64_t seconds) {
  if (seconds < 0) seconds = 0;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%lld+%02lld:%02lld:%02lld", static_cast<long long>(seconds / 86400),
                static_cast<long long>(seconds / 3600 % 24), static_cast<long long>(seconds / 60 % 60),
                static_cast<long long>(seconds % 60));
  return buf;
}

Result<StatusOptions> parse_status_options(const std::vector<std::string>& args) {
  StatusOptions o;
  const SharedOptions shared{&o.config, &o.pool, &o.constraint, &o.output};
  const std::pair<const char*, AdType> kinds[] = {
      {"startd", AdType::Machine},        {"schedd", AdType::Scheduler},    {"submitters", AdType::Submitter},
      {"negotiator", AdType::Negotiator}, {"collector", AdType::Collector}, {"master", AdType::Master},
      {"defrag", AdType::Defrag}};
  bool any = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto common = shared.take(args, i);
    if (!common) return Error{common.error()};
    if (*common) continue;
    bool kind = false;
    for (const auto& [name, type] : kinds)
      if (is_flag(a, name)) {
        o.type = type;
        kind = true;
      }
    if (kind) continue;
    if (is_flag(a, "any")) {
      any = true;
    } else if (is_flag(a, "absent")) {
      o.absent = true;
    } else if (is_flag(a, "total")) {
      o.display = StatusOptions::Display::Total;
    } else if (is_flag(a, "compact")) {
      o.display = StatusOptions::Display::Compact;
    } else if (!a.empty() && a[0] == '-') {
      return Error{"unknown option " + a};
    } else {
      o.names.push_back(a);
    }
  }
  o.any = any;
  if (o.absent && o.type != AdType::Machine) return Error{"-absent lists machines only (with -startd)"};
  return o;
}

std::string status_constraint(const StatusOptions& o) {
  std::string names;
  for (const std::string& n : o.names) {
    const std::string q = classad::quoted(n);
    names += (names.empty() ? "" : " || ") + ("Name =?= " + q + " || Machine =?= " + q);
  }
  std::vector<std::string> clauses;
  if (o.absent) clauses.push_back("Absent =?= true");  // only the machines that went away
  if (!o.constraint.empty()) clauses.push_back(o.constraint);
  if (!names.empty()) clauses.push_back(names);
  if (clauses.size() == 1) return clauses[0];
  std::string out;
  for (const std::string& c : clauses) out += (out.empty() ? "(" : " && (") + c + ")";
  return out;
}

std::string format_status(const StatusOptions& o, std::vector<classad::ClassAd> ads, std::int64_t now) {
  sort_ads(ads);
  std::ostringstream out;
  if (o.output.mode != AdOutput::Mode::Table) {
    o.output.print(out, ads);
    return out.str();
  }
  if (ads.empty()) return "";
  if (o.display == StatusOptions::Display::Compact && o.type == AdType::Machine && !o.any) {
    compact_table(out, ads);
    return out.str();
  }
  const bool totals_only = o.display == StatusOptions::Display::Total;
  if (o.any) {
    generic_table(out, ads);
    return out.str();
  }
  switch (o.type) {
    case AdType::Machine:
      if (totals_only)
        slot_totals(out, ads);
      else
        slot_table(out, ads, now);
      break;
    case AdType::Scheduler:
    case AdType::Submitter: jobs_table(out, ads, o.type == AdType::Scheduler, totals_only); break;
    case AdType::Negotiator: negotiator_table(out, ads); break;
    case AdType::Collector: collector_table(out, ads); break;
    case AdType::Defrag: defrag_table(out, ads); break;
    default: generic_table(out, ads);
  }
  return out.str();
}

}  // namespace cara::apps
