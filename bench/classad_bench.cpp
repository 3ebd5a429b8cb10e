// ClassAd benchmark (TARGETS.md): prints one JSON object with
//   eval_per_s      the reference Requirements of a job against 10,000 slot ads
//   match_per_s     symmetric matches of a job against 10,000 slot ads
//                   (match_each: a job against a list of slots)
//   match_parsed_slots_per_s  the same slots parsed from their text
//   parse_ads_per_s 40-attribute job ads in old long form, the 20,000 jobs
//                   of one cluster (the expression cache on, as in the daemons)
//   parse_ads_per_s_uncached  the same with every expression parsed from text
// each the median of several runs on one core (the fastest: fastest_cpu.h).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/fastest_cpu.h"
#include "bench/timing.h"
#include "model/classad/eval.h"
#include "model/classad/expr_cache.h"
#include "model/classad/match.h"
#include "model/classad/parser.h"
#include "model/classad/unparse.h"

using namespace cara::classad;
using cara::bench::median;
using cara::bench::rate;

namespace {

constexpr int kRuns = 7;
constexpr int kSlots = 10000;

std::vector<ClassAd> make_slots() {
  std::vector<ClassAd> slots;
  for (int i = 0; i < kSlots; ++i) {
    ClassAd s;
    s.set("Name", "slot" + std::to_string(i % 32) + "@node" + std::to_string(i / 32));
    s.set("OpSys", i % 10 == 0 ? "WINDOWS" : "LINUX");
    s.set("Arch", "X86_64");
    s.set("Memory", static_cast<std::int64_t>(1024 * (1 + i % 16)));
    s.set("Cpus", static_cast<std::int64_t>(1 + i % 8));
    s.set("Disk", static_cast<std::int64_t>(1000000));
    s.set("State", "Unclaimed");
    s.insert("Requirements",
             *parse_expression("(TARGET.RequestCpus <= MY.Cpus) && (TARGET.RequestMemory <= MY.Memory)"));
    slots.push_back(std::move(s));
  }
  return slots;
}

ClassAd make_job() {
  ClassAd job;
  job.set("RequestMemory", static_cast<std::int64_t>(4096));
  job.set("RequestCpus", static_cast<std::int64_t>(2));
  job.set("Owner", "alice");
  job.insert("Requirements", *parse_expression("(TARGET.OpSys == \"LINUX\") && (TARGET.Memory >= "
                                               "MY.RequestMemory) && (TARGET.Cpus >= MY.RequestCpus)"));
  return job;
}

// Job `proc` of a cluster as condor_q -l prints it: the literal lines that
// differ per job (ProcId, Args, Out, Err, QDate) vary, the expressions from
// the submit file are the same text in every job, as in a real queue.
std::string job_long_form(int proc) {
  const std::string p = std::to_string(proc);
  const std::string qdate = std::to_string(1535000000 + proc / 10);
  std::string s =
      "ClusterId = 1234\nProcId = " + p +
      "\nOwner = \"cms001\"\nUser = \"cms001@physik.rwth-aachen.de\"\n"
      "AcctGroup = \"group_cms.cms\"\nAccountingGroup = \"group_cms.cms001\"\nCmd = "
      "\"/home/cms001/testjob.sh\"\n"
      "Args = \"" +
      p +
      " --events 1000\"\nIwd = \"/home/cms001\"\nJobUniverse = 5\nJobStatus = 1\n"
      "QDate = " +
      qdate + "\nEnteredCurrentStatus = " + qdate +
      "\nImageSize = 1\nDiskUsage = 1\n"
      "RequestCpus = 1\nRequestDisk = DiskUsage\n"
      "RequestMemory = ifThenElse(MemoryUsage =!= undefined, MemoryUsage, (ImageSize + 1023) / 1024)\n"
      "Requirements = (TARGET.OpSys == \"LINUX\") && (TARGET.Arch == \"X86_64\") && (TARGET.Memory >= "
      "RequestMemory) && (TARGET.Disk >= RequestDisk) && (TARGET.Cpus >= RequestCpus)\n"
      "Rank = 0.0\nOut = \"" +
      p + ".out\"\nErr = \"" + p +
      ".err\"\nUserLog = \"/home/cms001/testjob.log\"\n"
      "In = \"/dev/null\"\nTransferIn = false\nShouldTransferFiles = \"IF_NEEDED\"\nWhenToTransferOutput = "
      "\"ON_EXIT\"\n"
      "NumCkpts = 0\nNumRestarts = 0\nNumJobStarts = 0\nJobPrio = 0\nNiceUser = false\nMaxHosts = "
      "1\nMinHosts = 1\n"
      "CurrentHosts = 0\nCumulativeSuspensionTime = 0\nCommittedTime = 0\nExitBySignal = false\n"
      "LeaveJobInQueue = false\nPeriodicRemove = (JobStatus == 5) && (time() - EnteredCurrentStatus > "
      "86400)\n";
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  // `classad_bench eval|match|parse|parse_uncached` runs only that part (for profiling).
  const std::string only = argc > 1 ? argv[1] : "";
  const nlohmann::json cpu = cara::bench::pin_to_fastest_cpu();
  auto wanted = [&](const char* part) { return only.empty() || only == part; };
  std::vector<ClassAd> slots = make_slots();
  ClassAd job = make_job();
  const ExprTree& req = *job.lookup("Requirements");
  std::vector<const ClassAd*> slot_ptrs;
  for (const ClassAd& s : slots) slot_ptrs.push_back(&s);
  // The same slots as a negotiator holds them: parsed from the text they
  // came in, identical expressions sharing one tree (the parser's cache).
  std::vector<ClassAd> parsed_slots;
  std::vector<const ClassAd*> parsed_ptrs;
  if (wanted("match")) {
    for (const ClassAd& s : slots) parsed_slots.push_back(*parse_long_form(unparse_long_form(s)));
    for (const ClassAd& s : parsed_slots) parsed_ptrs.push_back(&s);
  }
  std::vector<std::uint32_t> matched;
  matched.reserve(slots.size());
  EvalEnv env;
  volatile std::int64_t sink = 0;

  std::vector<double> evals, matches, matches_parsed, parses, parses_uncached;
  for (int run = 0; run < kRuns; ++run) {
    constexpr int kRounds = 100;
    if (wanted("eval"))
      evals.push_back(rate(std::int64_t{kSlots} * kRounds, [&] {
        std::int64_t ok = 0;
        for (int r = 0; r < kRounds; ++r) {
          for (const ClassAd& s : slots) {
            bool b;
            ok += detail::evaluate_fast(req, &job, &s, env).bool_equiv(b) && b;
          }
        }
        sink = sink + ok;
      }));
    // Matches per second of the job against every slot of `list`.
    auto match_rate = [&](const std::vector<const ClassAd*>& list) {
      return rate(std::int64_t{kSlots} * kRounds, [&] {
        std::int64_t ok = 0;
        for (int r = 0; r < kRounds; ++r) {
          matched.clear();
          match_each(job, list, matched, env);
          ok += static_cast<std::int64_t>(matched.size());
        }
        sink = sink + ok;
      });
    };
    if (wanted("match")) {
      matches.push_back(match_rate(slot_ptrs));
      matches_parsed.push_back(match_rate(parsed_ptrs));
    }
    constexpr int kAds = 20000;
    if (wanted("parse") || wanted("parse_uncached")) {
      std::vector<std::string> texts;
      for (int i = 0; i < kAds; ++i) texts.push_back(job_long_form(i));
      auto parse_all = [&] {
        std::size_t total = 0;
        for (const std::string& text : texts) total += parse_long_form(text)->size();
        sink = sink + static_cast<std::int64_t>(total);
      };
      if (wanted("parse")) parses.push_back(rate(kAds, parse_all));
      if (wanted("parse_uncached")) {
        // Every expression parsed from its text (the expression cache off).
        ExprCache::set_enabled(false);
        parses_uncached.push_back(rate(kAds, parse_all));
        ExprCache::set_enabled(true);
      }
    }
  }
  nlohmann::json out;
  if (!evals.empty()) out["eval_per_s"] = median(evals);
  if (!matches.empty()) out["match_per_s"] = median(matches);
  if (!matches_parsed.empty()) out["match_parsed_slots_per_s"] = median(matches_parsed);
  if (!parses.empty()) out["parse_ads_per_s"] = median(parses);
  if (!parses_uncached.empty()) out["parse_ads_per_s_uncached"] = median(parses_uncached);
  out["runs"] = kRuns;
  out["cpu"] = cpu;
  out["job_ad_attributes"] = parse_long_form(job_long_form(0))->size();
  std::printf("%s\n", out.dump().c_str());
  return 0;
}
