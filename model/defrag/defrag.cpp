#include "model/defrag/defrag.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <numeric>

#include "model/classad/eval.h"

namespace cara::defrag {
namespace {

constexpr std::size_t kLogLength = 10;  // RecentDrainsList, RecentCancelsList

bool is_true(const classad::ExprPtr& e, const classad::ClassAd& ad) {
  if (!e) return true;
  classad::Value v = classad::evaluate(*e, &ad);
  return v.is_bool() && v.as_bool();
}

bool attr_true(const classad::ClassAd& ad, const char* name) {
  classad::Value v = classad::evaluate_attr(ad, name);
  return v.is_bool() && v.as_bool();
}

double number_or(const classad::ClassAd& ad, const char* name, double fallback) {
  double d = fallback;
  classad::evaluate_attr(ad, name).number(d);
  return d;
}

std::string string_attr(const classad::ClassAd& ad, const char* name) {
  classad::Value v = classad::evaluate_attr(ad, name);
  return v.is_string() ? std::string(v.as_string()) : std::string();
}

// A partitionable slot that can be drained (HTCondor's base constraint
// PartitionableSlot && Offline =!= True).
bool drainable(const classad::ClassAd& ad) {
  return attr_true(ad, "PartitionableSlot") && !attr_true(ad, "Offline");
}

// "slot1@host" names the startd "host" (HTCondor's slotNameToDaemonName).
std::string machine_of(const std::string& slot) {
  const auto at = slot.find('@');
  return at == std::string::npos ? slot : slot.substr(at + 1);
}

// `n` machines per `period`, of which `elapsed` seconds have gone: the
// share of what is left of the period, plus one polling interval that the
// poll may have come late by; never more than n.
int prorate(int n, std::int64_t elapsed, std::int64_t period, std::int64_t interval) {
  const double frac = static_cast<double>(period - elapsed) / static_cast<double>(period) +
                      static_cast<double>(interval) / static_cast<double>(period);
  const int answer = static_cast<int>(std::floor(n * frac + 0.5));
  if (n > 0 && answer > n) return n;
  if (answer * n < 0) return 0;
  return answer;
}

}  // namespace

Defrag::Defrag(DefragPolicy policy, std::int64_t started, std::uint64_t seed)
    : policy_(std::move(policy)), started_(started), random_(seed) {}

int Defrag::machines_to_drain(std::int64_t prev, std::int64_t now) const {
  int n = policy_.rate.per_poll;
  if (prev == 0) return n;  // the first poll: no hour or day has begun since
  const std::int64_t hour = now / 3600 * 3600, day = now / 86400 * 86400;
  if (hour != prev / 3600 * 3600) n += prorate(policy_.rate.per_hour, now - hour, 3600, policy_.interval);
  if (day != prev / 86400 * 86400) n += prorate(policy_.rate.per_day, now - day, 86400, policy_.interval);
  return n;
}

// A machine has arrived drained when it became whole, or stopped draining,
// since the last poll (counted once if both).
void Defrag::count_arrivals(const std::set<std::string>& draining, const std::set<std::string>& whole,
                            std::int64_t now) {
  std::set<std::string> arrived;
  std::set_difference(whole.begin(), whole.end(), prev_whole_.begin(), prev_whole_.end(),
                      std::inserter(arrived, arrived.end()));
  std::set_difference(prev_draining_.begin(), prev_draining_.end(), draining.begin(), draining.end(),
                      std::inserter(arrived, arrived.end()));
  prev_draining_ = draining;
  prev_whole_ = whole;
  if (arrived.empty()) return;
  // The first arrivals after start have no wait to measure.
  if (last_arrival_ > 0) {
    drained_arrived_ += static_cast<std::int64_t>(arrived.size());
    arrival_seconds_ += static_cast<double>(arrived.size()) *
                        static_cast<double>(std::max<std::int64_t>(1, now - last_arrival_));
  }
  last_arrival_ = now;
}

// AvgDrainingBadput and AvgDrainingUnclaimed: over the machines, their
// draining cpu-seconds per second of life, per cpu of the pool.
void Defrag::measure_cost(const std::vector<classad::ClassAd>& slots) {
  std::set<std::string> seen;
  double badput = 0, unclaimed = 0, cpus = 0;
  for (const classad::ClassAd& ad : slots) {
    const bool has = ad.find("TotalMachineDrainingBadput") || ad.find("TotalMachineDrainingUnclaimedTime");
    if (!has || !seen.insert(machine_of(string_attr(ad, "Name"))).second) continue;
    const double heard = number_or(ad, "LastHeardFrom", 0), started = number_or(ad, "DaemonStartTime", 0);
    const double age = heard - started;
    if (heard <= 0 || started <= 0 || age <= 0) continue;
    badput += number_or(ad, "TotalMachineDrainingBadput", 0) / age;
    unclaimed += number_or(ad, "TotalMachineDrainingUnclaimedTime", 0) / age;
    cpus += number_or(ad, "TotalCpus", 0);
  }
  avg_badput_ = cpus > 0 ? badput / cpus : 0;
  avg_unclaimed_ = cpus > 0 ? unclaimed / cpus : 0;
}

DefragPoll Defrag::poll(const std::vector<classad::ClassAd>& slots, std::int64_t now) {
  DefragPoll out;
  const std::int64_t prev = last_poll_;
  last_poll_ = now;
  forget_old(now);
  const int wanted = machines_to_drain(prev, now);
  out.wanted = wanted;

  // The partitionable slots that can be drained, by machine.
  const std::string reason = policy_.drain_reason();
  std::set<std::string> draining, whole;
  std::vector<std::size_t> mine_draining;  // slots draining by this daemon's order
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const classad::ClassAd& ad = slots[i];
    if (!drainable(ad)) continue;
    classad::Value why = classad::evaluate_attr(ad, "DrainReason");
    const bool by_me = why.is_undefined() || (why.is_string() && why.as_string() == reason);
    if (!by_me) continue;
    const std::string machine = machine_of(string_attr(ad, "Name"));
    if (attr_true(ad, "Draining")) {
      draining.insert(machine);
      mine_draining.push_back(i);
    }
    if (is_true(policy_.whole_machine, ad)) whole.insert(machine);
  }
  machines_draining_ = static_cast<std::int64_t>(draining.size());
  whole_machines_ = static_cast<std::int64_t>(whole.size());
  machines_draining_peak_ = std::max(machines_draining_peak_, machines_draining_);
  whole_machines_peak_ = std::max(whole_machines_peak_, whole_machines_);
  out.notes.push_back("There are currently " + std::to_string(draining.size()) + " draining and " +
                      std::to_string(whole.size()) + " whole machines.");
  count_arrivals(draining, whole, now);
  measure_cost(slots);

  // DEFRAG_CANCEL_REQUIREMENTS: this daemon's drains that have gone far enough.
  std::set<std::string> cancelled;
  if (policy_.cancel_requirements) {
    for (std::size_t i : mine_draining) {
      if (!is_true(policy_.cancel_requirements, slots[i])) continue;
      const std::string name = string_attr(slots[i], "Name");
      if (!cancelled.insert(machine_of(name)).second) continue;
      out.orders.push_back(DefragOrder{i, name, machine_of(name), true});
      cancels_.push_back(Logged{now, name, ""});
      if (cancels_.size() > kLogLength) cancels_.pop_front();
    }
    out.notes.push_back("Cancelled draining of " + std::to_string(cancelled.size()) + " whole machines.");
  }

  auto nothing = [&](std::string why) {
    out.notes.push_back("Doing nothing, because " + std::move(why) + ".");
    return out;
  };
  if (wanted <= 0)
    return nothing("the number to drain in the next " + std::to_string(policy_.interval) + "s is 0");
  if (policy_.max_concurrent_draining == 0) return nothing("DEFRAG_MAX_CONCURRENT_DRAINING=0");
  if (policy_.max_whole_machines == 0) return nothing("DEFRAG_MAX_WHOLE_MACHINES=0");
  int to_drain = wanted;
  if (policy_.max_concurrent_draining >= 0) {
    if (machines_draining_ >= policy_.max_concurrent_draining)
      return nothing("DEFRAG_MAX_CONCURRENT_DRAINING=" + std::to_string(policy_.max_concurrent_draining) +
                     " and there are " + std::to_string(machines_draining_) + " draining machines");
    to_drain = static_cast<int>(
        std::min<std::int64_t>(to_drain, policy_.max_concurrent_draining - machines_draining_));
  }
  if (policy_.max_whole_machines >= 0 && whole_machines_ >= policy_.max_whole_machines)
    return nothing("DEFRAG_MAX_WHOLE_MACHINES=" + std::to_string(policy_.max_whole_machines) +
                   " and there are " + std::to_string(whole_machines_) + " whole machines");

  // The candidates, best rank first; equal ranks in a random order.
  std::vector<std::pair<double, std::size_t>> candidates;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const classad::ClassAd& ad = slots[i];
    if (!drainable(ad) || attr_true(ad, "Draining")) continue;
    if (!is_true(policy_.requirements, ad)) continue;
    double rank = 0;
    if (policy_.rank) classad::evaluate(*policy_.rank, &ad).number(rank);
    candidates.emplace_back(rank, i);
  }
  std::shuffle(candidates.begin(), candidates.end(), random_);
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  out.notes.push_back("Looking for " + std::to_string(to_drain) + " machines to drain.");
  std::set<std::string> done;
  int drained = 0;
  for (const auto& [rank, i] : candidates) {
    if (drained >= to_drain) break;
    const std::string name = string_attr(slots[i], "Name");
    const std::string machine = machine_of(name);
    if (cancelled.count(machine) || whole.count(machine) || !done.insert(machine).second) continue;
    out.orders.push_back(DefragOrder{i, name, machine, false});
    drains_.push_back(Logged{now, name, policy_.schedule_name});
    if (drains_.size() > kLogLength) drains_.pop_front();
    ++drained;
  }
  out.notes.push_back("Drained " + std::to_string(drained) + " machines (wanted to drain " +
                      std::to_string(to_drain) + " machines).");
  return out;
}

void Defrag::answered(const DefragOrder& order, bool ok, std::int64_t now) {
  if (order.cancel) return;  // HTCondor counts drains only
  (ok ? successes_ : failures_) += 1;
  recent_.emplace_back(now, ok);
  forget_old(now);
}

// Counts older than the Recent window go (ad() counts only the window anyway).
void Defrag::forget_old(std::int64_t now) {
  const std::int64_t window = stats_window();
  while (!recent_.empty() && recent_.front().first <= now - window) recent_.pop_front();
}

}  // namespace cara::defrag
