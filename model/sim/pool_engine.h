// The inside of a VirtualPool (virtual_pool.h): the models of its daemons,
// the virtual clock's timers, and the messages between the daemons. Only
// model/sim's own sources include it.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/accounting/accountant.h"
#include "model/accounting/group_tree.h"
#include "model/claim/claim_tracker.h"
#include "model/claim/schedd_claims.h"
#include "model/config/config.h"
#include "model/config/config_host.h"
#include "model/negotiation/cycle_timing.h"
#include "model/negotiation/negotiator_policy.h"
#include "model/negotiation/slot_board.h"
#include "model/schedd/schedd_settings.h"
#include "model/sim/virtual_pool.h"
#include "model/startd/startd.h"

namespace cara::sim {

// A slot of the pool: its machine and its short name (slot1, slot1_2).
struct SlotKey {
  std::size_t machine = 0;
  std::string slot;
  auto operator<=>(const SlotKey&) const = default;
};

struct Machine {
  std::string name;
  std::vector<config::TextLayer> layers;  // its own configuration, reconfigurations appended
  std::unique_ptr<startd::Startd> startd;
  bool gone = false;                        // left the pool (remove_machine): its index stays taken
  double cores = 0;                         // of its static and partitionable slots
  bool polled = false;                      // a policy expression may turn with time
  std::int64_t poll_interval = 5;           // POLLING_INTERVAL
  std::optional<std::int64_t> deadline_at;  // the pending timer for next_deadline()
  bool poll_pending = false;
  bool dirty = true;  // its startd was called since the board last read its slots
  // What the startd advertises at the board's next read (startd::changes_ad):
  // every slot (its first read, a reconfiguration), else the slots its
  // actions changed, and then its partitionable ones too.
  bool whole = true;
  std::set<std::string> changed;
  std::map<std::string, std::string> holder;       // slot -> the claim it holds (as the slot actor knows it)
  std::map<std::string, schedd::JobId> activated;  // slot -> the job activated on it
};

// A job's simulated execution on a slot.
struct Run {
  SlotKey where;
  std::string claim_id;
  schedd::JobId job;
  std::string submitter, slot_name;
  double cores = 1;
  std::int64_t started = 0;
  std::optional<std::int64_t> left;  // seconds of run still to go; none: until killed
  std::int64_t resumed = 0;          // when it last began or continued running
  bool suspended = false;
  std::uint64_t exit_timer = 0;  // the serial of its pending exit timer (0: none)
};

enum class TimerKind { Cycle, Deadline, Poll, Exit, Periodic };

struct Timer {
  std::int64_t at = 0;
  std::uint64_t seq = 0;  // order of scheduling: ties go first-scheduled first
  TimerKind kind = TimerKind::Cycle;
  std::uint64_t arg = 0;  // machine index, or run serial
  bool operator>(const Timer& o) const { return at != o.at ? at > o.at : seq > o.seq; }
};

// A call to a startd made by a slot actor, whose answer the startd gives
// from the actions it returns (actors/startd.cpp, dispatch).
struct SlotCall {
  enum Kind { Claim, Activate } kind = Claim;
  std::string claim_id;
  std::string slot;
};

struct VirtualPool::Engine {
  std::int64_t now = 0;
  PoolCounters counters;
  negotiation::CycleResult last_cycle;
  std::vector<std::string> warnings;  // the first kMaxWarnings
  std::int64_t warnings_dropped = 0;
  static constexpr std::size_t kMaxWarnings = 1000;
  void warn(std::string text) {
    if (warnings.size() < kMaxWarnings)
      warnings.push_back(std::move(text));
    else
      ++warnings_dropped;
  }
  std::function<void(const PoolEvent&)> observer;
  double total_cores = 0;

  // What every node reads first, the seed their hosts draw from.
  std::vector<config::TextLayer> common;
  std::uint64_t seed = 1;

  // The central manager.
  std::vector<config::TextLayer> cm_layers;
  std::unique_ptr<config::Config> cm_config;
  negotiation::NegotiatorPolicy policy;
  std::optional<accounting::Accountant> accountant;
  std::optional<accounting::GroupTree> groups;
  negotiation::CycleTimes times;
  std::optional<std::int64_t> cycle_at;  // the pending cycle timer
  bool changed = true;                   // since the last cycle
  std::uint64_t claim_counter = 0;
  // The slot ads as the collector holds them, kept from cycle to cycle
  // (negotiation/slot_board.h): between two cycles a few slots change
  // (issue 29), and only the machines whose startd was called since are
  // read again. Keys order the slots by machine, SlotID and dynamic slot.
  negotiation::SlotBoard board;
  std::vector<std::size_t> dirty;     // machines to read again
  claim::ClaimTracker claim_tracker;  // the claims reconciled from what changed
  std::map<negotiation::SlotBoard::Key, SlotKey> slot_at;
  static negotiation::SlotBoard::Key board_key(std::size_t machine, int id, int sub_id) {
    return (static_cast<std::uint64_t>(machine) << 40) | (static_cast<std::uint64_t>(id) << 24) |
           static_cast<std::uint64_t>(sub_id);
  }
  void touch(std::size_t machine) {
    if (!machines[machine].dirty) {
      machines[machine].dirty = true;
      dirty.push_back(machine);
    }
  }
  void sync_board();

  // The access point.
  std::shared_ptr<config::MemoryHost> files;  // what submit files read, and their $RANDOM_*
  std::vector<config::TextLayer> ap_layers;
  std::unique_ptr<config::Config> ap_config;
  schedd::ScheddSettings schedd_settings;
  std::optional<schedd::JobQueue> queue;
  std::optional<claim::ScheddClaims> claims;
  bool job_periodic = false;  // a job carries its own periodic expressions
  bool periodic_pending = false;
  // The schedd's numbers for the slots it deals with, as the actor's
  // SlotHandles: given on first sight, forgotten when the claim model no
  // longer watches the slot (a dynamic slot's name is never used again: a
  // simulated year carves a million of them).
  std::map<SlotKey, claim::SlotRef> refs;
  std::unordered_map<claim::SlotRef, SlotKey> slot_of_ref;
  claim::SlotRef last_ref = 0;
  std::vector<claim::SlotRef> unwatched;  // forgotten when no message is in flight

  // The execution points.
  std::vector<Machine> machines;
  std::set<std::string> waiting;  // claims granted once their slot is free (ClaimPending)
  std::map<std::uint64_t, Run> runs;
  std::map<SlotKey, std::uint64_t> run_on;
  std::uint64_t run_serial = 0;

  std::priority_queue<Timer, std::vector<Timer>, std::greater<Timer>> timers;
  std::uint64_t timer_seq = 0;
  // Messages in flight: each is carried at the time it was sent, in order.
  std::deque<std::function<void()>> mail;

  // ---- the clock (virtual_pool.cpp)
  void at(std::int64_t when, TimerKind kind, std::uint64_t arg = 0);
  void post(std::function<void()> message) { mail.push_back(std::move(message)); }
  void deliver_mail();
  void fire(const Timer& t);
  void notify(PoolEvent e);

  // ---- the negotiator (negotiator_cycle... virtual_pool.cpp)
  void mark_changed();
  void plan_cycle();
  bool preemption_by_priority() const;
  void cycle();

  // ---- the schedd (pool_messages.cpp)
  claim::SlotRef ref_of(const SlotKey& key);
  const SlotKey* key_of(claim::SlotRef ref) const;
  void forget_ref(claim::SlotRef ref);
  void carry_out(claim::Outcome out);
  void request_claim(const claim::RequestClaim& r);
  void activate(const claim::Activate& a);
  void release(const claim::Release& r);
  void settle_queue();
  void plan_periodic();
  void periodic();

  // ---- the startds (pool_messages.cpp)
  void dispatch(std::size_t machine, startd::StartdResult result, const SlotCall* call);
  void plan_machine(std::size_t machine);
  void start_run(const SlotKey& key, const std::string& claim_id);
  void end_run(std::uint64_t serial, bool killed, const std::string& why);
  void suspend_run(const SlotKey& key, bool suspend);
};

}  // namespace cara::sim
