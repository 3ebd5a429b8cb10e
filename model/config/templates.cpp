#include "model/config/templates.h"

#include <functional>

#include "model/classad/symbol.h"

namespace cara::config {
namespace {

using Builder = std::function<Result<std::string>(const std::vector<std::string>&)>;

struct Template {
  const char* category;
  const char* name;
  std::size_t min_args, max_args;
  Builder build;
};

Result<std::string> fixed(const char* text) {
  return std::string(text);
}

// POLICY : Desktop, the desktop policy HTCondor ships (formerly UWCS_Desktop):
// start when the keyboard has been idle and the CPU is not busy with other
// work; suspend when the owner returns; preempt after a long suspension;
// kill a vacating job after MaxVacateTime. IS_OWNER follows START
// (policy-configuration: "When using the POLICY : Desktop configuration
// template, the IS_OWNER expression is a function of the START expression").
constexpr const char* kDesktop = R"(MINUTE = 60
HOUR = (60 * $(MINUTE))
StateTimer = (time() - EnteredCurrentState)
ActivityTimer = (time() - EnteredCurrentActivity)
ActivationTimer = ifThenElse(JobStart =!= UNDEFINED, (time() - JobStart), 0)
NonCondorLoadAvg = (LoadAvg - CondorLoadAvg)
BackgroundLoad = 0.3
HighLoad = 0.5
StartIdleTime = 15 * $(MINUTE)
ContinueIdleTime = 5 * $(MINUTE)
MaxSuspendTime = 10 * $(MINUTE)
MaxVacateTime = 10 * $(MINUTE)
KeyboardBusy = KeyboardIdle < $(MINUTE)
ConsoleBusy = (ConsoleIdle < $(MINUTE))
CPUIdle = ($(NonCondorLoadAvg) <= $(BackgroundLoad))
CPUBusy = ($(NonCondorLoadAvg) >= $(HighLoad))
KeyboardNotBusy = ($(KeyboardBusy) == False)
MachineBusy = ($(CPUBusy) || $(KeyboardBusy))
BigJob = (TARGET.ImageSize >= (50 * 1024))
MediumJob = (TARGET.ImageSize >= (15 * 1024) && TARGET.ImageSize < (50 * 1024))
SmallJob = (TARGET.ImageSize < (15 * 1024))
JustCPU = ($(CPUBusy) && ($(KeyboardBusy) == False))
IsVanilla = (TARGET.JobUniverse =?= 5)
WANT_SUSPEND = ($(SmallJob) || $(KeyboardNotBusy) || $(IsVanilla))
WANT_VACATE = ($(ActivationTimer) > 10 * $(MINUTE) || $(IsVanilla))
START = ((KeyboardIdle > $(StartIdleTime)) && ($(CPUIdle) || (State != "Unclaimed" && State != "Owner")))
SUSPEND = ($(KeyboardBusy) || ((CpuBusyTime > 2 * $(MINUTE)) && $(ActivationTimer) > 90))
CONTINUE = ($(CPUIdle) && ($(ActivityTimer) > 10) && (KeyboardIdle > $(ContinueIdleTime)))
PREEMPT = (((Activity == "Suspended") && ($(ActivityTimer) > $(MaxSuspendTime))) || (SUSPEND && (WANT_SUSPEND == False)))
MAXJOBRETIREMENTTIME = 0
KILL = $(ActivityTimer) > $(MaxVacateTime)
IS_OWNER = (START =?= False)
)";

// POLICY : Always_Run_Jobs: start always, never suspend or preempt (the
// policy for dedicated machines; policy-configuration "Preemption is
// disabled as a default. Always desire to start jobs").
constexpr const char* kAlwaysRunJobs = R"(START = True
SUSPEND = False
CONTINUE = True
PREEMPT = False
KILL = False
WANT_SUSPEND = False
WANT_VACATE = False
IS_OWNER = False
)";

// SECURITY : Host_Based: anyone may read; the central manager and this host
// may write and administer (the thesis, section 4.4: "reassign ALLOW_READ
// from * (everyone)").
constexpr const char* kHostBased = R"(ALLOW_READ = *
ALLOW_CLIENT = *
ALLOW_ADMINISTRATOR = $(CONDOR_HOST) $(IP_ADDRESS)
ALLOW_OWNER = $(FULL_HOSTNAME) $(ALLOW_ADMINISTRATOR)
ALLOW_WRITE = $(CONDOR_HOST) $(FULL_HOSTNAME) $(IP_ADDRESS)
ALLOW_NEGOTIATOR = $(CONDOR_HOST) $(IP_ADDRESS)
ALLOW_DAEMON = $(ALLOW_WRITE)
)";

Result<std::string> static_slots(const std::vector<std::string>& args) {
  // FEATURE : StaticSlots: single-core static slots, one per CPU
  // (policy-configuration, "Dividing System Resources").
  std::string type = args.size() > 0 && !args[0].empty() ? args[0] : "1";
  std::string count = args.size() > 1 && !args[1].empty() ? args[1] : "$(NUM_CPUS)";
  return "SLOT_TYPE_" + type + " = cpus=1\nSLOT_TYPE_" + type + "_PARTITIONABLE = False\nNUM_SLOTS_TYPE_" +
         type + " = " + count + "\n";
}

Result<std::string> partitionable_slot(const std::vector<std::string>& args) {
  // FEATURE : PartitionableSlot(slot_type_num = 1, allocation = 100%).
  std::string type = args.size() > 0 && !args[0].empty() ? args[0] : "1";
  std::string share = args.size() > 1 && !args[1].empty() ? args[1] : "100%";
  return "SLOT_TYPE_" + type + " = " + share + "\nSLOT_TYPE_" + type +
         "_PARTITIONABLE = True\nNUM_SLOTS_TYPE_" + type + " = 1\n";
}

Result<std::string> assign_accounting_group(const std::vector<std::string>& args) {
  // FEATURE : AssignAccountingGroup(map_file [, check_request = true]): map
  // each job's Owner through the file to its permitted groups; a requested
  // group is kept when permitted, otherwise the first permitted group is
  // assigned, and (with check_request) the submission is refused
  // (central-manager-configuration, "Setting Accounting Group automatically
  // per user"). The group attributes become immutable.
  if (args.empty() || args[0].empty()) return Error{"AssignAccountingGroup: expected the map file name"};
  bool check = true;
  if (args.size() > 1) {
    const std::string& c = args[1];
    if (classad::iequals(c, "false") || c == "0" || classad::iequals(c, "no"))
      check = false;
    else if (!(classad::iequals(c, "true") || c == "1" || classad::iequals(c, "yes")))
      return Error{"AssignAccountingGroup: check_request must be true or false, not '" + c + "'"};
  }
  std::string text =
      "SCHEDD_CLASSAD_USER_MAP_NAMES = $(SCHEDD_CLASSAD_USER_MAP_NAMES) AssignAccountingGroup\n"
      "CLASSAD_USER_MAPFILE_AssignAccountingGroup = " +
      args[0] +
      "\n"
      "JOB_TRANSFORM_AssignAccountingGroup @=end\n"
      "  COPY AcctGroup RequestedAcctGroup\n"
      "  EVALSET AcctGroup = userMap(\"AssignAccountingGroup\", Owner, AcctGroup)\n"
      "  EVALSET AccountingGroup = join(\".\", AcctGroup, Owner)\n"
      "@end\n"
      "JOB_TRANSFORM_NAMES = AssignAccountingGroup $(JOB_TRANSFORM_NAMES)\n"
      "IMMUTABLE_JOB_ATTRS = $(IMMUTABLE_JOB_ATTRS) AcctGroup AccountingGroup\n";
  if (check) {
    text +=
        "SUBMIT_REQUIREMENT_NAMES = $(SUBMIT_REQUIREMENT_NAMES) AssignAccountingGroup\n"
        "SUBMIT_REQUIREMENT_AssignAccountingGroup = RequestedAcctGroup =?= undefined || "
        "RequestedAcctGroup =?= AcctGroup\n"
        "SUBMIT_REQUIREMENT_AssignAccountingGroup_REASON = strcat(\"accounting group \", RequestedAcctGroup, "
        "\" is not permitted for \", Owner)\n";
  }
  return text;
}

// ROLE templates: which daemons a node runs (the docker-compose pools use
// them).
constexpr const char* kRoleCentralManager = "DAEMON_LIST = $(DAEMON_LIST) COLLECTOR NEGOTIATOR\n";
constexpr const char* kRoleSubmit = "DAEMON_LIST = $(DAEMON_LIST) SCHEDD\n";
constexpr const char* kRoleExecute = "DAEMON_LIST = $(DAEMON_LIST) STARTD\n";
constexpr const char* kRolePersonal =
    "CONDOR_HOST = 127.0.0.1\nDAEMON_LIST = MASTER COLLECTOR NEGOTIATOR SCHEDD STARTD\n";

const std::vector<Template>& table() {
  static const std::vector<Template> templates = {
      {"POLICY", "Desktop", 0, 0, [](const auto&) { return fixed(kDesktop); }},
      {"POLICY", "Always_Run_Jobs", 0, 0, [](const auto&) { return fixed(kAlwaysRunJobs); }},
      {"FEATURE", "StaticSlots", 0, 2, static_slots},
      {"FEATURE", "PartitionableSlot", 0, 2, partitionable_slot},
      {"FEATURE", "AssignAccountingGroup", 1, 2, assign_accounting_group},
      {"SECURITY", "Host_Based", 0, 0, [](const auto&) { return fixed(kHostBased); }},
      {"ROLE", "CentralManager", 0, 0, [](const auto&) { return fixed(kRoleCentralManager); }},
      {"ROLE", "Submit", 0, 0, [](const auto&) { return fixed(kRoleSubmit); }},
      {"ROLE", "Execute", 0, 0, [](const auto&) { return fixed(kRoleExecute); }},
      {"ROLE", "Personal", 0, 0, [](const auto&) { return fixed(kRolePersonal); }},
  };
  return templates;
}

}  // namespace

std::vector<std::string> template_names() {
  std::vector<std::string> out;
  for (const Template& t : table()) out.push_back(std::string(t.category) + ":" + t.name);
  return out;
}

Result<std::string> template_text(std::string_view category, std::string_view name,
                                  const std::vector<std::string>& args) {
  for (const Template& t : table()) {
    if (!classad::iequals(t.category, category) || !classad::iequals(t.name, name)) continue;
    if (args.size() < t.min_args || args.size() > t.max_args) {
      return Error{std::string(t.category) + ":" + t.name + " takes " + std::to_string(t.min_args) +
                   (t.min_args == t.max_args ? "" : " to " + std::to_string(t.max_args)) +
                   " arguments, not " + std::to_string(args.size())};
    }
    return t.build(args);
  }
  std::string known;
  for (const std::string& n : template_names()) known += (known.empty() ? "" : ", ") + n;
  return Error{"unknown configuration template " + std::string(category) + ":" + std::string(name) +
               " (known: " + known + ")"};
}

}  // namespace cara::config
