// One poll of the defrag daemon, and many in virtual time: which machines
// it drains, how many, when it holds back, what it cancels, what its ad
// says (central-manager-configuration, "Defragmenting Dynamic Slots").
#include "model/classad/eval.h"
#include "model/classad/unparse.h"
#include "tests/unit/defrag/support.h"

using namespace cara;
using namespace cara::defrag;
using namespace cara::defrag::test;

namespace {

std::int64_t int_of(const classad::ClassAd& ad, const char* name) {
  classad::Value v = classad::evaluate_attr(ad, name);
  return v.is_int() ? v.as_int() : -999;
}
double real_of(const classad::ClassAd& ad, const char* name) {
  double d = -999;
  classad::evaluate_attr(ad, name).number(d);
  return d;
}

// `n` fragmented machines node01..: 2 of 8 cpus free.
SlotPool fragmented(int n) {
  SlotPool pool;
  for (int i = 1; i <= n; ++i) pool.add("node" + std::string(i < 10 ? "0" : "") + std::to_string(i), 2);
  return pool;
}

}  // namespace

TEST_CASE("one machine an hour at the default interval: at the first poll of each hour", "[defrag][rate]") {
  // The spec's rate (DEFRAG_DRAINING_MACHINES_PER_HOUR = 1.0) polled every
  // 600 s: no machine per poll, one per hour.
  Defrag d(policy("DEFRAG_DRAINING_MACHINES_PER_HOUR = 1.0\n"), kMidnight);
  SlotPool pool = fragmented(20);
  std::vector<std::int64_t> when;
  const std::int64_t start = kMidnight + 60;
  for (std::int64_t t = start; t < start + 10 * 3600; t += 600) {
    const DefragPoll p = d.poll(pool.ads, t);
    for (std::size_t i = 0; i < pool.apply(p, "Defrag cm.test").size(); ++i) when.push_back(t);
  }
  // The first poll has no hour behind it; then each hour's first poll
  // drains one: nine in ten hours, each within the first interval of its hour.
  REQUIRE(when.size() == 9);
  for (std::size_t i = 0; i < when.size(); ++i) {
    CHECK(when[i] == kMidnight + static_cast<std::int64_t>(i + 1) * 3600 + 60);
  }
}

TEST_CASE("twelve machines a day drain when the day begins", "[defrag][rate]") {
  Defrag d(policy("DEFRAG_DRAINING_MACHINES_PER_HOUR = 0.5\n"), kMidnight - 3600);
  SlotPool pool = fragmented(30);
  int before_midnight = 0, at_midnight = 0, after = 0;
  for (std::int64_t t = kMidnight - 3000; t < kMidnight + 6 * 3600; t += 600) {
    const int n = static_cast<int>(pool.apply(d.poll(pool.ads, t), "Defrag cm.test").size());
    (t < kMidnight ? before_midnight : t < kMidnight + 600 ? at_midnight : after) += n;
  }
  CHECK(before_midnight == 0);
  CHECK(at_midnight == 12);
  CHECK(after == 0);
}

TEST_CASE("a poll late in the hour gets only the share of the hour left", "[defrag][rate]") {
  // One an hour, polled every 600 s: the first poll of an hour gets the
  // hour's machine when it comes early in the hour, not when the hour is
  // mostly gone (a poll that came late, or after a long pause).
  Defrag d(policy("DEFRAG_DRAINING_MACHINES_PER_HOUR = 1\n"), kMidnight);
  SlotPool pool = fragmented(10);
  CHECK(d.poll(pool.ads, kMidnight + 10).wanted == 0);           // the first poll: no hour behind it
  CHECK(d.poll(pool.ads, kMidnight + 3600 + 500).wanted == 1);   // 8 min in: (3100 + 600) / 3600 rounds to 1
  CHECK(d.poll(pool.ads, kMidnight + 7200 + 3000).wanted == 0);  // 50 min in: (600 + 600) / 3600 rounds to 0
  // 1.5 a poll at one poll per half hour: one each poll, one more each hour.
  Defrag half(policy("DEFRAG_INTERVAL = 1800\nDEFRAG_DRAINING_MACHINES_PER_HOUR = 3\n"), kMidnight);
  CHECK(half.policy().rate.per_poll == 1);
  CHECK(half.policy().rate.per_hour == 1);
  CHECK(half.poll(pool.ads, kMidnight + 100).wanted == 1);
  CHECK(half.poll(pool.ads, kMidnight + 1900).wanted == 1);        // the same hour
  CHECK(half.poll(pool.ads, kMidnight + 3600 + 100).wanted == 2);  // a new hour
}

TEST_CASE("the best DEFRAG_RANK drains first: by default the least graceful badput", "[defrag][choice]") {
  Defrag d(policy("DEFRAG_DRAINING_MACHINES_PER_HOUR = 18\n"), kMidnight);  // 3 per poll
  SlotPool pool;
  pool.add("costly", 2, 8, "ExpectedMachineGracefulDrainingBadput = 90000");
  pool.add("cheap", 2, 8, "ExpectedMachineGracefulDrainingBadput = 100");
  pool.add("middling", 2, 8, "ExpectedMachineGracefulDrainingBadput = 5000");
  pool.add("cheapest", 2, 8, "ExpectedMachineGracefulDrainingBadput = 10");
  const DefragPoll p = d.poll(pool.ads, kMidnight + 60);
  CHECK(p.wanted == 3);
  CHECK(joined(pool.apply(p, "Defrag cm.test")) == "cheapest cheap middling");
  // A site's own rank: the machine closest to whole first.
  Defrag own(policy("DEFRAG_DRAINING_MACHINES_PER_HOUR = 6\nDEFRAG_RANK = Cpus\n"), kMidnight);
  SlotPool p2;
  p2.add("a", 1);
  p2.add("b", 6);
  p2.add("c", 3);
  CHECK(joined(p2.apply(own.poll(p2.ads, kMidnight + 60), "Defrag cm.test")) == "b");
}

TEST_CASE("machines of equal rank drain in a seeded random order", "[defrag][choice]") {
  auto order = [](std::uint64_t seed) {
    Defrag d(policy("DEFRAG_DRAINING_MACHINES_PER_HOUR = 60\nDEFRAG_RANK = 0\n"), kMidnight,
             seed);  // 10 per poll
    SlotPool pool = fragmented(10);
    return joined(pool.apply(d.poll(pool.ads, kMidnight + 60), "Defrag cm.test"));
  };
  CHECK(order(1) == order(1));  // deterministic
  bool differs = false;
  for (std::uint64_t seed = 2; seed < 10 && !differs; ++seed) differs = order(seed) != order(1);
  CHECK(differs);  // not always the Name order
}

TEST_CASE("whole, offline, unwanted and already draining machines are not drained", "[defrag][choice]") {
  Defrag d(policy("DEFRAG_DRAINING_MACHINES_PER_HOUR = 60\nDEFRAG_REQUIREMENTS = TotalCpus > 4\n"
                  "DEFRAG_CANCEL_REQUIREMENTS =\n"),
           kMidnight);
  SlotPool pool;
  pool.add("whole", 8);                                                      // Cpus == TotalSlotCpus
  pool.add("offline", 2, 8, "Offline = true");                               // not drainable
  pool.add("small", 1, 4);                                                   // DEFRAG_REQUIREMENTS says no
  pool.add("admin", 2, 8, "Draining = true; DrainReason = \"by command\"");  // someone else's drain
  pool.add("wanted", 2);
  pool.ads.push_back(test_ads::ad("[ Name = \"slot2@static\"; PartitionableSlot = false; Cpus = 1 ]"));
  const DefragPoll p = d.poll(pool.ads, kMidnight + 60);
  CHECK(joined(pool.apply(p, "Defrag cm.test")) == "wanted");
  // The admin's drain is not this daemon's: not counted, not cancelled.
  const classad::ClassAd ad = d.ad(kMidnight + 60);
  CHECK(int_of(ad, "MachinesDraining") == 0);
  CHECK(int_of(ad, "WholeMachines") == 1);
  // A machine with several partitionable slots is drained once, ranked
  // by its best slot.
  Defrag two(policy("DEFRAG_DRAINING_MACHINES_PER_HOUR = 60\nDEFRAG_RANK = Cpus\n"), kMidnight);
  SlotPool multi;
  multi.add("m1", 1);
  multi.add("m2", 2);
  multi.ads.push_back(
      test_ads::ad("[ Name = \"slot2@m1\"; PartitionableSlot = true; Cpus = 5; TotalSlotCpus = 8; "
                   "Draining = false ]"));
  CHECK(joined(multi.apply(two.poll(multi.ads, kMidnight + 60), "Defrag cm.test")) == "m1 m2");
}

TEST_CASE("DEFRAG_MAX_CONCURRENT_DRAINING and DEFRAG_MAX_WHOLE_MACHINES hold draining back",
          "[defrag][limits]") {
  Defrag d(policy("DEFRAG_DRAINING_MACHINES_PER_HOUR = 30\nDEFRAG_MAX_CONCURRENT_DRAINING = 2\n"), kMidnight);
  SlotPool pool = fragmented(6);
  // Five wanted, room for two.
  DefragPoll p = d.poll(pool.ads, kMidnight + 60);
  CHECK(p.wanted == 5);
  const std::vector<std::string> first = pool.apply(p, "Defrag cm.test");
  CHECK(first.size() == 2);
  p = d.poll(pool.ads, kMidnight + 660);
  CHECK(p.orders.empty());
  CHECK(p.notes.back() ==
        "Doing nothing, because DEFRAG_MAX_CONCURRENT_DRAINING=2 and there are 2 draining machines.");
  // One finishes (resumes whole): room for one more, and one whole machine.
  pool.drained(first.front());
  p = d.poll(pool.ads, kMidnight + 1260);
  CHECK(pool.apply(p, "Defrag cm.test").size() == 1);

  Defrag w(policy("DEFRAG_DRAINING_MACHINES_PER_HOUR = 30\nDEFRAG_MAX_WHOLE_MACHINES = 2\n"), kMidnight);
  SlotPool some = fragmented(4);
  some.add("whole1", 8);
  CHECK(some.apply(w.poll(some.ads, kMidnight + 60), "Defrag cm.test").size() == 4);
  some.add("whole2", 8);
  p = w.poll(some.ads, kMidnight + 660);
  CHECK(p.orders.empty());
  CHECK(p.notes.back() ==
        "Doing nothing, because DEFRAG_MAX_WHOLE_MACHINES=2 and there are 2 whole machines.");
  // Zero of either stops all draining.
  for (const char* zero : {"DEFRAG_MAX_CONCURRENT_DRAINING = 0\n", "DEFRAG_MAX_WHOLE_MACHINES = 0\n"}) {
    Defrag z(policy(std::string("DEFRAG_DRAINING_MACHINES_PER_HOUR = 30\n") + zero), kMidnight);
    SlotPool f = fragmented(3);
    CHECK(z.poll(f.ads, kMidnight + 60).orders.empty());
  }
}

TEST_CASE("a drain DEFRAG_CANCEL_REQUIREMENTS accepts is cancelled, once, and not drained again that poll",
          "[defrag][cancel]") {
  // Enough free cpus for an 8-core job: the drain has done its work.
  Defrag d(policy("DEFRAG_DRAINING_MACHINES_PER_HOUR = 60\nDEFRAG_WHOLE_MACHINE_EXPR = Cpus >= 6\n"),
           kMidnight);
  SlotPool pool = fragmented(2);
  CHECK(pool.apply(d.poll(pool.ads, kMidnight + 60), "Defrag cm.test").size() == 2);
  pool.of("node01").set("Cpus", static_cast<std::int64_t>(6));  // half drained
  pool.of("node02").set("DrainReason", "by command");           // taken over by an admin
  pool.of("node02").set("Cpus", static_cast<std::int64_t>(7));
  DefragPoll p = d.poll(pool.ads, kMidnight + 660);
  REQUIRE(p.orders.size() == 1);
  CHECK(p.orders[0].cancel);
  CHECK(p.orders[0].machine == "node01");
  CHECK(p.orders[0].slot == "slot1@node01");
  const classad::ClassAd ad = d.ad(kMidnight + 660);
  CHECK(classad::unparse(*ad.find("RecentCancelsList")->expr) ==
        "{ [ when = " + std::to_string(kMidnight + 660) + "; who = \"slot1@node01\" ] }");
}

TEST_CASE("the defrag ad: draining and whole machines, arrivals, successes, the pool's draining cost",
          "[defrag][ad]") {
  Defrag d(policy("DEFRAG_DRAINING_MACHINES_PER_HOUR = 12\nDEFRAG_NAME = d1\n"), kMidnight - 100);
  SlotPool pool = fragmented(4);
  // Draining costs, per machine: cpu-seconds over its life (LastHeardFrom
  // - DaemonStartTime) per cpu of the pool.
  pool.of("node01").set("TotalMachineDrainingBadput", static_cast<std::int64_t>(3600));
  pool.of("node01").set("TotalMachineDrainingUnclaimedTime", static_cast<std::int64_t>(1800));
  for (classad::ClassAd& a : pool.ads) {
    a.set("DaemonStartTime", kMidnight - 3600);
    a.set("LastHeardFrom", kMidnight);
    if (!a.find("TotalMachineDrainingBadput"))
      a.set("TotalMachineDrainingBadput", static_cast<std::int64_t>(0));
  }
  DefragPoll p = d.poll(pool.ads, kMidnight + 60);  // 2 per poll
  const auto drained = pool.apply(p, "Defrag d1");
  REQUIRE(drained.size() == 2);
  d.answered(p.orders[0], true, kMidnight + 61);
  d.answered(p.orders[1], false, kMidnight + 61);
  classad::ClassAd ad = d.ad(kMidnight + 100);
  CHECK(classad::unparse(*ad.find("MyType")->expr) == "\"Defrag\"");
  CHECK(classad::unparse(*ad.find("Name")->expr) == "\"d1\"");
  CHECK(classad::unparse(*ad.find("Machine")->expr) == "\"cm.test\"");
  CHECK(int_of(ad, "DaemonStartTime") == kMidnight - 100);
  CHECK(int_of(ad, "DrainSuccesses") == 1);
  CHECK(int_of(ad, "DrainFailures") == 1);
  CHECK(int_of(ad, "RecentDrainSuccesses") == 1);
  CHECK(int_of(ad, "RecentStatsLifetime") == 6000);
  // 3600 cpu-s of badput in 3600 s of life over 32 cpus.
  CHECK(real_of(ad, "AvgDrainingBadput") == Approx(1.0 / 32));
  CHECK(real_of(ad, "AvgDrainingUnclaimed") == Approx(0.5 / 32));
  CHECK(real_of(ad, "AvgDrainingUnclaimedTime") == Approx(0.5 / 32));
  CHECK(classad::unparse(*ad.find("RecentDrainsList")->expr).find("what = \"graceful\"") !=
        std::string::npos);
  // The next poll sees the two draining; then both come back whole, one
  // poll after another: two arrivals, 600 s apart.
  pool.apply(d.poll(pool.ads, kMidnight + 660), "Defrag d1");
  ad = d.ad(kMidnight + 660);
  CHECK(int_of(ad, "MachinesDraining") == 2);  // as the poll found them (it drained two more)
  pool.drained(drained[0]);
  d.poll(pool.ads, kMidnight + 1260);
  pool.drained(drained[1]);
  d.poll(pool.ads, kMidnight + 1860);
  ad = d.ad(kMidnight + 1860);
  CHECK(int_of(ad, "WholeMachines") == 2);
  CHECK(int_of(ad, "WholeMachinesPeak") == 2);
  CHECK(int_of(ad, "MachinesDrainingPeak") == 3);  // at 1260: the other three
  CHECK(int_of(ad, "DrainedMachines") == 1);       // the first arrival has no wait to measure
  CHECK(real_of(ad, "MeanDrainedArrived") == Approx(600));
  // Ten polling intervals later the Recent counts are empty again.
  CHECK(int_of(d.ad(kMidnight + 61 + 6000), "RecentDrainSuccesses") == 0);
}
