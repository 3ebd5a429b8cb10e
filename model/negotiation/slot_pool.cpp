#include "model/negotiation/slot_pool.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <unordered_map>

#include "model/accounting/accountant.h"
#include "model/accounting/group_tree.h"
#include "model/classad/eval.h"
#include "model/classad/match.h"
#include "model/classad/references.h"
#include "model/classad/symbol.h"
#include "model/common/parallel.h"
#include "model/common/text.h"
#include "model/negotiation/ad_layer.h"
#include "model/negotiation/carved_weight.h"
#include "model/negotiation/slot_memo.h"
#include "model/schedd/job_status.h"

namespace cara::negotiation {
namespace {

using schedd::string_attr;

double number_attr(const classad::ClassAd& ad, const char* name, double fallback,
                   const classad::EvalEnv& env = {}) {
  double d = 0;
  return classad::evaluate_attr(ad, name, nullptr, env).number(d) ? d : fallback;
}

bool true_attr(const classad::ClassAd& ad, const char* name) {
  bool b = false;
  return classad::evaluate_attr(ad, name).bool_equiv(b) && b;
}

// The string attributes every slot ad is read for, every cycle: by symbol,
// as views of the ad's text (no interning, no copy).
struct SlotStrings {
  classad::Symbol name = classad::intern("Name"), machine = classad::intern("Machine"),
                  state = classad::intern("State"), activity = classad::intern("Activity");
  classad::Symbol remote[3] = {classad::intern("AccountingGroup"), classad::intern("RemoteUser"),
                               classad::intern("RemoteOwner")};
};
const SlotStrings& slot_strings() {
  static const SlotStrings s;
  return s;
}

std::string_view remote_submitter(const classad::ClassAd& ad, std::string& scratch) {
  for (classad::Symbol attr : slot_strings().remote)
    if (std::string_view s = string_attr(ad, attr, scratch); !s.empty()) return s;
  return {};
}

}  // namespace

bool is_consumption_attribute(std::string_view name) {
  constexpr std::string_view kPrefix = "consumption";
  return name.size() > kPrefix.size() && classad::iequals(name.substr(0, kPrefix.size()), kPrefix);
}

double slot_weight(const classad::ClassAd& ad, const classad::EvalEnv& env) {
  double w = 0;
  if (classad::evaluate_attr(ad, "SlotWeight", nullptr, env).number(w) && w >= 0) return w;
  return number_attr(ad, "Cpus", 1, env);
}

std::string remote_submitter(const classad::ClassAd& ad) {
  std::string scratch;
  return std::string(remote_submitter(ad, scratch));
}

// Reads only the ad, the policy and the environment, so slots are
// described in parallel; what depends on the slots before it (weight
// signatures, sums) is done in input order by the caller, and what depends
// on the cycle by settle_slot().
bool describe_slot(PoolSlot& s, SlotClaimFacts& facts, const classad::ClassAd& ad, std::size_t i,
                   const NegotiatorPolicy& policy, const classad::EvalEnv& env) {
  s = PoolSlot{};  // it may hold an earlier cycle's slot (PoolInput::recycle)
  if (!policy.negotiates_for(ad, env)) return false;
  s.ad = &ad;
  s.input = i;
  const SlotStrings& names = slot_strings();
  std::string scratch;
  s.name = string_attr(ad, names.name, scratch);
  s.machine = string_attr(ad, names.machine, scratch);
  if (s.name.empty()) s.name = "slot#" + std::to_string(i + 1);
  s.weight = policy.use_slot_weights ? slot_weight(ad, env) : 1;
  s.partitionable = true_attr(ad, "PartitionableSlot");
  if (const classad::Attribute* rank = ad.find("Rank"); rank == nullptr) {
    s.rank_constant = true;
  } else if (rank->is_literal()) {
    s.rank_constant = rank->literal().number(s.rank_value);
  } else if (rank->expr) {
    // A Rank that reads nothing of the job (KFlops / 1e6, a site's
    // preference among its own slots) ranks every job alike: its value
    // against no job is the one every job gets.
    classad::References refs;
    classad::collect_references(*rank->expr, &ad, refs);
    if (refs.external.empty()) {
      static const classad::ClassAd kNoJob;
      s.rank_constant = true;
      s.rank_value = classad::rank(ad, kNoJob, env);
    }
  }
  if (s.partitionable) {
    read_consumption(s, ad);
    s.consumption_policy = s.consumption_exprs != nullptr;
    classify_carved_weight(s);
  }
  // State and Activity as the ad spells them, compared without case.
  std::string state_text, activity_text;
  const std::string_view state = string_attr(ad, names.state, state_text);
  const std::string_view activity = string_attr(ad, names.activity, activity_text);
  auto is = [](std::string_view v, std::string_view word) { return classad::iequals(v, word); };
  const bool claimed = is(state, "claimed");
  if (state.empty() || is(state, "unclaimed") || is(state, "owner") || is(state, "backfill")) {
    s.use = SlotUse::Idle;
  } else if (claimed && is(activity, "idle")) {
    s.use = SlotUse::ClaimedIdle;
  } else if (claimed && (is(activity, "busy") || is(activity, "suspended"))) {
    s.use = SlotUse::Busy;
  } else {
    s.use = SlotUse::Unavailable;  // Matched, Preempting, Drained, retiring
  }
  if (s.partitionable && s.use != SlotUse::Unavailable) s.use = SlotUse::Idle;
  facts = SlotClaimFacts{};
  if (claimed) {
    facts.claimed = true;
    s.remote_submitter = remote_submitter(ad, scratch);
    s.remote_key = to_lower(s.remote_submitter);
    s.current_rank = number_attr(ad, "CurrentRank", 0, env);
    if (auto limits = parse_concurrency_limits(string_attr(ad, "ConcurrencyLimits"))) {
      s.running_limits = std::move(*limits);
    }
    facts.retirement = number_attr(ad, "MaxJobRetirementTime", 0, env);
    double start = 0;
    facts.has_start = classad::evaluate_attr(ad, "JobStart", nullptr, env).number(start);
    facts.start = start;
  }
  s.dynamic = true_attr(ad, "DynamicSlot");
  return true;
}

void settle_slot(PoolSlot& s, const SlotClaimFacts& facts, const NegotiatorPolicy& policy,
                 const accounting::Accountant& accountant, std::int64_t now, bool priority_preemption) {
  if (facts.claimed) {
    s.remote_group = accountant.group_of(s.remote_submitter);
    // NEGOTIATOR_CONSIDER_EARLY_PREEMPTION false: a job still within
    // its MaxJobRetirementTime is not matched away. No JobStart: it
    // started now.
    const double start = facts.has_start ? facts.start : static_cast<double>(now);
    s.in_retirement = facts.retirement > 0 && static_cast<double>(now) - start < facts.retirement;
    s.retiring = !policy.consider_early_preemption && s.in_retirement;
  }
  s.offered = s.use == SlotUse::Idle || (s.use == SlotUse::Busy && policy.consider_preemption);
  s.untakeable =
      s.use == SlotUse::Busy && s.rank_constant && !(s.rank_value > s.current_rank) && !priority_preemption;
}

PoolInput pool_input(const std::vector<classad::ClassAd>& slots) {
  PoolInput in;
  in.ads.reserve(slots.size());
  for (const classad::ClassAd& s : slots) in.ads.push_back(&s);
  return in;
}

SlotPool::SlotPool(const std::vector<classad::ClassAd>& slots, const NegotiatorPolicy& policy,
                   const accounting::Accountant& accountant, const classad::EvalEnv& env, Threads threads,
                   SlotMemo* memo)
    : SlotPool(pool_input(slots), policy, accountant, env, threads, memo) {}

SlotPool::SlotPool(const PoolInput& input, const NegotiatorPolicy& policy,
                   const accounting::Accountant& accountant, const classad::EvalEnv& env, Threads threads,
                   SlotMemo* memo) {
  const std::vector<const classad::ClassAd*>& slots = input.ads;
  // A board's descriptions (slot_board.h): the memo is not asked.
  const bool from_board = input.from_board;
  if (from_board) memo = nullptr;
  total_ = static_cast<std::int64_t>(slots.size());
  if (input.recycle != nullptr) {
    recycle_ = input.recycle;
    slots_.swap(*recycle_);
  }
  const bool priority_preemption = policy.priority_preemption_possible();
  if (memo != nullptr) memo->begin(policy);
  // Described in place: one array of slots per cycle, written once (a
  // second one, of optional slots moved into this one, cost a simulated
  // cycle a tenth of its time in fresh pages and copies).
  slots_.resize(slots.size());
  std::vector<unsigned char> kept(slots.size(), 0);
  // By input slot: the memo's entry of its ad (found, or to be made when
  // its description read nothing outside the ad) or the board's, and its
  // claim facts.
  std::vector<RememberedSlot*> found(memo != nullptr ? slots.size() : 0, nullptr);
  if (from_board) found = input.known;
  std::vector<unsigned char> outside(found.size(), 0);
  std::vector<SlotClaimFacts> facts(slots.size());
  parallel_chunks(slots.size(), threads.count, threads.min_slots, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      if (memo != nullptr || from_board) {
        if (RememberedSlot* e = from_board ? found[i] : memo->find(*slots[i])) {
          found[i] = e;
          kept[i] = e->kept ? 1 : 0;
          if (!e->kept) continue;
          PoolSlot& s = slots_[i];
          s = e->slot;
          s.ad = slots[i];
          s.input = i;
          facts[i] = e->claim;
          settle_slot(s, facts[i], policy, accountant, env.now, priority_preemption);
          continue;
        }
      }
      // The ads are cold (some 5 kB each, 30,000 of them): the lookup
      // index of one a few ahead is on its way while this one is read.
      if (i + 4 < end) slots[i + 4]->prefetch_index();
      bool read_outside = false;
      classad::EvalEnv probe = env;
      probe.outside_read = &read_outside;
      kept[i] = describe_slot(slots_[i], facts[i], *slots[i], i, policy, probe) ? 1 : 0;
      if (!outside.empty()) outside[i] = read_outside ? 1 : 0;
      if (kept[i] != 0) settle_slot(slots_[i], facts[i], policy, accountant, env.now, priority_preemption);
    }
  });
  WeightSignatures signatures;
  std::size_t out = 0;
  if (memo != nullptr || from_board) remembered_.assign(slots.size(), nullptr);
  for (std::size_t i = 0; i < slots.size(); ++i) {
    RememberedSlot* e = nullptr;
    if (from_board) {
      e = found[i];
      if (e == nullptr) ++described_;
    } else if (memo != nullptr) {
      e = found[i];
      if (e != nullptr) {
        if (!memo->see(*e)) e = nullptr;  // the same ad twice: its key is not shared
      } else {
        ++described_;
        // Not when an evaluation read the outside world, nor for an ad
        // given twice (made by its first copy this cycle).
        if (outside[i] == 0 && SlotMemo::rememberable(*slots[i]) && memo->find(*slots[i]) == nullptr) {
          e = &memo->remember(*slots[i]);
          e->kept = kept[i] != 0;
          if (e->kept) {
            e->slot = slots_[i];
            e->claim = facts[i];
          }
        }
      }
    } else {
      ++described_;
    }
    if (kept[i] == 0) {
      ++trimmed_;
      continue;
    }
    if (!remembered_.empty()) remembered_[out] = e;
    if (out != i) slots_[out] = std::move(slots_[i]);
    PoolSlot& s = slots_[out++];
    const bool summed = !input.in_digest.empty() && input.in_digest[i] != 0;
    s.bundle_slot = summed;
    if (summed) --total_;
    if (!summed) total_weight_ += s.weight;
    if (s.partitionable && policy.use_slot_weights) {
      if (e == nullptr) {
        s.weight_signature = signatures.of(s);
      } else {
        if (!e->signature_known) {
          e->signature = signatures.key_of(s);
          e->signature_known = true;
        }
        s.weight_signature = e->signature ? signatures.number(*e->signature, s.consumption_policy) : -1;
      }
    }
    if (summed) continue;
    if (!s.running_limits.empty()) concurrency_.add(s.running_limits);
    if (!s.remote_submitter.empty()) {
      usage_[s.remote_key] += s.weight;
      group_usage_[s.remote_group] += s.weight;
    }
  }
  slots_.resize(out);
  if (!remembered_.empty()) remembered_.resize(out);
  if (memo != nullptr) memo->end_pool();
  accountant_ = &accountant;
  if (input.digest != nullptr) add_digest(*input.digest);
  busy_left_out_ = input.busy_left_out;
  signature_consumption_ = signatures.consumption();
  if (policy.allow_pslot_preemption && policy.consider_preemption) adopt_dynamic_slots();
  for (const PoolSlot& s : slots_)
    if (!s.offered) ++trimmed_;
}

SlotPool::~SlotPool() {
  if (recycle_ != nullptr) recycle_->swap(slots_);
}

void SlotPool::add_digest(const PoolDigest& d) {
  // After the slots given, in the order a board keeps (slot_board.h): sums
  // of SlotWeights are exact while the weights are whole numbers, as Cpus
  // are, so the totals are those of the slots one by one. What each
  // submitter and group holds is added when asked for.
  total_ += d.slots;
  trimmed_ += d.trimmed;
  total_weight_ += d.weight;
  digest_ = &d;
  std::vector<LimitUse> limits;
  for (const auto& [name, units] : d.concurrency) limits.push_back(LimitUse{name, units});
  if (!limits.empty()) concurrency_.add(limits);
  digest_claimed_ = d.claimed > 0;
}

double SlotPool::usage(const std::string& key) const {
  auto own = usage_.find(key);
  double u = own == usage_.end() ? 0 : own->second;
  if (digest_ != nullptr)
    if (auto held = digest_->held_by_key.find(key); held != digest_->held_by_key.end()) u += held->second;
  return u;
}

double SlotPool::group_usage(const std::string& group) const {
  auto own = group_usage_.find(group);
  double u = own == group_usage_.end() ? 0 : own->second;
  if (digest_ == nullptr || digest_->held.empty()) return u;
  if (!digest_groups_) {
    digest_groups_.emplace();
    for (const auto& [submitter, weight] : digest_->held)
      (*digest_groups_)[accountant_->group_of(submitter)] += weight;
  }
  if (auto held = digest_groups_->find(group); held != digest_groups_->end()) u += held->second;
  return u;
}

void SlotPool::adopt_dynamic_slots() {
  // A dynamic slot belongs to the partitionable slot of its machine with
  // the same SlotID (slot1_3@host is carved from slot1@host).
  auto parent_key = [](const PoolSlot& s) {
    double id = 0;
    if (s.machine.empty() || !classad::evaluate_attr(*s.ad, "SlotID").number(id)) return std::string();
    return s.machine + "#" + std::to_string(static_cast<long long>(id));
  };
  std::unordered_map<std::string, std::size_t> parents;
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    const PoolSlot& s = slots_[i];
    // A consumption policy already splits the slot its own way.
    if (!s.partitionable || s.consumption_policy || s.use != SlotUse::Idle) continue;
    if (std::string key = parent_key(s); !key.empty()) parents.emplace(std::move(key), i);
  }
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    PoolSlot& s = slots_[i];
    if (!s.dynamic || s.use != SlotUse::Busy) continue;
    auto it = parents.find(parent_key(s));
    if (it == parents.end()) continue;
    // "the negotiator will not preempt dynamic slots directly"
    s.offered = false;
    slots_[it->second].children.push_back(i);
  }
  for (const auto& entry : parents) {
    std::vector<std::size_t>& kids = slots_[entry.second].children;
    std::stable_sort(kids.begin(), kids.end(), [this](std::size_t a, std::size_t b) {
      return slots_[a].current_rank < slots_[b].current_rank;
    });
  }
}

void SlotPool::release(Threads threads) {
  parallel_chunks(owned_.size(), threads.count, threads.min_slots, [&](std::size_t begin, std::size_t end) {
    for (std::size_t k = begin; k < end; ++k) owned_[k] = classad::ClassAd();
  });
}

classad::ClassAd& SlotPool::own(std::size_t i) {
  if (copies_.size() < slots_.size()) copies_.resize(slots_.size(), nullptr);
  if (copies_[i] == nullptr) {
    // The copy is this cycle's: what the memo keeps of the input ad is
    // not its.
    if (i < remembered_.size()) remembered_[i] = nullptr;
    owned_.push_back(ad_layer(*slots_[i].ad));
    copies_[i] = &owned_.back();
    slots_[i].ad = copies_[i];
  }
  return *copies_[i];
}

void SlotPool::annotate(const accounting::Accountant& accountant, const accounting::GroupTree* groups,
                        RemoteReads reads, Threads threads) {
  // Which busy slots' ads are annotated: those an expression of the
  // cycle may read them in (remote_attributes.h). A busy dynamic slot a
  // partitionable one may give up (ALLOW_PSLOT_PREEMPTION) is read through
  // its parent, whose key does not follow the child's own expressions:
  // always annotated. A busy slot not offered (no preemption this cycle)
  // is read by nothing.
  annotated_.resize(slots_.size(), 0);
  std::vector<unsigned char> child(slots_.size(), 0);
  for (const PoolSlot& s : slots_)
    for (std::size_t k : s.children) child[k] = 1;
  auto wanted = [&](std::size_t i) {
    const PoolSlot& s = slots_[i];
    if (child[i]) return true;
    if (!s.offered) return false;
    return s.untakeable ? reads.untakeable : reads.takeable;
  };
  // The busy slots' owned copies are made here, in slot order: own() grows
  // containers shared by all slots. Each thread then writes only its own
  // slots' copies.
  std::vector<std::size_t> busy, annotated;
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].remote_submitter.empty()) continue;
    busy.push_back(i);
    if (annotated_[i] != 0 || !wanted(i)) continue;
    own(i);
    annotated_[i] = 1;
    annotated.push_back(i);
  }
  // What a busy slot is told of the submitter running there depends on
  // the submitter alone: one literal of each per submitter, shared by all
  // of its slots (a site's pool runs some 500 submitters on 30,000 slots).
  // Every busy slot learns its submitter's EUP: its class and the
  // preemption rules read it whether or not its ad is annotated.
  struct Remote {
    double eup = 0;
    classad::ExprPtr prio, in_use, group, group_quota, group_in_use;
  };
  std::unordered_map<std::string, Remote> remotes;
  static const classad::ExprPtr kFalse = classad::make_literal_expr(false);
  for (std::size_t i : busy) {
    PoolSlot& s = slots_[i];
    auto [it, fresh] = remotes.try_emplace(s.remote_submitter);
    Remote& r = it->second;
    if (fresh) r.eup = accountant.effective_priority(s.remote_submitter);
    s.remote_eup = r.eup;
  }
  for (std::size_t i : annotated) {
    Remote& r = remotes.at(slots_[i].remote_submitter);
    if (r.prio) continue;
    const PoolSlot& s = slots_[i];
    r.prio = classad::make_literal_expr(r.eup);
    r.in_use = classad::make_literal_expr(usage(s.remote_key));
    r.group = classad::make_literal_expr(std::string_view(s.remote_group));
    const accounting::GroupNode* g = groups != nullptr ? groups->find(s.remote_group) : nullptr;
    if (g != nullptr && g->parent >= 0) {
      r.group_quota = classad::make_literal_expr(g->quota);
      r.group_in_use = classad::make_literal_expr(group_usage(s.remote_group));
    }
  }
  parallel_chunks(annotated.size(), threads.count, threads.min_slots,
                  [&](std::size_t begin, std::size_t end) {
                    for (std::size_t k = begin; k < end; ++k) {
                      const PoolSlot& s = slots_[annotated[k]];
                      const Remote& r = remotes.at(s.remote_submitter);
                      classad::ClassAd& ad = *copies_[annotated[k]];
                      ad.insert("RemoteUserPrio", r.prio);
                      ad.insert("RemoteUserResourcesInUse", r.in_use);
                      ad.insert("RemoteGroup", r.group);
                      if (ad.find("RemoteNegotiatingGroup") == nullptr)
                        ad.insert("RemoteNegotiatingGroup", r.group);
                      if (ad.find("RemoteAutoregroup") == nullptr) ad.insert("RemoteAutoregroup", kFalse);
                      if (r.group_quota) {
                        ad.insert("RemoteGroupQuota", r.group_quota);
                        ad.insert("RemoteGroupResourcesInUse", r.group_in_use);
                      }
                    }
                  });
  complete_ = reads.takeable && reads.untakeable && reads.machine;
  has_busy_ = !busy.empty();
  if (!reads.machine || machine_done_) return;
  machine_done_ = true;
  // By busy slot: its SlotID, for the Slot<N>_RemoteUserPrio its machine's
  // slots get (none without a machine or a SlotID).
  std::vector<std::optional<long long>> slot_ids(busy.size());
  parallel_chunks(busy.size(), threads.count, threads.min_slots, [&](std::size_t begin, std::size_t end) {
    for (std::size_t k = begin; k < end; ++k) {
      const PoolSlot& s = slots_[busy[k]];
      double id = 0;
      if (!s.machine.empty() && classad::evaluate_attr(*s.ad, "SlotID").number(id))
        slot_ids[k] = static_cast<long long>(id);
    }
  });
  // By machine: the Slot<N>_RemoteUserPrio attributes its slots get, each
  // one literal shared by all of them.
  std::unordered_map<std::string, std::vector<std::pair<std::string, classad::ExprPtr>>> per_machine;
  for (std::size_t k = 0; k < busy.size(); ++k) {
    if (!slot_ids[k]) continue;
    const PoolSlot& s = slots_[busy[k]];
    per_machine[s.machine].emplace_back("Slot" + std::to_string(*slot_ids[k]) + "_RemoteUserPrio",
                                        classad::make_literal_expr(s.remote_eup));
  }
  if (per_machine.empty()) return;
  std::vector<std::pair<std::size_t, const std::vector<std::pair<std::string, classad::ExprPtr>>*>> receivers;
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].machine.empty()) continue;
    auto it = per_machine.find(slots_[i].machine);
    if (it == per_machine.end()) continue;
    own(i);
    receivers.emplace_back(i, &it->second);
  }
  parallel_chunks(receivers.size(), threads.count, threads.min_slots,
                  [&](std::size_t begin, std::size_t end) {
                    for (std::size_t k = begin; k < end; ++k) {
                      classad::ClassAd& ad = *copies_[receivers[k].first];
                      for (const auto& [attr, prio] : *receivers[k].second) ad.insert(attr, prio);
                    }
                  });
}

}  // namespace cara::negotiation
