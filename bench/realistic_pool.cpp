#include "bench/realistic_pool.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <random>

#include "model/classad/parser.h"
#include "model/config/config_host.h"

namespace cara::bench {
namespace {

constexpr std::int64_t kNow = 1700000000;

classad::ClassAd parse(const std::string& text) {
  return parse_ad(text, "realistic_pool");
}

// 5 top groups, 2 subgroups each, 3 leaves under each subgroup: 45 groups
// three levels deep; submitters belong to the leaves.
const char* const kTops[] = {"group_atlas", "group_cms", "group_lhcb", "group_alice", "group_ops"};
const char* const kSubs[] = {"prod", "user"};
constexpr int kLeaves = 3;

std::vector<std::string> group_names() {
  std::vector<std::string> out;
  for (const char* top : kTops) {
    out.push_back(top);
    for (const char* sub : kSubs) {
      out.push_back(std::string(top) + "." + sub);
      for (int l = 0; l < kLeaves; ++l)
        out.push_back(std::string(top) + "." + sub + ".l" + std::to_string(l));
    }
  }
  return out;
}

std::string leaf_of(int submitter) {
  const int leaves = 5 * 2 * kLeaves;
  const int l = submitter % leaves;
  return std::string(kTops[l / (2 * kLeaves)]) + "." + kSubs[(l / kLeaves) % 2] + ".l" +
         std::to_string(l % kLeaves);
}

std::string submitter_name(int s) {
  return leaf_of(s) + ".user" + std::to_string(s) + "@example.org";
}

std::string top_of(const std::string& group) {
  return group.substr(0, group.find('.'));
}

// What every slot ad of the pool has in common; the per-machine values
// are set on copies.
classad::ClassAd slot_template(bool partitionable) {
  std::string text =
      "[MyType = \"Machine\"; TargetType = \"Job\"; Arch = \"X86_64\"; OpSys = \"LINUX\"; "
      "OpSysName = \"AlmaLinux\"; OpSysLegacy = \"LINUX\"; UidDomain = \"example.org\"; "
      "FileSystemDomain = \"example.org\"; HasFileTransfer = true; HasPerFileEncryption = true; "
      "HasJobDeferral = true; HasTDP = true; HasReconnect = true; HasCheckpointing = false; "
      "CondorVersion = \"$CondorVersion: 23.0.4 2024-02-08 $\"; "
      "CondorPlatform = \"$CondorPlatform: X86_64-AlmaLinux_9.3 $\"; IsOwner = false; "
      "ClockMin = 600; ClockDay = 3; NumPids = 0; JobUniverse = 5; "
      "Start = (TARGET.RequestMemory <= MY.Memory) && (TARGET.WantDocker =!= true || MY.HasDocker) && "
      "(MY.Site =!= \"T3\" || TARGET.AcctGroupTop =?= \"group_ops\"); "
      "Requirements = START; "
      "WithinResourceLimits = (MY.Cpus >= TARGET.RequestCpus && MY.Memory >= TARGET.RequestMemory); "
      "MaxJobRetirementTime = 0; SlotWeight = Cpus; "
      "Activity = \"Idle\"; State = \"Unclaimed\"; ";
  if (partitionable) {
    text +=
        "SlotType = \"Partitionable\"; PartitionableSlot = true; DynamicSlot = false; "
        "ConsumptionCpus = quantize(TARGET.RequestCpus, {1}); "
        "ConsumptionMemory = quantize(TARGET.RequestMemory, {128}); "
        "ConsumptionDisk = quantize(TARGET.RequestDisk, {1024}); ";
  } else {
    text += "SlotType = \"Static\"; PartitionableSlot = false; DynamicSlot = false; ";
  }
  return parse(text + "]");
}

}  // namespace

classad::ClassAd parse_ad(const std::string& text, const char* program) {
  auto ad = classad::parse_classad(text);
  if (!ad) {
    std::cerr << program << ": " << ad.error() << "\n";
    std::exit(1);
  }
  return *ad;
}

std::unique_ptr<BenchPool> bench_pool(const std::string& config_text, std::int64_t now, const char* program) {
  auto config =
      config::config_from_text(config_text, {"NEGOTIATOR", ""}, std::make_shared<config::MemoryHost>());
  if (!config) {
    std::cerr << program << ": " << config.error() << "\n";
    std::exit(1);
  }
  auto pool = std::make_unique<BenchPool>(BenchPool{*config, {}, nullptr, std::nullopt, {}, {}, {}});
  pool->policy = *negotiation::NegotiatorPolicy::from_config(pool->config);
  pool->accountant =
      std::make_unique<accounting::Accountant>(*accounting::AccountantConfig::from_config(pool->config), now);
  pool->groups = *accounting::GroupTree::from_config(pool->config);
  return pool;
}

RealisticShape RealisticShape::scaled(int cores) {
  RealisticShape s;
  s.cores = cores;
  const double f = cores / 100000.0;
  s.autoclusters = std::max(10, static_cast<int>(3000 * f));
  s.idle_jobs = std::max<std::int64_t>(100, static_cast<std::int64_t>(200000 * f));
  s.submitters = std::max(10, static_cast<int>(500 * f));
  return s;
}

RealisticPool realistic_pool(const RealisticShape& shape, unsigned seed, const std::string& extra_config) {
  std::mt19937 rng(seed);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto chance = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };

  const std::vector<std::string> groups = group_names();
  std::string text =
      "UID_DOMAIN = example.org\n"
      "GROUP_ACCEPT_SURPLUS = True\n"
      "DB_LIMIT = 400\n"
      "LICENSE_X_LIMIT = 150\n"
      "GROUP_NAMES = ";
  for (std::size_t g = 0; g < groups.size(); ++g) text += (g ? ", " : "") + groups[g];
  text += "\n";
  for (const std::string& g : groups) {
    const int depth = static_cast<int>(std::count(g.begin(), g.end(), '.'));
    const double share = depth == 0 ? 0.2 : depth == 1 ? 0.5 : 1.0 / kLeaves;
    text += "GROUP_QUOTA_DYNAMIC_" + g + " = " + std::to_string(share) + "\n";
  }
  text += extra_config;
  RealisticPool out;
  out.pool = bench_pool(text, kNow, "realistic_pool");
  out.groups = static_cast<int>(groups.size());
  BenchPool* pool = out.pool.get();

  std::vector<std::string> names;
  for (int s = 0; s < shape.submitters; ++s) {
    names.push_back(submitter_name(s));
    (void)pool->accountant->set_priority(names.back(), std::uniform_real_distribution<double>(0.5, 800)(rng));
    if (s % 20 == 7) (void)pool->accountant->set_ceiling(names.back(), pick(50, 400), std::nullopt, kNow);
  }

  // Machines.
  const char* const models[] = {"AMD EPYC 7502",        "AMD EPYC 7763",         "Intel Xeon Gold 6248",
                                "Intel Xeon Gold 6338", "Intel Xeon E5-2650 v4", "AMD EPYC 9554"};
  const char* const sites[] = {"T1", "T2a", "T2b", "T3"};
  const classad::ClassAd pslot_template = slot_template(true), static_template = slot_template(false);
  const classad::ExprPtr preferring_rank =
      parse("[R = ifThenElse(TARGET.AcctGroupTop =?= \"group_atlas\", 10, 0)]").find("R")->expr;
  int cores = 0, machine = 0;
  while (cores < shape.cores) {
    const int ncores = std::min(shape.cores - cores, 8 * pick(3, 8));  // 24-64
    const std::string host =
        "wn" + std::to_string(machine) + ".r" + std::to_string(machine / 40) + ".example.org";
    const int mem_per_core = 1024 * pick(2, 6) / 1;
    const int disk_per_core = 1000000 * pick(10, 40);
    const int model = pick(0, 5);
    const std::string site = sites[machine % 13 == 0 ? 3 : pick(0, 2)];
    const bool docker = chance(0.6);
    const bool prefers = chance(0.2);
    const bool partitionable = chance(0.95);
    const double kflops = 1500000 + 10000 * pick(0, 200);
    auto machine_attrs = [&](classad::ClassAd& ad) {
      ad.set("Machine", host);
      ad.set("TotalCpus", ncores);
      ad.set("DetectedCpus", ncores);
      ad.set("TotalMemory", ncores * mem_per_core);
      ad.set("DetectedMemory", ncores * mem_per_core);
      ad.set("TotalDisk", static_cast<double>(ncores) * disk_per_core);
      ad.set("MemoryPerCore", mem_per_core);
      ad.set("DiskPerCore", disk_per_core);
      ad.set("CpuModel", models[model]);
      ad.set("CpuModelNumber", 40 + 9 * model);
      ad.set("CpuFamily", model % 2 ? 6 : 23);
      ad.set("CpuCacheSize", 512 * (1 + model));
      ad.set("OpSysAndVer", model < 2 ? "AlmaLinux8" : "AlmaLinux9");
      ad.set("OpSysMajorVer", model < 2 ? 8 : 9);
      ad.set("OpSysVer", model < 2 ? 810 : 903);
      ad.set("Site", site);
      ad.set("Rack", "r" + std::to_string(machine / 40));
      ad.set("Room", "room" + std::to_string(machine / 400));
      ad.set("HasDocker", docker);
      ad.set("HasSingularity", !docker || chance(0.5));
      ad.set("KFlops", kflops);
      ad.set("Mips", static_cast<int>(kflops / 100));
      ad.set("LoadAvg", pick(0, 6400) / 100.0);
      ad.set("CondorLoadAvg", pick(0, 6400) / 100.0);
      ad.set("TotalLoadAvg", pick(0, 6400) / 100.0);
      ad.set("NetworkSpeed", 1000 * pick(1, 25));
      ad.set("StartdIpAddr", "<10." + std::to_string(machine / 250) + "." + std::to_string(machine % 250) +
                                 ".7:9618?addrs=10.0.0.1-9618>");
      ad.set("MyAddress", "<10." + std::to_string(machine / 250) + "." + std::to_string(machine % 250) +
                              ".7:9618?addrs=10.0.0.1-9618>");
      ad.set("DaemonStartTime", kNow - pick(3600, 3600 * 24 * 30));
      ad.set("LastHeardFrom", kNow - pick(0, 300));
      ad.set("UpdateSequenceNumber", pick(1, 5000));
      ad.set("EnteredCurrentState", kNow - pick(0, 86400));
      ad.set("EnteredCurrentActivity", kNow - pick(0, 86400));
      ad.set("TotalSlotCpus", ncores);
      ad.set("TotalSlotMemory", ncores * mem_per_core);
      ad.set("TotalSlotDisk", static_cast<double>(ncores) * disk_per_core);
      if (prefers)
        ad.insert("Rank", preferring_rank);
      else
        ad.set("Rank", 0.0);
    };
    // Running jobs: 60-100 % of the machine's cores, in dynamic slots of
    // 1-8 cores (or static slots one by one).
    const int busy =
        std::min(ncores, static_cast<int>(ncores * std::uniform_real_distribution<double>(0.6, 1.0)(rng)));
    auto busy_attrs = [&](classad::ClassAd& ad) {
      const int who = pick(0, shape.submitters - 1);
      const std::string& user = names[static_cast<std::size_t>(who)];
      const std::string group = user.substr(0, user.find('@'));
      ad.set("State", "Claimed");
      ad.set("Activity", "Busy");
      ad.set("RemoteUser", user);
      ad.set("RemoteOwner", user);
      ad.set("AccountingGroup", user);
      ad.set("CurrentRank", prefers && top_of(group) == "group_atlas" ? 10.0 : 0.0);
      ad.set("JobStart", kNow - pick(60, 86400));
      ad.set("TotalJobRunTime", pick(60, 86400));
      ad.set("RemoteSchedd", "ap" + std::to_string(who % 7) + ".example.org");
    };
    if (partitionable) {
      int used = 0, child = 0;
      while (used < busy) {
        const int c = std::min(busy - used, 1 << pick(0, 3));
        classad::ClassAd d = pslot_template;
        machine_attrs(d);
        d.set("Name", "slot1_" + std::to_string(++child) + "@" + host);
        d.set("SlotID", 1);
        d.set("SlotType", "Dynamic");
        d.set("PartitionableSlot", false);
        d.set("DynamicSlot", true);
        d.erase("ConsumptionCpus");
        d.erase("ConsumptionMemory");
        d.erase("ConsumptionDisk");
        d.set("Cpus", c);
        d.set("Memory", c * mem_per_core);
        d.set("Disk", static_cast<double>(c) * disk_per_core);
        busy_attrs(d);
        pool->slots.push_back(std::move(d));
        used += c;
      }
      classad::ClassAd p = pslot_template;
      machine_attrs(p);
      p.set("Name", "slot1@" + host);
      p.set("SlotID", 1);
      p.set("Cpus", ncores - used);
      p.set("Memory", (ncores - used) * mem_per_core);
      p.set("Disk", static_cast<double>(ncores - used) * disk_per_core);
      pool->slots.push_back(std::move(p));
    } else {
      for (int c = 1; c <= ncores; ++c) {
        classad::ClassAd s = static_template;
        machine_attrs(s);
        s.set("Name", "slot" + std::to_string(c) + "@" + host);
        s.set("SlotID", c);
        s.set("Cpus", 1);
        s.set("Memory", mem_per_core);
        s.set("Disk", static_cast<double>(disk_per_core));
        if (c <= busy) busy_attrs(s);
        pool->slots.push_back(std::move(s));
      }
    }
    out.busy_cores += busy;
    cores += ncores;
    ++machine;
  }
  out.machines = machine;
  out.cores = cores;

  // Autoclusters: each a distinct job, spread over the submitters.
  pool->jobs.reserve(static_cast<std::size_t>(shape.autoclusters));
  const int cpu_choices[] = {1, 1, 1, 1, 2, 4, 8};
  for (int a = 0; a < shape.autoclusters; ++a) {
    const int s = a % shape.submitters;
    const std::string& user = names[static_cast<std::size_t>(s)];
    const std::string group = user.substr(0, user.find('@'));
    const int cpus = cpu_choices[pick(0, 6)];
    const int memory = cpus * 512 * pick(2, 8);
    const int disk = cpus * 1000000 * pick(1, 8);
    std::string req =
        "TARGET.Arch == \"X86_64\" && TARGET.OpSys == \"LINUX\" && TARGET.Disk >= RequestDisk && "
        "TARGET.Memory >= RequestMemory && TARGET.Cpus >= RequestCpus && TARGET.HasFileTransfer";
    const bool docker = chance(0.3);
    if (docker) req += " && TARGET.HasDocker";
    if (chance(0.2)) req += " && TARGET.OpSysMajorVer >= 9";
    if (chance(0.15)) req += " && stringListMember(TARGET.Site, \"T1,T2a\")";
    if (chance(0.1)) req += " && TARGET.CpuModelNumber >= " + std::to_string(40 + 9 * pick(1, 4));
    if (chance(0.1)) req += " && TARGET.KFlops > " + std::to_string(1500000 + 10000 * pick(20, 150));
    if (chance(0.05))
      req += " && TARGET.Machine =!= \"wn" + std::to_string(pick(0, machine)) + ".r0.example.org\"";
    std::string ad = "[MyType = \"Job\"; TargetType = \"Machine\"; ClusterId = " + std::to_string(1000 + a) +
                     "; ProcId = 0; Owner = \"user" + std::to_string(s) + "\"; User = \"" + user +
                     "\"; AccountingGroup = \"" + group + "\"; AcctGroup = \"" +
                     group.substr(0, group.rfind('.')) + "\"; AcctGroupUser = \"user" + std::to_string(s) +
                     "\"; AcctGroupTop = \"" + top_of(group) + "\"; RequestCpus = " + std::to_string(cpus) +
                     "; RequestMemory = " + std::to_string(memory) +
                     "; RequestDisk = " + std::to_string(disk) + "; Requirements = " + req +
                     "; JobUniverse = 5; JobPrio = " + std::to_string(pick(0, 2)) +
                     "; QDate = " + std::to_string(kNow - pick(0, 86400)) +
                     "; Cmd = \"/bin/payload\"; Iwd = \"/home/user" + std::to_string(s) +
                     "\"; NumJobStarts = 0; JobStatus = 1; WantDocker = " + (docker ? "true" : "false") +
                     "; MaxWallTime = " + std::to_string(3600 * pick(1, 48));
    const int rank_kind = pick(0, 9);
    if (rank_kind == 0)
      ad += "; Rank = TARGET.KFlops";
    else if (rank_kind == 1)
      ad += "; Rank = TARGET.Memory";
    if (a % 10 == 3) ad += "; ConcurrencyLimits = \"db\"";
    if (a % 25 == 11) ad += "; ConcurrencyLimits = \"license_x:2\"";
    pool->jobs.push_back(parse(ad + "]"));
  }
  pool->submitters.resize(static_cast<std::size_t>(shape.submitters));
  for (int s = 0; s < shape.submitters; ++s) pool->submitters[static_cast<std::size_t>(s)].name = names[s];
  // Idle jobs over the autoclusters, unevenly (a few large clusters).
  std::vector<double> weights;
  for (int a = 0; a < shape.autoclusters; ++a) weights.push_back(a % 17 == 0 ? 20.0 : 1.0 + pick(0, 4));
  double total = 0;
  for (double w : weights) total += w;
  for (int a = 0; a < shape.autoclusters; ++a) {
    negotiation::Request r;
    r.job = &pool->jobs[static_cast<std::size_t>(a)];
    r.count = std::max<std::int64_t>(1, static_cast<std::int64_t>(shape.idle_jobs * weights[a] / total));
    for (std::int64_t j = 0; j < r.count; ++j) r.job_ids.push_back(schedd::JobId{1000 + a, j});
    pool->submitters[static_cast<std::size_t>(a % shape.submitters)].requests.push_back(std::move(r));
  }
  return out;
}

}  // namespace cara::bench
