#include "model/config/defaults.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <iterator>
#include <memory>

namespace cara::config {
namespace {

// Values as documented in the HTCondor manual (configuration-macros and
// the central manager, startd and schedd sections), unless a comment says
// otherwise. In canonical order (canonical_less): knob_default() searches
// it.
constexpr KnobDefault kDefaults[] = {
    {"ABSENT_EXPIRE_ADS_AFTER", "2592000"},  // 30 days
    // The negotiator's accountant store (a RocksDB directory; HTCondor keeps
    // its accountant log in SPOOL too).
    {"ACCOUNTANT_STORE", "$(SPOOL)/accountant.db"},
    {"ALLOW_PSLOT_PREEMPTION", "False"},
    {"CLAIM_PARTITIONABLE_LEFTOVERS", "True"},
    {"CLAIM_WORKLIFE", "1200"},
    {"CLASSAD_LIFETIME", "900"},
    {"COLLECTOR_HOST", "$(CONDOR_HOST)"},
    // Where a collector keeps its absent ads across restarts (a RocksDB
    // directory). HTCondor has no default and keeps none; nothing the pool
    // knew is lost here unless set empty.
    {"COLLECTOR_PERSISTENT_AD_LOG", "$(SPOOL)/collector_ads.db"},
    {"COLLECTOR_UPDATE_INTERVAL", "900"},
    {"CONDOR_HOST", ""},
    {"CONDOR_VIEW_HOST", ""},
    {"CONSUMPTION_POLICY", "False"},
    {"CONTINUE", "True"},
    {"DAEMON_LIST", "MASTER"},
    {"DEFAULT_PRIO_FACTOR", "1000"},
    // condor_defrag (the DEFRAG_* knobs of HTCondor's configuration reference).
    {"DEFRAG_CANCEL_REQUIREMENTS", "$(DEFRAG_WHOLE_MACHINE_EXPR)"},
    {"DEFRAG_DRAINING_MACHINES_PER_HOUR", "0"},
    {"DEFRAG_DRAINING_START_EXPR", ""},
    {"DEFRAG_INTERVAL", "600"},
    {"DEFRAG_MAX_CONCURRENT_DRAINING", "-1"},
    {"DEFRAG_MAX_WHOLE_MACHINES", "-1"},
    {"DEFRAG_NAME", ""},
    {"DEFRAG_RANK", "-ExpectedMachineGracefulDrainingBadput"},
    {"DEFRAG_REQUIREMENTS", ""},
    {"DEFRAG_SCHEDULE", "graceful"},
    {"DEFRAG_UPDATE_INTERVAL", "300"},
    {"DEFRAG_WHOLE_MACHINE_EXPR", "Cpus == TotalSlotCpus"},
    {"EVICT_BACKFILL", "False"},
    {"EXECUTE", "$(LOCAL_DIR)/execute"},
    {"EXPIRE_INVALIDATED_ADS", "False"},
    {"FILESYSTEM_DOMAIN", "$(FULL_HOSTNAME)"},
    {"GROUP_ACCEPT_SURPLUS", "False"},
    {"GROUP_AUTOREGROUP", "False"},
    {"GROUP_NAMES", ""},
    {"GROUP_QUOTA_MAX_ALLOCATION_ROUNDS", "3"},
    {"GROUP_QUOTA_ROUND_ROBIN_RATE", "1.0e100"},
    // Starvation order, <none> last (cm-configuration, "Group Accounting").
    {"GROUP_SORT_EXPR",
     "ifThenElse(AccountingGroup =?= \"<none>\", 3.4e+38, ifThenElse(GroupQuota > 0, "
     "GroupResourcesInUse / GroupQuota, 3.3e+38))"},
    {"HAD_CONNECTION_TIMEOUT", "5"},
    {"HAD_CONTROLLEE", "NEGOTIATOR"},
    {"HAD_LIST", ""},
    {"HAD_REPLICATION_SYNC", "True"},
    {"HAD_USE_PRIMARY", "False"},
    {"HAD_USE_REPLICATION", "True"},
    {"IMMUTABLE_JOB_ATTRS", ""},
    {"IS_OWNER", "False"},
    {"JOB_DEFAULT_REQUESTCPUS", "1"},
    {"JOB_DEFAULT_REQUESTDISK", "DiskUsage"},
    {"JOB_DEFAULT_REQUESTMEMORY",
     "ifThenElse(MemoryUsage =!= UNDEFINED, MemoryUsage, (ImageSize + 1023) / 1024)"},
    // The schedd's queue and history store (a RocksDB directory).
    {"JOB_QUEUE_LOG", "$(SPOOL)/job_queue.db"},
    {"JOB_TRANSFORM_NAMES", ""},
    {"KEEP_POOL_HISTORY", "False"},
    {"KILL", "False"},
    {"KILLING_TIMEOUT", "30"},
    {"LOCAL_CONFIG_DIR", ""},
    {"LOCAL_CONFIG_DIR_EXCLUDE_REGEXP", "^((\\..*)|(.*~)|(#.*)|(.*\\.rpmsave)|(.*\\.rpmnew))$"},
    {"LOCAL_CONFIG_FILE", ""},
    {"LOCAL_DIR", "/var/lib/caracara"},
    {"LOG", "$(LOCAL_DIR)/log"},
    {"MachineMaxVacateTime", "600"},
    {"MASTER_BACKOFF_CEILING", "3600"},
    {"MASTER_BACKOFF_CONSTANT", "9"},
    {"MASTER_BACKOFF_FACTOR", "2.0"},
    {"MASTER_RECOVER_FACTOR", "300"},
    {"MASTER_UPDATE_INTERVAL", "300"},
    {"MATCH_TIMEOUT", "120"},
    {"MAXJOBRETIREMENTTIME", "0"},
    {"MAX_HISTORY_JOBS", "100000"},
    {"MAX_HISTORY_LOG", "20971520"},
    // The most jobs one submission may queue (HTCondor's default).
    {"MAX_JOBS_PER_SUBMISSION", "20000"},
    {"MEMORY", "$(DETECTED_MEMORY)"},
    {"MODIFY_REQUEST_EXPR_REQUESTCPUS", "quantize(RequestCpus, {1})"},
    {"MODIFY_REQUEST_EXPR_REQUESTDISK", "quantize(RequestDisk, {1024})"},
    {"MODIFY_REQUEST_EXPR_REQUESTMEMORY", "quantize(RequestMemory, {128})"},
    {"NEGOTIATE_ALL_JOBS_IN_CLUSTER", "False"},
    {"NEGOTIATION_CYCLE_STATS_LENGTH", "3"},
    // The manual's macro list says True, but its group-quota section
    // describes scaling over-committed child quotas down as the normal
    // behaviour and this knob as the way to disable it; caracara follows
    // that description (issue 3), so the default is False.
    {"NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION", "False"},
    {"NEGOTIATOR_CONSIDER_EARLY_PREEMPTION", "False"},
    {"NEGOTIATOR_CONSIDER_PREEMPTION", "True"},
    {"NEGOTIATOR_CYCLE_DELAY", "20"},
    {"NEGOTIATOR_DEPTH_FIRST", "False"},
    {"NEGOTIATOR_INTERVAL", "60"},
    {"NEGOTIATOR_MAX_TIME_PER_CYCLE", "1200"},
    {"NEGOTIATOR_MAX_TIME_PER_PIESPIN", "120"},
    {"NEGOTIATOR_MAX_TIME_PER_SCHEDD", "120"},
    {"NEGOTIATOR_MAX_TIME_PER_SUBMITTER", "60"},
    {"NEGOTIATOR_MIN_INTERVAL", "5"},
    {"NEGOTIATOR_POST_JOB_RANK",
     "(RemoteOwner =?= UNDEFINED) * (ifThenElse(isUndefined(KFlops), 1000, Kflops) - SlotID - "
     "1.0e10 * (Offline =?= True))"},
    {"NEGOTIATOR_PRE_JOB_RANK",
     "(10000000 * My.Rank) + (1000000 * (RemoteOwner =?= UNDEFINED)) - (100000 * Cpus) - Memory"},
    // caracara's own: threads for the per-slot phases of a cycle
    // (negotiation_cycle.h); HTCondor's negotiator has one.
    {"NEGOTIATOR_THREADS", "1"},
    {"NEGOTIATOR_UPDATE_INTERVAL", "300"},
    {"NEGOTIATOR_USE_SLOT_WEIGHTS", "True"},
    {"NICE_USER_PRIO_FACTOR", "10000000000"},
    {"NUM_CPUS", "$(DETECTED_CPUS_LIMIT)"},
    // How long an offline ad is kept; 0: until the machine comes back (the
    // manual's default is the largest integer).
    {"OFFLINE_EXPIRE_ADS_AFTER", "0"},
    {"PERIODIC_EXPR_INTERVAL", "60"},
    {"POLLING_INTERVAL", "5"},
    // HTCondorView: the collector's pool history (a RocksDB directory here).
    {"POOL_HISTORY_DIR", "$(LOCAL_DIR)/ViewHist"},
    {"POOL_HISTORY_MAX_STORAGE", "10000000"},
    {"POOL_HISTORY_SAMPLING_INTERVAL", "60"},
    {"PREEMPT", "False"},
    {"PREEMPTION_RANK",
     "(RemoteUserPrio * 1000000) - ifThenElse(isUndefined(TotalJobRunTime), 0, TotalJobRunTime)"},
    {"PREEMPTION_REQUIREMENTS", "False"},
    {"PRIORITY_HALFLIFE", "86400"},
    // The execution point's process keeper; empty: cara-procd beside the
    // running cara binary (HTCondor's PROCD = $(SBIN)/condor_procd).
    {"PROCD", ""},
    // Who may hold, release and remove anyone's jobs (HTCondor's default).
    {"QUEUE_SUPER_USERS", "root, condor"},
    {"RANK", "0.0"},
    {"REMOTE_PRIO_FACTOR", "10000000"},
    {"REPLICATION_LIST", ""},
    {"REQUIRE_LOCAL_CONFIG_FILE", "True"},
    {"RESERVED_DISK", "0"},
    {"RUNBENCHMARKS", "False"},
    {"SCHEDD_CLASSAD_USER_MAP_NAMES", ""},
    {"SCHEDD_INTERVAL", "300"},
    {"SCHEDD_SOCKET", "$(SPOOL)/schedd.sock"},
    // How long a node's daemons may take to stop gracefully (jobs retire and
    // vacate), then fast (jobs are killed), before the master exits anyway
    // (HTCondor's condor_master knobs, same defaults).
    {"SHUTDOWN_FAST_TIMEOUT", "300"},
    {"SHUTDOWN_GRACEFUL_TIMEOUT", "1800"},
    {"SLOT_WEIGHT", "Cpus"},
    {"SOFT_UID_DOMAIN", "False"},
    {"SPOOL", "$(LOCAL_DIR)/spool"},
    {"START", "True"},
    {"STARTD_ATTRS", ""},
    {"STARTD_SLOT_ATTRS", ""},
    {"STARTER_ALLOW_RUNAS_OWNER", "True"},
    {"START_BACKFILL", "False"},
    {"SUBMIT_REQUIREMENT_NAMES", ""},
    {"SUSPEND", "False"},
    {"TRUST_UID_DOMAIN", "False"},
    {"UID_DOMAIN", "$(FULL_HOSTNAME)"},
    {"UPDATE_INTERVAL", "300"},
    {"WANT_SUSPEND", "False"},
    {"WANT_VACATE", "False"},
    // The central manager's web endpoint (issue 24): off until WEB_PORT is
    // set; loopback only unless WEB_LISTEN says otherwise.
    {"WEB_LISTEN", "127.0.0.1"},
    {"WEB_REFRESH_INTERVAL", "2"},
    {"WEB_USE_TLS", "False"},
};

}  // namespace

std::span<const KnobDefault> knob_defaults() {
  return kDefaults;
}

// The table's names with their lengths, worked out when compiling: the
// search below compared each name as a C string (a strlen per step), and
// most names a daemon looks up are asked here (MacroSet::find tries each
// prefixed form first), most of them in vain.
constexpr auto kNames = [] {
  std::array<std::string_view, std::size(kDefaults)> names{};
  for (std::size_t i = 0; i < names.size(); ++i) names[i] = kDefaults[i].name;
  return names;
}();

const Definition* knob_default(std::string_view canonical) {
  const auto at = std::lower_bound(kNames.begin(), kNames.end(), canonical, canonical_less);
  if (at == kNames.end() || canonical_less(canonical, *at)) return nullptr;
  return knob_default_at(static_cast<std::size_t>(at - kNames.begin()));
}

const Definition* knob_default_at(std::size_t index) {
  // One slot per entry, filled once; a thread that loses the race to fill
  // it drops its own.
  static std::atomic<const Definition*> made[std::size(kDefaults)];
  std::atomic<const Definition*>& slot = made[index];
  const KnobDefault* at = &kDefaults[index];
  if (const Definition* d = slot.load(std::memory_order_acquire)) return d;
  auto fresh = std::make_unique<const Definition>(Definition{at->name, at->value, Origin{"<default>", 0}});
  const Definition* expected = nullptr;
  if (slot.compare_exchange_strong(expected, fresh.get(), std::memory_order_acq_rel)) return fresh.release();
  return expected;
}

}  // namespace cara::config
