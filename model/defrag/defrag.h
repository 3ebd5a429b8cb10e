// condor_defrag as a model: each poll it reads the pool's slot ads and
// decides which machines to drain and which drains to cancel
// (central-manager-configuration, "Defragmenting Dynamic Slots"); it
// keeps the statistics its ad publishes (the Defrag ClassAd attributes).
// Pure: the time and the ads come in, the orders go out. The defrag actor
// sends the orders to the startds; the simulator applies them to its
// startd models.
//
// One poll, in HTCondor's order:
//  1. how many machines to drain now: the rate's share per poll, plus the
//     hour's and the day's share when an hour or a day began since the
//     last poll (prorated by what is left of it);
//  2. the machines draining by this daemon's order (DrainReason undefined
//     or "Defrag <name>") and the whole machines (DEFRAG_WHOLE_MACHINE_EXPR
//     on a partitionable slot not drained by someone else); a machine that
//     stopped draining or became whole since the last poll has arrived
//     drained (DrainedMachines, MeanDrainedArrived);
//  3. the pool's draining cost from TotalMachineDrainingBadput and
//     TotalMachineDrainingUnclaimedTime (AvgDrainingBadput, ...);
//  4. cancel this daemon's drains that DEFRAG_CANCEL_REQUIREMENTS accepts;
//  5. nothing more when the rate, DEFRAG_MAX_CONCURRENT_DRAINING or
//     DEFRAG_MAX_WHOLE_MACHINES says so; else the candidates
//     (PartitionableSlot && Offline =!= true && Draining =!= true &&
//     DEFRAG_REQUIREMENTS), best DEFRAG_RANK first (a machine ranks as its
//     best slot; ties in a seeded random order), skipping whole machines
//     and those cancelled in this poll, up to the number to drain.
//
// One deliberate difference: HTCondor checks DEFRAG_MAX_CONCURRENT_DRAINING
// only before a poll and may then start several drains past it; here a
// poll starts no more than the limit leaves room for, as the knob's
// description ("the maximum number of draining machines") promises.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "model/classad/classad.h"
#include "model/defrag/defrag_policy.h"

namespace cara::defrag {

struct DefragOrder {
  std::size_t ad = 0;   // the slot ad (index into the poll's input) whose startd takes the order
  std::string slot;     // its Name
  std::string machine;  // the startd: what follows '@' in Name
  bool cancel = false;  // cancel the machine's drain, else drain it as the policy says
};

struct DefragPoll {
  std::vector<DefragOrder> orders;  // cancellations first, then drains best first
  int wanted = 0;                   // machines the rate allowed this poll
  std::vector<std::string> notes;   // what was decided and why, for the daemon's log
};

class Defrag {
 public:
  // `seed` orders machines of equal rank (HTCondor shuffles them).
  Defrag(DefragPolicy policy, std::int64_t started, std::uint64_t seed = 0);

  // One poll at `now` over every slot ad of the pool (Machine ads).
  DefragPoll poll(const std::vector<classad::ClassAd>& slots, std::int64_t now);
  // How the startd took an order of the last poll (DrainSuccesses,
  // DrainFailures, and their Recent counts).
  void answered(const DefragOrder& order, bool ok, std::int64_t now);
  // The daemon's ad (MyType "Defrag").
  classad::ClassAd ad(std::int64_t now) const;
  // A reconfiguration: the new policy from the next poll on; statistics stay.
  void reconfigure(DefragPolicy policy) { policy_ = std::move(policy); }
  const DefragPolicy& policy() const { return policy_; }
  std::int64_t last_poll() const { return last_poll_; }

 private:
  struct Logged {
    std::int64_t when;
    std::string who, what;
  };
  int machines_to_drain(std::int64_t prev, std::int64_t now) const;
  void count_arrivals(const std::set<std::string>& draining, const std::set<std::string>& whole,
                      std::int64_t now);
  void measure_cost(const std::vector<classad::ClassAd>& slots);
  void forget_old(std::int64_t now);
  // RecentStatsLifetime: ten polling intervals (HTCondor's window).
  std::int64_t stats_window() const { return 10 * std::max<std::int64_t>(1, policy_.interval); }

  DefragPolicy policy_;
  std::int64_t started_;
  std::mt19937_64 random_;
  std::int64_t last_poll_ = 0;

  std::set<std::string> prev_draining_, prev_whole_;
  std::int64_t machines_draining_ = 0, machines_draining_peak_ = 0;
  std::int64_t whole_machines_ = 0, whole_machines_peak_ = 0;
  std::int64_t drained_arrived_ = 0;  // DrainedMachines
  std::int64_t last_arrival_ = 0;     // when machines last arrived drained
  double arrival_seconds_ = 0;        // sum over arrivals of the wait for them
  double avg_badput_ = 0, avg_unclaimed_ = 0;
  std::int64_t successes_ = 0, failures_ = 0;
  std::deque<std::pair<std::int64_t, bool>> recent_;  // (when, ok) within RecentStatsLifetime
  std::deque<Logged> drains_, cancels_;               // the last ten of each
};

}  // namespace cara::defrag
