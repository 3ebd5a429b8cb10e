#include "apps/demo/demo_pool.h"

#include <cmath>
#include <cstdio>

namespace cara::apps {

std::string demo_central_manager_config() {
  return R"(# Central manager of the demo pool (thesis figures 17 and 20).
DAEMON_LIST = MASTER, COLLECTOR, NEGOTIATOR
FULL_HOSTNAME = cm.demo
UID_DOMAIN = physik.rwth-aachen.de
PRIORITY_HALFLIFE = 1136819
GROUP_NAMES = group_cms, group_cms.cms, group_cms.dcms, group_auger, group_icecube
GROUP_ACCEPT_SURPLUS = true
GROUP_QUOTA_DYNAMIC_group_auger = 3.0/24
GROUP_QUOTA_DYNAMIC_group_icecube = 3.0/24
GROUP_QUOTA_DYNAMIC_group_cms = 18.0/24
GROUP_QUOTA_DYNAMIC_group_cms.dcms = 12.0/18
GROUP_QUOTA_DYNAMIC_group_cms.cms = 6.0/18
NEGOTIATOR_POST_JOB_RANK = (RemoteOwner != UNDEFINED) * (ifThenElse(isUndefined(Mips), 1000, Mips) - SlotID - 1.0e10*(Offline!=True))
# Cycles are cheap here: a schedd's reschedule starts one at once, so a
# freed core is matched again within a second (TARGETS.md, fair share).
NEGOTIATOR_INTERVAL = 60
NEGOTIATOR_MIN_INTERVAL = 0
NEGOTIATOR_CYCLE_DELAY = 0
)";
}

std::string demo_access_point_config() {
  return R"(DAEMON_LIST = MASTER, SCHEDD
FULL_HOSTNAME = ap.demo
UID_DOMAIN = physik.rwth-aachen.de
)";
}

std::string demo_execution_point_config(int index) {
  char host[32];
  std::snprintf(host, sizeof host, "wn%02d.demo", index);
  return std::string("DAEMON_LIST = MASTER, STARTD\nFULL_HOSTNAME = ") + host + R"(
UID_DOMAIN = physik.rwth-aachen.de
# The thesis's worker node (figure 18): 24 + 1 cores.
START = true
SUSPEND = false
WANT_SUSPEND = false
WANT_VACATE = false
KILL = true
CLAIM_WORKLIFE = 0
NUM_CPUS = 24 + 1
MEMORY = 50000
NUM_SLOTS_TYPE_1 = 1
SLOT_TYPE_1 = 24/25
SLOT_TYPE_1_PARTITIONABLE = true
SLOT_TYPE_1_START = $(START) && (stringListIMember(TARGET.Owner, "cmss cmsp014 cmsp015 cmspi043 cmspi058") || (TARGET.AcctGroup =?= "group_ops") || (TARGET.AcctGroup =?= "group_dteam") || (TARGET.CreamQueue =?= "short")) != true
NUM_SLOTS_TYPE_2 = 1
SLOT_TYPE_2 = cpu=1, 1/25
SLOT_TYPE_2_PARTITIONABLE = false
SLOT_TYPE_2_START = $(START) && (stringListIMember(TARGET.Owner, "cmss cmsp014 cmsp015 cmspi043 cmspi058") || (TARGET.AcctGroup =?= "group_ops") || (TARGET.AcctGroup =?= "group_dteam") || (TARGET.CreamQueue =?= "short"))
# Not in the thesis: with a consumption policy one cycle hands out all 24
# cores of a partitionable slot (HTCondor reaches the same with
# CLAIM_PARTITIONABLE_LEFTOVERS); without it a node takes one job per cycle.
CONSUMPTION_POLICY = True
)";
}

std::vector<DemoSubmission> demo_workload(double scale) {
  auto n = [scale](int jobs) { return std::max(1, static_cast<int>(std::lround(jobs * scale))); };
  return {
      {"cms001", "group_cms.cms", n(2500), ""}, {"dcms001", "group_cms.dcms", n(5000), ""},
      {"aug001", "group_auger", n(1250), ""},   {"ice001", "group_icecube", n(1250), ""},
      {"cmsp014", "group_cms.cms", 1, ""},      {"ops001", "group_ops", 1, ""},
      {"dte001", "group_dteam", 1, ""},         {"dcms001", "group_cms.dcms", 1, "+CreamQueue = \"short\""},
  };
}

std::string demo_quota_group(const std::string& group) {
  for (const char* g : {"group_cms", "group_auger", "group_icecube"}) {
    const std::string name = g;
    if (group == name || group.rfind(name + ".", 0) == 0) return name;
  }
  return "<none>";
}

double demo_quota(const std::string& group) {
  if (group == "group_cms") return 18.0 / 24;
  if (group == "group_auger" || group == "group_icecube") return 3.0 / 24;
  return 0;
}

}  // namespace cara::apps
