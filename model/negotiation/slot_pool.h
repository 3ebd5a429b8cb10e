// The slots one cycle negotiates for (central-manager-configuration, "The
// Negotiation Cycle", step 1): the slot ads that pass
// NEGOTIATOR_SLOT_CONSTRAINT, sorted out by what the negotiator may do
// with them, and annotated with the ephemeral Remote* attributes
// (user-priorities-and-negotiation, "Priorities in Negotiation and
// Preemption") that PREEMPTION_REQUIREMENTS and PREEMPTION_RANK read.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/eval_env.h"
#include "model/negotiation/concurrency_limits.h"
#include "model/negotiation/cycle_types.h"
#include "model/negotiation/negotiator_policy.h"
#include "model/negotiation/remote_attributes.h"

namespace cara::accounting {
class Accountant;
class GroupTree;
}  // namespace cara::accounting

namespace cara::negotiation {

enum class SlotUse {
  Idle,         // Unclaimed (or no State): a match needs no preemption
  Busy,         // Claimed and running a job: a match preempts it
  ClaimedIdle,  // Claimed but not running a job: skipped (spec step "Skip slots in the Claimed state, but not
                // running a job")
  Unavailable,  // Matched, Preempting, retiring or drained: not offered this cycle
};

struct PoolSlot {
  const classad::ClassAd* ad = nullptr;  // the ad evaluated (an annotated copy for busy slots)
  std::size_t input = 0;                 // index in the input slots
  std::string name;
  std::string machine;
  SlotUse use = SlotUse::Idle;
  bool offered = false;  // idle, or busy with NEGOTIATOR_CONSIDER_PREEMPTION
  double weight = 1;     // SlotWeight (1 without NEGOTIATOR_USE_SLOT_WEIGHTS)
  // Busy slots: who runs there, and how well the slot likes it.
  std::string remote_submitter;  // AccountingGroup, else RemoteUser
  std::string remote_key;        // remote_submitter lower-cased (submitter names ignore case)
  std::string remote_group;
  double remote_eup = 0;
  double current_rank = 0;
  bool in_retirement = false;  // within MaxJobRetirementTime
  bool retiring = false;       // in retirement, and NEGOTIATOR_CONSIDER_EARLY_PREEMPTION off
  std::vector<LimitUse> running_limits;
  // The slot's Rank reads nothing of the job (a constant, absent: 0, or
  // an expression of the slot's own attributes), so no job can be ranked
  // above the running one when it is not above CurrentRank: with
  // PREEMPTION_REQUIREMENTS false such a busy slot is left out of every
  // request's list before anything is evaluated.
  bool rank_constant = false;
  double rank_value = 0;
  // Busy, and no request can take it: its Rank prefers no job to the
  // running one and PREEMPTION_REQUIREMENTS is False. Still offered, for
  // the rejection reason of a request that matches only such slots.
  bool untakeable = false;
  // A slot of a board's bundle (slot_board.h), counted and summed in its
  // digest: an untakeable one, alike to no other slot of the cycle's pool
  // under its class key's names, or one of the first of a bundle of idle
  // slots.
  bool bundle_slot = false;
  bool partitionable = false;
  bool consumption_policy = false;  // partitionable with Consumption<R> expressions
  // The Consumption<R> expressions, by resource name R (read once: a
  // request's share is asked for many times a cycle), or null: none.
  // Shared by the copies of a described slot (a board's or memo's and
  // each cycle's).
  using ConsumptionExprs = std::vector<std::pair<std::string, classad::ExprPtr>>;
  std::shared_ptr<const ConsumptionExprs> consumption_exprs;
  const ConsumptionExprs& consumptions() const {
    static const ConsumptionExprs none;
    return consumption_exprs ? *consumption_exprs : none;
  }
  // What a class key reads because of them (slot_key.h): each
  // Consumption<R> attribute's name and R, found as the slot is described
  // (a key is written for every new ad of a partitionable slot), or null.
  std::shared_ptr<const std::vector<classad::Symbol>> consumption_keyed;
  // How a partitionable slot weighs the dynamic slot it would carve
  // (match_weight): SlotWeight is absent or names one resource
  // (`SlotWeight = Cpus`): that resource's amount; else SlotWeight reads
  // only the carved resources: evaluated over them alone; else over a
  // copy of the whole ad.
  enum class CarvedWeight { Resource, Overlay, Copy };
  CarvedWeight carved_weight = CarvedWeight::Copy;
  std::string weight_resource;  // CarvedWeight::Resource: which
  // Partitionable slots with the same signature (>= 0) carve the same
  // weight for a job whose Request* read nothing of the slot: their
  // Consumption<R> expressions read only the job and they weigh the
  // carved slot alike. -1: the weight may depend on the slot.
  int weight_signature = -1;
  bool dynamic = false;  // a dynamic slot (DynamicSlot = true)
  // ALLOW_PSLOT_PREEMPTION (policy-configuration-ep-ap, "pslot
  // preemption"): a partitionable slot's busy dynamic slots, lowest
  // CurrentRank first. They are not offered on their own.
  std::vector<std::size_t> children;
};

// What a claimed slot's ad says of its job's retirement: whether the job
// is still within MaxJobRetirementTime depends on the cycle's time, and is
// decided anew each cycle from these.
struct SlotClaimFacts {
  bool claimed = false;
  double retirement = 0;  // MaxJobRetirementTime
  bool has_start = false;
  double start = 0;  // JobStart
};

struct RememberedSlot;
class SlotMemo;

// What the slots a board left out of a cycle add to its pool (slot_board.h):
// slots nobody can be matched to this cycle — trimmed by the slot
// constraint, not offered, or running a job no request can take — are
// only counted and summed; the pool's totals are as if they were there.
struct PoolDigest {
  std::int64_t slots = 0;    // every slot left out
  std::int64_t trimmed = 0;  // of those, left out by the constraint or not offered
  std::int64_t idle = 0;     // of those, offered and idle: each a candidate of the cycle
  double weight = 0;         // SlotWeight of those that passed the constraint
  // Of those that passed it and are claimed: the weight each job's
  // submitter (PoolSlot::remote_submitter, as spelled) holds there.
  std::map<std::string, double> held;
  // The same by submitter lower-cased (PoolSlot::remote_key), its
  // spellings together: what a cycle asks of the few submitters with
  // requests, not of every one that holds slots (a simulated pool's
  // hundred, issue 29).
  std::map<std::string, double> held_by_key;
  std::map<std::string, double> concurrency;  // units of each limit their jobs use (lower-cased)
  std::int64_t claimed = 0;                   // how many of them have a job's submitter
};

// The slots a pool is built from: their ads (which must outlive it), in
// the cycle's order; what a board (slot_board.h) already knows of each
// (by ad: its description, or null to describe it; empty: nothing known);
// and what the slots it left out add.
struct PoolInput {
  std::vector<const classad::ClassAd*> ads;
  std::vector<RememberedSlot*> known;
  const PoolDigest* digest = nullptr;
  bool from_board = false;  // `known` is a board's (however empty)
  // The board left its bundles of busy slots out whole, not one slot of
  // each (SlotBoard::cycle_slots): a cycle that reads them is run again
  // with them.
  bool busy_left_out = false;
  // By ad (or empty: none): counted and summed in the digest already (one
  // slot of a board's bundle), so not again.
  std::vector<unsigned char> in_digest;
  // Or null: the slots of an earlier pool, whose storage (strings and
  // vectors) the pool reuses and gives back when destroyed (a board's:
  // from cycle to cycle most slots land where they were, and copying a
  // remembered description then allocates nothing).
  std::vector<PoolSlot>* recycle = nullptr;
};
// The input of a cycle over `slots` (which must outlive it), nothing known.
PoolInput pool_input(const std::vector<classad::ClassAd>& slots);

// What one slot ad says of itself (phase 1), or false when
// NEGOTIATOR_SLOT_CONSTRAINT leaves it out: what depends on the ad alone
// (and the policy's slot constraint and SlotWeight use), so that it may be
// kept while the ad is unchanged (slot_memo.h, slot_board.h). `i` is its
// place in the cycle's slots (its name when it has none, and
// PoolSlot::input). An evaluation that reads the clock, the random source
// or the user maps says so through env.outside_read.
bool describe_slot(PoolSlot& s, SlotClaimFacts& facts, const classad::ClassAd& ad, std::size_t i,
                   const NegotiatorPolicy& policy, const classad::EvalEnv& env);
// What a described slot is this cycle: its running submitter's group (the
// accountant's), whether its job is within MaxJobRetirementTime at `now`,
// whether the cycle offers it and whether a request can take it
// (`priority_preemption`: NegotiatorPolicy::priority_preemption_possible()).
void settle_slot(PoolSlot& s, const SlotClaimFacts& facts, const NegotiatorPolicy& policy,
                 const accounting::Accountant& accountant, std::int64_t now, bool priority_preemption);

class SlotPool {
 public:
  // `slots` must outlive the pool. The slots are described on up to
  // `threads` threads (the same pool whatever the number). With a `memo`
  // (slot_memo.h), an ad described in an earlier cycle and unchanged since
  // is not described again.
  SlotPool(const std::vector<classad::ClassAd>& slots, const NegotiatorPolicy& policy,
           const accounting::Accountant& accountant, const classad::EvalEnv& env, Threads threads = {},
           SlotMemo* memo = nullptr);
  // The same from `input`: its known descriptions are taken as they are
  // (a `memo` is then not asked: the board remembers), and its digest is
  // added to the totals.
  SlotPool(const PoolInput& input, const NegotiatorPolicy& policy, const accounting::Accountant& accountant,
           const classad::EvalEnv& env, Threads threads = {}, SlotMemo* memo = nullptr);
  ~SlotPool();
  SlotPool(const SlotPool&) = delete;
  SlotPool& operator=(const SlotPool&) = delete;
  // How many slots were described anew (not found in the memo).
  std::int64_t described() const { return described_; }
  // What the memo remembers of slot `i`'s ad, or null (no memo, an ad not
  // remembered, or an owned copy made this cycle).
  RememberedSlot* remembered(std::size_t i) const {
    return i < remembered_.size() ? remembered_[i] : nullptr;
  }

  // Adds the Remote* attributes to the busy slots (and Slot<N>_RemoteUserPrio
  // to every slot of a machine with a busy slot N) where `reads` says an
  // expression may read them (remote_attributes.h); every busy slot's
  // remote_eup is set. `groups` may be null (no GROUP_NAMES); its quotas
  // must be assigned. Called again with more reads, it adds what the
  // first call left out. On up to `threads` threads (the same annotations
  // whatever the number).
  void annotate(const accounting::Accountant& accountant, const accounting::GroupTree* groups,
                RemoteReads reads = RemoteReads::all(), Threads threads = {});
  // Some busy slot's annotations were left out (annotate() was not asked
  // for every kind).
  bool annotations_left_out() const { return (has_busy_ || digest_claimed_) && !complete_; }
  // How many slot ads carry annotations (copies made for them).
  std::size_t annotated_ads() const { return owned_.size(); }
  // PoolInput::busy_left_out.
  bool busy_left_out() const { return busy_left_out_; }

  std::vector<PoolSlot>& slots() { return slots_; }
  const std::vector<PoolSlot>& slots() const { return slots_; }
  // How many weight signatures the slots have (PoolSlot::weight_signature).
  int weight_signatures() const { return static_cast<int>(signature_consumption_.size()); }
  // Whether the slots of weight signature `s` split by a consumption policy.
  bool signature_consumption(int s) const { return signature_consumption_[static_cast<std::size_t>(s)] != 0; }
  std::int64_t total_slots() const { return total_; }      // before NEGOTIATOR_SLOT_CONSTRAINT
  std::int64_t trimmed_slots() const { return trimmed_; }  // left out by the constraint or as unusable
  double total_weight() const { return total_weight_; }  // SlotWeight of the slots that passed the constraint
  // Weighted use of the busy slots (the digest's too) by submitter
  // (lower-cased), and by group (as the accountant names them).
  double usage(const std::string& key) const;
  double group_usage(const std::string& group) const;
  const ConcurrencyUsage& concurrency() const { return concurrency_; }

  // Frees the annotated copies of the slot ads on `threads`; the pool
  // must not be used after, but to be destroyed.
  void release(Threads threads);
  // An owned, modifiable copy of slot `i`'s ad (partitionable slots whose
  // resources a match consumes).
  classad::ClassAd& own(std::size_t i);

 private:
  void adopt_dynamic_slots();
  void add_digest(const PoolDigest& digest);

  std::vector<PoolSlot> slots_;
  std::vector<PoolSlot>* recycle_ = nullptr;  // PoolInput::recycle
  std::vector<RememberedSlot*> remembered_;   // by slot
  std::int64_t described_ = 0;
  std::deque<classad::ClassAd> owned_;
  std::vector<classad::ClassAd*> copies_;  // by slot: its owned copy, or null
  std::vector<unsigned char> annotated_;   // by slot: its Remote* attributes added
  bool machine_done_ = false;              // Slot<N>_RemoteUserPrio added
  bool complete_ = false, has_busy_ = false;
  bool digest_claimed_ = false;  // slots left out (PoolDigest) have a job's submitter
  bool busy_left_out_ = false;
  std::int64_t total_ = 0, trimmed_ = 0;
  std::vector<unsigned char> signature_consumption_;  // by weight signature
  double total_weight_ = 0;
  // Of the slots given; the digest's are added when asked for (usage(),
  // group_usage()).
  std::map<std::string, double> usage_, group_usage_;
  const PoolDigest* digest_ = nullptr;
  const accounting::Accountant* accountant_ = nullptr;
  mutable std::optional<std::map<std::string, double>> digest_groups_;  // the digest's by group, once asked
  ConcurrencyUsage concurrency_;
};

// Whether attribute `name` is a Consumption<R> expression of a
// partitionable slot's consumption policy.
bool is_consumption_attribute(std::string_view name);

// SlotWeight of `ad` (its SlotWeight attribute, else Cpus, else 1).
double slot_weight(const classad::ClassAd& ad, const classad::EvalEnv& env);
// The accounting principal of the job running on a slot: AccountingGroup,
// else RemoteUser, else RemoteOwner; empty when none.
std::string remote_submitter(const classad::ClassAd& ad);

}  // namespace cara::negotiation
