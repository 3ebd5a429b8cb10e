#include "model/negotiation/negotiation_cycle.h"

#include <algorithm>
#include <limits>
#include <memory>

#include "model/accounting/accountant.h"
#include "model/classad/eval.h"
#include "model/common/text.h"
#include "model/negotiation/candidate_queue.h"
#include "model/negotiation/class_names.h"
#include "model/negotiation/cycle_state.h"
#include "model/negotiation/pie.h"
#include "model/negotiation/rank_views.h"
#include "model/negotiation/remote_attributes.h"
#include "model/negotiation/slot_assessment.h"
#include "model/negotiation/slot_classes.h"
#include "model/negotiation/slot_memo.h"
#include "model/negotiation/slot_pool.h"
#include "model/negotiation/submitter_attributes.h"

namespace cara::negotiation {
namespace {

constexpr double kEpsilon = 1e-9;
constexpr double kUnlimited = std::numeric_limits<double>::infinity();

// How a negotiation with one request ended.
enum class Stop { Done, Limit, Rejected };

class Cycle {
 public:
  Cycle(const NegotiatorPolicy& policy, const accounting::Accountant& accountant,
        std::optional<accounting::GroupTree>& groups, const classad::EvalEnv& env,
        const std::vector<SubmitterRequests>& input, CycleResult& result, bool prefilter)
      : prefilter_(prefilter),
        policy_(policy),
        accountant_(accountant),
        groups_(groups),
        env_(env),
        input_(input),
        result_(result) {}

  void run(SlotPool& pool, SlotClasses& classes, RankViews& ranks);
  // Whether the run read the busy slots no request can take, or would have
  // read those a board left out (a rejection's reason, or no other slot
  // left to go on with).
  bool read_busy() const { return read_busy_; }

 private:
  bool grouped() const { return groups_.has_value() && groups_->nodes().size() > 1; }
  double group_left(int node) const;
  std::string held_back(const SubmitterState& s) const;
  double pending_demand(const SubmitterState& s) const;
  bool negotiate_pie(std::vector<SubmitterState*> members, double pie, int node, bool autoregroup);
  std::int64_t negotiate_submitter(SubmitterState& s, double budget, int node, bool autoregroup, bool one);
  Stop match_request(SubmitterState& s, std::size_t r, double& budget, int node, bool autoregroup,
                     std::int64_t want, std::int64_t& matched);
  classad::ClassAd candidate_job(const SubmitterState& s, std::size_t r, int node, bool autoregroup) const;
  // Slots to match, or busy ones no request can take: a request that
  // matches only those is still told why (insufficient priority, ...).
  bool slots_left() {
    if (!classes_->live().empty()) return true;
    read_busy_ |= !classes_->untakeable().empty() || pool_->busy_left_out();
    return !classes_->untakeable().empty();
  }

  bool prefilter_;
  const NegotiatorPolicy& policy_;
  const accounting::Accountant& accountant_;
  std::optional<accounting::GroupTree>& groups_;
  const classad::EvalEnv& env_;
  const std::vector<SubmitterRequests>& input_;
  CycleResult& result_;
  SlotPool* pool_ = nullptr;
  SlotClasses* classes_ = nullptr;
  RankViews* ranks_ = nullptr;
  bool slots_read_submitter_ = false;  // a slot expression reads a Submitter* attribute
  std::vector<SubmitterState> subs_;
  std::vector<double> group_used_;  // by node: SlotWeight held, matches of this cycle included
  std::vector<int> group_turn_;     // by node: place in the first round's GROUP_SORT_EXPR order; -1: none
  std::vector<double> group_key_;   // by node: its GROUP_SORT_EXPR value in the first round
  ConcurrencyUsage concurrency_;
  std::int64_t attempts_ = 0;
  bool read_busy_ = false;
};

double Cycle::group_left(int node) const {
  if (!grouped() || node < 0) return kUnlimited;
  return groups_->nodes()[static_cast<std::size_t>(node)].allocated -
         group_used_[static_cast<std::size_t>(node)];
}

// A submitter with requests no spin tried: held back by its ceiling or by
// its group's quota (what was tried has its own reason).
std::string Cycle::held_back(const SubmitterState& s) const {
  bool untried = false;
  for (std::size_t r = 0; r < s.requests.size(); ++r) {
    const RequestState& rs = s.requests[r];
    untried |= !rs.rejected && rs.reason.empty() && rs.matched < input_[s.input].requests[r].count;
  }
  if (!untried) return {};
  if (s.ceiling && *s.ceiling - s.usage <= kEpsilon) return "submitter limit exceeded";
  if (group_left(s.node) <= kEpsilon) return "group quota exceeded";
  return {};
}

double Cycle::pending_demand(const SubmitterState& s) const {
  double d = 0;
  const SubmitterRequests& in = input_[s.input];
  for (std::size_t r = 0; r < s.requests.size(); ++r) {
    const RequestState& rs = s.requests[r];
    if (!rs.rejected) d += static_cast<double>(in.requests[r].count - rs.matched) * rs.job_weight;
  }
  return d;
}

classad::ClassAd Cycle::candidate_job(const SubmitterState& s, std::size_t r, int node,
                                      bool autoregroup) const {
  // The ephemeral Submitter* attributes (user-priorities-and-negotiation,
  // "Priorities in Negotiation and Preemption"), in the job's copy so that
  // slot and negotiator expressions see them through TARGET.
  classad::ClassAd job = *input_[s.input].requests[r].job;
  SubmitterAttributes a;
  a.user_prio = s.eup;
  a.resources_in_use = s.usage;
  a.group = s.group;
  a.negotiating_group = autoregroup ? std::string(accounting::kNoGroup) : s.group;
  a.autoregroup = autoregroup;
  if (grouped() && s.node > 0) {
    a.group_quota = groups_->nodes()[static_cast<std::size_t>(s.node)].quota;
    a.group_resources_in_use = group_used_[static_cast<std::size_t>(s.node)];
  }
  add_submitter_attributes(job, a);
  (void)node;
  return job;
}

Stop Cycle::match_request(SubmitterState& s, std::size_t r, double& budget, int node, bool autoregroup,
                          std::int64_t want, std::int64_t& matched) {
  const Request& request = input_[s.input].requests[r];
  RequestState& rs = s.requests[r];
  const classad::ClassAd job = candidate_job(s, r, node, autoregroup);
  const RequestContext ctx{&job, s.key, s.eup};
  const int group_node = autoregroup ? -1 : node;
  // The answers of earlier spins, while the Submitter* values the match
  // reads are the same (family_matches.h). Not for the plain algorithm.
  FamilyMatches* memo = nullptr;
  if (classes_->grouping()) {
    if (rs.reads_submitter < 0) rs.reads_submitter = slots_read_submitter_ || reads_submitter_attributes(job);
    std::vector<classad::Value> stamp;
    if (rs.reads_submitter == 1) stamp = submitter_attribute_values(job, env_);
    rs.matches.renew(std::move(stamp));
    memo = &rs.matches;
  }
  // HTCondor's matchmakingAlgorithm checks the match and the preemption
  // rules first and SubmitterLimitPermits last, per candidate: a slot the
  // request cannot afford is skipped, not a stop.
  auto affordable = [&](double w) {
    return w <= group_left(group_node) + kEpsilon && w <= budget + kEpsilon;
  };
  CandidateQueue queue(ctx, *pool_, *classes_, ranks_->for_job(job), policy_, env_, result_.stats, prefilter_,
                       memo);
  // And the answers of earlier cycles, for a job whose match reads no
  // Submitter* attribute (match_memo.h).
  if (memo != nullptr && rs.reads_submitter == 0 && classes_->memo() != nullptr)
    queue.keep_in(classes_->memo()->matches().job(*request.job, classes_->family_generation()));
  // The list holds what the limits allow now, however late it looks at a
  // family (the pool walk asks lazily); each candidate is checked against
  // what is left when it comes up.
  const double budget_now = budget, group_now = group_left(group_node);
  queue.fill(
      [budget_now, group_now](double w) { return w <= group_now + kEpsilon && w <= budget_now + kEpsilon; },
      affordable);

  std::string concurrency_reason;
  matched = 0;
  while (matched < want) {
    const std::optional<Candidate> candidate = queue.next();
    if (!candidate) break;
    const std::size_t index = candidate->slot;
    const PoolSlot& slot = pool_->slots()[index];
    const double w = queue.weight(slot);
    if (!affordable(w)) {
      queue.refused();
      continue;
    }
    auto limits = job_concurrency_limits(job, slot.ad, env_);
    if (!limits) {
      concurrency_reason = limits.error();
      queue.skipped();
      continue;
    }
    if (std::string over = concurrency_.exceeded(policy_.concurrency_limits, *limits); !over.empty()) {
      concurrency_reason = "concurrency limit " + over + " reached";
      queue.skipped();
      // Limits that name no slot attribute are the job's whatever the slot,
      // and only grow within a request: every later candidate exceeds them
      // too. What is left to know is whether the submitter limit would have
      // refused one first (a later spin tries the request again then).
      if (job.find("ConcurrencyLimitsExpr") == nullptr) queue.only_refusals();
      continue;
    }
    // A match.
    Match m;
    m.submitter = s.name;
    m.group = s.group;
    m.negotiating_group = autoregroup ? std::string(accounting::kNoGroup) : s.group;
    m.submitter_index = s.input;
    m.request = r;
    m.job = rs.matched;
    if (static_cast<std::size_t>(rs.matched) < request.job_ids.size())
      m.job_id = request.job_ids[static_cast<std::size_t>(rs.matched)];
    m.slot = slot.input;
    m.slot_name = slot.name;
    m.reason = candidate->assessment.reason;
    if (slot.use == SlotUse::Busy) m.preempts = slot.remote_submitter;
    for (std::size_t v : candidate->assessment.victims) {
      const PoolSlot& victim = pool_->slots()[v];
      if (!m.preempts) m.preempts = victim.remote_submitter;
      m.victims.push_back(victim.input);
      m.victim_names.push_back(victim.name);
    }
    m.weight = w;
    m.concurrency_limits = *limits;
    concurrency_.add(*limits);
    result_.matches.push_back(std::move(m));
    ++attempts_;
    ++rs.matched;
    ++matched;
    budget -= w;
    s.usage += w;
    s.matched_weight += w;
    ++s.matched;
    if (grouped() && s.node >= 0) group_used_[static_cast<std::size_t>(s.node)] += w;
    const int was = classes_->class_of(index);
    if (slot.consumption_policy) {
      // The partitionable slot gives the job its share and stays on offer
      // with the rest (a consumption policy lets it match again).
      give_share(*pool_, index, job, policy_.use_slot_weights, env_);
      const int moved = classes_->reclassify(index);
      ranks_->add_class(moved);  // at its place in the pool-wide order, for later requests
      ranks_->refresh(was);
      ranks_->refresh(moved);
      queue.took(moved);
    } else {
      classes_->take(index);
      ranks_->refresh(was);
      queue.took();
    }
  }
  if (matched == want) return Stop::Done;
  ++attempts_;
  // The reason, by HTCondor's ladder (matchmaker.cpp, the rejection after
  // matchmakingAlgorithm): a concurrency limit, PREEMPTION_REQUIREMENTS,
  // insufficient priority, then the submitter limit — a reason only when
  // it refused a slot the job matched —, else no match.
  // (A concurrency limit comes first: the slots' reasons are not asked.)
  const Unfit unfit = concurrency_reason.empty() ? queue.rejection_reason() : Unfit::None;
  read_busy_ |= queue.read_untakeable();
  const bool refused = queue.limit_refused();
  if (!concurrency_reason.empty()) {
    rs.reason = concurrency_reason;
  } else if (unfit >= Unfit::InsufficientPriority || !refused) {
    rs.reason = unfit_reason(unfit);
  } else {
    // The tighter of the two limits refused it (both shrink alike as the
    // request matches).
    rs.reason = group_left(group_node) < budget ? "group quota exceeded" : "submitter limit exceeded";
  }
  // A limit may give way in a later spin (a larger slice, surplus): the
  // request is tried again then. Otherwise it is done for the cycle.
  if (refused) return Stop::Limit;
  rs.rejected = true;
  return Stop::Rejected;
}

std::int64_t Cycle::negotiate_submitter(SubmitterState& s, double budget, int node, bool autoregroup,
                                        bool one) {
  std::int64_t total = 0;
  const SubmitterRequests& in = input_[s.input];
  const int group_node = autoregroup ? -1 : node;
  // The first request a limit stopped this spin: the next spin resumes
  // there, and the requests after it are tried meanwhile (HTCondor goes
  // on to the submitter's next request after a rejection).
  std::optional<std::size_t> resume;
  auto pause = [&](std::size_t r) {
    s.cursor = resume.value_or(r);
    return total;
  };
  for (std::size_t r = s.cursor; r < s.requests.size(); ++r) {
    if (!slots_left()) return pause(r);
    RequestState& rs = s.requests[r];
    const std::int64_t left = in.requests[r].count - rs.matched;
    if (rs.rejected || left <= 0) continue;
    // The submitter limit or the group's quota used up: done for this
    // spin ("Reached submitter resource limit ... stopping").
    if (budget <= kEpsilon || group_left(group_node) <= kEpsilon) return pause(r);
    std::int64_t matched = 0;
    const Stop stop = match_request(s, r, budget, node, autoregroup, one ? 1 : left, matched);
    total += matched;
    if (stop == Stop::Done) rs.reason.clear();
    if (one && matched > 0) return pause(matched < left ? r : r + 1);
    if (stop == Stop::Limit) {
      if (!resume) resume = r;
      // Every slot weighs the same and none is taken by preemption: what
      // the limit refused here it refuses to every later request too.
      if (!policy_.consider_preemption && !policy_.use_slot_weights) return pause(r);
    }
  }
  if (resume) return pause(*resume);
  s.exhausted = true;
  return total;
}

bool Cycle::negotiate_pie(std::vector<SubmitterState*> members, double pie, int node, bool autoregroup) {
  members.erase(
      std::remove_if(members.begin(), members.end(), [](const SubmitterState* s) { return s->exhausted; }),
      members.end());
  if (members.empty() || !slots_left()) return false;
  ++result_.stats.pies;
  std::stable_sort(members.begin(), members.end(), [](const SubmitterState* a, const SubmitterState* b) {
    return a->eup != b->eup ? a->eup < b->eup : a->key < b->key;
  });
  bool any = false;
  auto ceiling_room = [](const SubmitterState& s) { return s.ceiling ? *s.ceiling - s.usage : kUnlimited; };
  // Below-floor submitters first, in priority order.
  for (SubmitterState* s : members) {
    if (!s->floor || s->usage >= *s->floor - kEpsilon || s->exhausted) continue;
    any |= negotiate_submitter(*s, std::min(*s->floor - s->usage, ceiling_room(*s)), node, autoregroup,
                               false) > 0;
  }
  for (;;) {
    std::vector<SubmitterState*> active;
    for (SubmitterState* s : members)
      if (!s->exhausted) active.push_back(s);
    if (active.empty() || !slots_left() || group_left(autoregroup ? -1 : node) <= kEpsilon) break;
    ++result_.stats.pie_spins;
    std::vector<double> eups;
    for (const SubmitterState* s : active) eups.push_back(s->eup);
    const std::vector<double> slices = pie_slices(pie, eups);
    std::vector<double> limits(active.size());
    std::int64_t made = 0;
    for (std::size_t i = 0; i < active.size(); ++i) {
      SubmitterState& s = *active[i];
      s.pie_slice = slices[i];
      limits[i] = std::min(slices[i] - s.usage, ceiling_room(s));
      if (limits[i] > kEpsilon) made += negotiate_submitter(s, limits[i], node, autoregroup, false);
    }
    if (made > 0) {
      any = true;
      continue;
    }
    // Only slices smaller than a slot are left: the largest remainders get
    // one slot each, within their ceilings and the group's quota.
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < active.size(); ++i)
      if (!active[i]->exhausted && limits[i] > kEpsilon) order.push_back(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return limits[a] > limits[b]; });
    for (std::size_t i : order)
      made += negotiate_submitter(*active[i], ceiling_room(*active[i]), node, autoregroup, true);
    if (made == 0) break;
    any = true;
  }
  return any;
}

void Cycle::run(SlotPool& pool, SlotClasses& classes, RankViews& ranks) {
  pool_ = &pool;
  classes_ = &classes;
  ranks_ = &ranks;
  slots_read_submitter_ = slots_read_submitter_attributes(classes);
  CycleStats& stats = result_.stats;
  concurrency_ = pool.concurrency();
  // Submitters, by their accountant records.
  for (std::size_t i = 0; i < input_.size(); ++i) {
    const SubmitterRequests& in = input_[i];
    SubmitterState s;
    s.input = i;
    s.name = in.name;
    s.key = to_lower(in.name);
    s.group = accountant_.group_of(in.name);
    s.node = grouped() ? groups_->index_of(s.group) : -1;
    if (grouped() && s.node < 0) s.node = 0;
    s.rup = accountant_.priority(in.name);
    s.eup = accountant_.effective_priority(in.name);
    if (!(s.eup > 0)) s.eup = accounting::kMinPriority;
    s.floor = accountant_.floor(in.name, env_.now);
    s.ceiling = accountant_.ceiling(in.name, env_.now);
    s.usage = s.initial_usage = pool.usage(s.key);
    s.requests.resize(in.requests.size());
    for (std::size_t r = 0; r < in.requests.size(); ++r) {
      double cpus = 1;
      if (policy_.use_slot_weights &&
          (!classad::evaluate_attr(*in.requests[r].job, "RequestCpus", nullptr, env_).number(cpus) ||
           cpus <= 0))
        cpus = 1;
      s.requests[r].job_weight = policy_.use_slot_weights ? cpus : 1;
      stats.num_idle_jobs += in.requests[r].count;
    }
    if (!in.requests.empty()) ++stats.active_submitter_count;
    subs_.push_back(std::move(s));
  }

  std::vector<SubmitterState*> everyone;
  for (SubmitterState& s : subs_) everyone.push_back(&s);
  if (!grouped()) {
    negotiate_pie(everyone, pool.total_weight(), -1, false);
  } else {
    const auto& nodes = groups_->nodes();
    group_used_.assign(nodes.size(), 0);
    for (const SubmitterState& s : subs_) group_used_[static_cast<std::size_t>(s.node)] += s.usage;
    for (int round = 0; round < policy_.max_allocation_rounds; ++round) {
      // Demand: what each group holds plus what its requests still ask
      // for; a group whose requests were all matched or rejected asks for
      // no more, so its unused quota becomes surplus for the next round.
      std::vector<double> requested(nodes.size(), 0);
      for (const SubmitterState& s : subs_)
        requested[static_cast<std::size_t>(s.node)] += s.usage + pending_demand(s);
      groups_->fairshare(requested);
      std::vector<double> keys(nodes.size(), 0);
      for (std::size_t g = 0; g < nodes.size(); ++g) {
        classad::ClassAd ad;
        ad.set("AccountingGroup", nodes[g].name);
        ad.set("GroupQuota", nodes[g].quota);
        ad.set("GroupResourcesInUse", group_used_[g]);
        ad.set("GroupResourcesAllocated", nodes[g].allocated);
        double k = std::numeric_limits<double>::max();
        if (policy_.group_sort_expr &&
            !classad::evaluate(*policy_.group_sort_expr, &ad, nullptr, env_).number(k))
          k = std::numeric_limits<double>::max();
        keys[g] = k;
      }
      bool progress = false;
      const std::vector<int> order = groups_->negotiation_order(keys);
      if (round == 0) {
        group_turn_.assign(nodes.size(), -1);
        group_key_ = keys;
        for (std::size_t t = 0; t < order.size(); ++t)
          group_turn_[static_cast<std::size_t>(order[t])] = static_cast<int>(t);
      }
      for (int g : order) {
        std::vector<SubmitterState*> members;
        for (SubmitterState& s : subs_)
          if (s.node == g) members.push_back(&s);
        if (members.empty() || group_left(g) <= kEpsilon) continue;
        progress |= negotiate_pie(members, nodes[static_cast<std::size_t>(g)].allocated, g, false);
      }
      if (!progress || !slots_left()) break;
    }
    // GROUP_AUTOREGROUP: what a group's quota could not give, its
    // submitters may still get under <none>.
    std::vector<SubmitterState*> regroup;
    for (SubmitterState& s : subs_)
      if (s.node > 0 && nodes[static_cast<std::size_t>(s.node)].autoregroup && !s.exhausted)
        regroup.push_back(&s);
    negotiate_pie(regroup, pool.total_weight(), 0, true);
  }

  // Outcomes.
  for (const SubmitterState& s : subs_) {
    result_.submitters.push_back({s.name, s.group, s.rup, s.eup, s.pie_slice, s.initial_usage, s.matched,
                                  s.matched_weight, held_back(s)});
    for (std::size_t r = 0; r < s.requests.size(); ++r) {
      const RequestState& rs = s.requests[r];
      const Request& req = input_[s.input].requests[r];
      if (rs.reason.empty() || (!rs.rejected && rs.matched >= req.count)) continue;
      Rejection rej{s.name, r, {}, rs.reason};
      if (static_cast<std::size_t>(rs.matched) < req.job_ids.size())
        rej.job_id = req.job_ids[static_cast<std::size_t>(rs.matched)];
      result_.rejections.push_back(std::move(rej));
    }
  }
  if (grouped()) {
    const auto rows = groups_->quota_report();
    for (std::size_t g = 0; g < rows.size(); ++g) {
      GroupOutcome o;
      o.name = rows[g].name;
      o.configured_quota = rows[g].configured_quota;
      o.effective_quota = rows[g].effective_quota;
      o.subtree_quota = rows[g].subtree_quota;
      o.allocated = rows[g].allocated;
      o.accept_surplus = rows[g].accept_surplus;
      o.oversubscribed = rows[g].oversubscribed;
      if (g < group_turn_.size()) {
        o.turn = group_turn_[g];
        o.sort_key = group_key_[g];
      }
      for (const SubmitterState& s : subs_) {
        if (s.node != static_cast<int>(g)) continue;
        o.matched += s.matched;
        o.usage += s.initial_usage;
        o.requested += s.initial_usage + s.matched_weight + pending_demand(s);
      }
      result_.groups.push_back(std::move(o));
    }
  }
  stats.matches = static_cast<std::int64_t>(result_.matches.size());
  stats.rejections = static_cast<std::int64_t>(result_.rejections.size());
  stats.num_jobs_considered = attempts_;
}

}  // namespace

NegotiationCycle::NegotiationCycle(const NegotiatorPolicy& policy, const accounting::Accountant& accountant,
                                   std::optional<accounting::GroupTree> groups, classad::EvalEnv env)
    : policy_(policy),
      accountant_(accountant),
      groups_(std::move(groups)),
      env_(env),
      threads_(policy.threads) {}

CycleResult NegotiationCycle::run(const std::vector<classad::ClassAd>& slots,
                                  const std::vector<SubmitterRequests>& submitters) {
  // The memo only with slot classes: the plain algorithm keys no class.
  return *run_input(pool_input(slots), class_names(policy_, submitters), submitters,
                    classes_on_ ? memo_ : nullptr, true);
}

std::optional<CycleResult> NegotiationCycle::run_input(const PoolInput& input, const ClassNames& read,
                                                       const std::vector<SubmitterRequests>& submitters,
                                                       SlotMemo* memo, bool whole, bool* read_busy) {
  CycleResult result;
  CycleStats& stats = result.stats;
  stats.time = env_.now;
  const double start = clock_ ? clock_() : 0;
  // Phase 1: the slots.
  // A caller's random source is drawn from in evaluation order: one
  // thread then, so that random() in slot ads stays reproducible.
  const Threads threads{env_.random != nullptr ? 1 : threads_, min_slots_per_thread_};
  // Held by pointer: freed at the end on the cycle's threads.
  auto pool = std::make_unique<SlotPool>(input, policy_, accountant_, env_, threads, memo);
  stats.described_slots = pool->described();
  stats.total_slots = pool->total_slots();
  stats.trimmed_slots = pool->trimmed_slots();
  if (clock_) stats.duration_phase1 = clock_() - start;
  // Phase 2: group quotas, and the Remote* priorities where the cycle's
  // expressions may read them (the plain algorithm: everywhere).
  const double phase2_start = clock_ ? clock_() : 0;
  const accounting::GroupTree* groups = groups_ ? &*groups_ : nullptr;
  if (groups_) groups_->assign_quotas(pool->total_weight());
  pool->annotate(accountant_, groups, classes_on_ ? remote_reads(read) : RemoteReads::all(), threads);
  if (clock_) stats.duration_phase2 = clock_() - phase2_start;
  // Phase 3 (HTCondor's "sorting and trimming"): the slot classes over the
  // attributes the requests and the negotiator's expressions read.
  const double phase3_start = clock_ ? clock_() : 0;
  auto key = [&] {
    return std::make_unique<SlotClasses>(*pool, read.names, read.match_names, classes_on_, threads, memo);
  };
  auto classes = key();
  if (pool->annotations_left_out() && slots_read_remote_attributes(*classes)) {
    // A slot reads what phase 2 left out: every slot gets it, the slots
    // a board left out too.
    if (!whole) {
      classes.reset();
      pool->release(threads);
      return std::nullopt;
    }
    classes.reset();
    pool->annotate(accountant_, groups, RemoteReads::all(), threads);
    classes = key();
  }
  stats.annotated_slots = static_cast<std::int64_t>(pool->annotated_ads());
  std::vector<const classad::ClassAd*> jobs;
  for (const SubmitterRequests& s : submitters)
    for (const Request& r : s.requests) jobs.push_back(r.job);
  auto ranks = std::make_unique<RankViews>(*pool, *classes, policy_, env_, classes_on_, jobs, threads);
  stats.rank_views = static_cast<std::int64_t>(ranks->size());
  stats.slot_classes = static_cast<std::int64_t>(classes->live().size());
  // The idle slots a board left out are candidates too; those of them
  // that it gave the cycle are counted there.
  for (std::size_t i = 0; i < pool->slots().size(); ++i)
    if (classes->class_of(i) >= 0 && !pool->slots()[i].bundle_slot) ++stats.candidate_slots;
  if (input.digest != nullptr) stats.candidate_slots += input.digest->idle;
  if (clock_) stats.duration_phase3 = clock_() - phase3_start;
  // Phase 4: matchmaking.
  if (memo != nullptr) memo->matches().begin();
  Cycle cycle(policy_, accountant_, groups_, env_, submitters, result, prefilter_on_);
  const double phase4_start = clock_ ? clock_() : 0;
  cycle.run(*pool, *classes, *ranks);
  if (read_busy != nullptr) *read_busy = cycle.read_busy();
  const bool wanted = input.busy_left_out && cycle.read_busy();
  if (clock_) {
    const double end = clock_();
    stats.duration_phase4 = end - phase4_start;
    stats.duration = end - start;
    stats.match_rate = stats.duration > 0 ? static_cast<double>(stats.matches) / stats.duration : 0;
  }
  // The annotated slot ads (some 30,000 in a site's pool, each releasing
  // dozens of shared literals) are freed on the cycle's threads.
  ranks.reset();
  classes.reset();
  pool->release(threads);
  if (wanted) return std::nullopt;
  return result;
}

}  // namespace cara::negotiation
