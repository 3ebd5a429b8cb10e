#include "model/negotiation/slot_board.h"

#include <algorithm>
#include <compare>
#include <set>
#include <tuple>
#include <utility>

#include "model/negotiation/slot_board_parts.h"
#include "model/negotiation/slot_memo.h"
#include "model/schedd/autocluster.h"
#include "model/schedd/job_status.h"

namespace cara::negotiation {
using namespace board_parts;

struct SlotBoard::Impl {
  struct Entry {
    RememberedSlot known;  // known.ad: the slot's ad; known.slot: its description
    bool described = false;
    bool volatile_ = false;  // its description read the outside world: the cycle describes it
    Part part = Part::Active;
    bool placed = false;  // in its part's structures
    // As claim::reconcile reads it: its Name, and whether its State is
    // Claimed (1), Matched (2) or anything else (0).
    std::string name;
    int state = 0;
    // The key part of each table it is in: (generation, part number).
    std::vector<std::pair<std::uint32_t, std::uint32_t>> parts;
    // While a new ad waits for prepare(): the description the slot is
    // placed with (known then holds the new ad).
    std::unique_ptr<RememberedSlot> was;
    const RememberedSlot& placed_as() const { return was ? *was : known; }
  };

  struct Counts {
    std::map<std::string, std::int64_t> held, held_by_key, limits;
  };

  using Table = board_parts::Table<Entry>;
  std::map<Key, Entry> entries;
  std::vector<Key> pending;  // set since the last prepare() (some may be gone)
  // The active slots in key order: a sorted vector, which every cycle
  // walks whole while a few change.
  std::vector<std::pair<Key, Entry*>> active;
  std::map<Key, Entry*> bundled;  // the bundled and the idle slots
  bool prepared = false;
  Fingerprint policy;
  SlotMemo memo;
  std::uint64_t memo_epoch = 0;
  PoolDigest digest;
  Counts counts;                                // behind `digest`
  std::vector<std::int64_t> significant_count;  // by list number (SlotMemo::significant_id)
  std::vector<Table> tables;
  std::uint64_t calls = 0;
  std::size_t last_bundles = 0, last_idle_bundles = 0;
  bool busy_read = true;
  bool last_busy = false;    // the last cycle_slots() took the busy bundles' slots
  std::size_t in_place = 0;  // new ads the last prepare() placed where their slots were
  std::int64_t described = 0;
  Named claimed, matched;
  ChangeLog claim_log;
  std::vector<PoolSlot> spare;  // the storage of the last cycle's pool (PoolInput::recycle)

  Part part_of(const Entry& e) const;
  void describe(Entry& e, const NegotiatorPolicy& policy, const classad::EvalEnv& env);
  void place(Key key, Entry& e);
  void unplace(Key key, Entry& e);
  // A described new ad of a placed slot (Entry::was) that would be
  // placed where the slot is, with the same sums: it takes the slot's
  // place, and true. `parts`: the key parts the slot is placed with.
  bool replace_in_place(Entry& e, std::vector<std::pair<std::uint32_t, std::uint32_t>>& parts);
  // Adds (`sign` 1) or takes away (-1) what slot `k` of part `part` adds
  // to digest `d`; `counts` has the slots behind each of its held and
  // concurrency sums.
  void sum(const RememberedSlot& k, Part part, int sign, PoolDigest& d, Counts& counts) const;
  // The number of slot `k`'s class-key part for table `t`'s names.
  std::uint32_t part_in(const Table& t, RememberedSlot& k);
  void join(Table& t, Key key, Entry& e);
  void leave(Table& t, Key key, Entry& e);
  BundleKey bundle_key(const RememberedSlot& k, Part part, std::uint32_t number) const;
  Table& table_for(const std::vector<classad::Symbol>& names);
  void forget_tables();
  void count_significant(RememberedSlot& k, int sign);
  void index(Key key, Entry& e, bool in);
  void take(Key key, Entry& e, CycleSlots& out, bool in_digest) const;
};

Part SlotBoard::Impl::part_of(const Entry& e) const {
  if (e.volatile_) return Part::Active;
  if (!e.known.kept) return Part::Quiet;
  const PoolSlot& s = e.known.slot;
  // settle_slot()'s rules, which depend on the policy alone for these.
  const bool offered = s.use == SlotUse::Idle || (s.use == SlotUse::Busy && policy.consider_preemption);
  if (!offered) return Part::Quiet;
  // An idle slot: grouped with those alike, but where a partitionable
  // slot adopts busy dynamic slots (SlotPool::adopt_dynamic_slots), which
  // makes it alike to no other.
  if (s.use != SlotUse::Busy) return policy.pslot_children ? Part::Active : Part::Idle;
  const bool untakeable = s.rank_constant && !(s.rank_value > s.current_rank) && !policy.priority_preemption;
  if (!untakeable) return Part::Active;
  // Whether its job is within MaxJobRetirementTime changes with the clock
  // (and its class key with it).
  if (e.known.claim.claimed && e.known.claim.retirement > 0 && !policy.consider_early_preemption)
    return Part::Active;
  // A partitionable slot may give it up (SlotPool::adopt_dynamic_slots).
  if (policy.pslot_children && s.dynamic) return Part::Active;
  return Part::Bundled;
}

void SlotBoard::Impl::describe(Entry& e, const NegotiatorPolicy& p, const classad::EvalEnv& env) {
  bool outside = false;
  classad::EvalEnv probe = env;
  probe.outside_read = &outside;
  classad::ClassAd ad = std::move(e.known.ad);
  e.known = RememberedSlot{};
  e.known.ad = std::move(ad);
  e.known.kept = describe_slot(e.known.slot, e.known.claim, e.known.ad, 0, p, probe);
  e.known.slot.ad = &e.known.ad;
  // A slot without a Name is named by its place in each cycle's slots:
  // the cycle describes it.
  e.volatile_ = outside || !SlotMemo::rememberable(e.known.ad) || e.known.ad.find("Name") == nullptr;
  e.parts.clear();
  e.described = true;
  ++described;
}

void SlotBoard::Impl::sum(const RememberedSlot& k, Part part, int sign, PoolDigest& d, Counts& c) const {
  d.slots += sign;
  if (!k.kept) {
    d.trimmed += sign;
    return;
  }
  const PoolSlot& s = k.slot;
  if (part == Part::Quiet) d.trimmed += sign;
  if (part == Part::Idle) d.idle += sign;
  d.weight += sign * s.weight;
  auto add = [sign](std::map<std::string, double>& sums, std::map<std::string, std::int64_t>& counts,
                    const std::string& name, double amount) {
    sums[name] += sign * amount;
    if ((counts[name] += sign) == 0) {
      sums.erase(name);
      counts.erase(name);
    }
  };
  for (const LimitUse& u : s.running_limits) add(d.concurrency, c.limits, u.name, u.units);
  if (!s.remote_submitter.empty()) {
    add(d.held, c.held, s.remote_submitter, s.weight);
    add(d.held_by_key, c.held_by_key, s.remote_key, s.weight);
    d.claimed += sign;
  }
}

BundleKey SlotBoard::Impl::bundle_key(const RememberedSlot& k, Part part, std::uint32_t number) const {
  const PoolSlot& s = k.slot;
  return BundleKey{part == Part::Idle, s.remote_submitter,   s.current_rank,
                   s.weight,           s.consumption_policy, number};
}

std::uint32_t SlotBoard::Impl::part_in(const Table& t, RememberedSlot& k) {
  std::int64_t part = k.key_part(0, t.generation);
  if (part < 0) {
    part = memo.part_number(0, t.generation, memo.writer().attributes(k.slot, t.names));
    k.keep_key_part(0, t.generation, static_cast<std::uint32_t>(part));
  }
  return static_cast<std::uint32_t>(part);
}

void SlotBoard::Impl::join(Table& t, Key key, Entry& e) {
  const std::uint32_t number = part_in(t, e.known);
  e.parts.emplace_back(t.generation, number);
  const BundleKey bk = bundle_key(e.known, e.part, number);
  t.bundles[bk.idle][bk].emplace(key, &e);
}

void SlotBoard::Impl::leave(Table& t, Key key, Entry& e) {
  for (auto it = e.parts.begin(); it != e.parts.end(); ++it) {
    if (it->first != t.generation) continue;
    const BundleKey bk = bundle_key(e.placed_as(), e.part, it->second);
    auto& bundles = t.bundles[bk.idle];
    auto b = bundles.find(bk);
    if (b != bundles.end()) {
      b->second.erase(key);
      if (b->second.empty()) bundles.erase(b);
    }
    e.parts.erase(it);
    return;
  }
}

void SlotBoard::Impl::place(Key key, Entry& e) {
  e.part = part_of(e);
  e.placed = true;
  count_significant(e.known, +1);
  if (e.part == Part::Active) {
    active.insert(at_key(active, key), {key, &e});
    return;
  }
  sum(e.known, e.part, +1, digest, counts);
  if (e.part == Part::Bundled || e.part == Part::Idle) {
    bundled.emplace(key, &e);
    for (Table& t : tables) join(t, key, e);
  }
}

void SlotBoard::Impl::unplace(Key key, Entry& e) {
  if (!e.placed) return;
  e.placed = false;
  RememberedSlot& k = e.was ? *e.was : e.known;
  count_significant(k, -1);
  if (e.part == Part::Active) {
    auto at = at_key(active, key);
    if (at != active.end() && at->first == key) active.erase(at);
  } else {
    sum(k, e.part, -1, digest, counts);
    if (e.part == Part::Bundled || e.part == Part::Idle) {
      bundled.erase(key);
      for (Table& t : tables) leave(t, key, e);
    }
  }
  e.was.reset();
}

bool SlotBoard::Impl::replace_in_place(Entry& e,
                                       std::vector<std::pair<std::uint32_t, std::uint32_t>>& parts) {
  const RememberedSlot& was = *e.was;
  const PoolSlot &a = was.slot, &b = e.known.slot;
  if (part_of(e) != e.part || was.kept != e.known.kept) return false;
  // What the digest sums of it.
  if (e.part != Part::Active && e.known.kept &&
      (a.weight != b.weight || a.remote_submitter != b.remote_submitter ||
       a.running_limits != b.running_limits))
    return false;
  // Its bundle in every table.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> now;
  if (e.part == Part::Bundled || e.part == Part::Idle) {
    for (const Table& t : tables) {
      auto old =
          std::find_if(parts.begin(), parts.end(), [&](const auto& p) { return p.first == t.generation; });
      if (old == parts.end()) return false;
      const std::uint32_t number = part_in(t, e.known);
      if (bundle_key(was, e.part, old->second).tie() != bundle_key(e.known, e.part, number).tie())
        return false;
      now.emplace_back(t.generation, number);
    }
  }
  count_significant(*e.was, -1);
  count_significant(e.known, +1);
  e.parts = std::move(now);
  e.was.reset();
  return true;
}

void SlotBoard::Impl::count_significant(RememberedSlot& k, int sign) {
  int& id = k.significant;
  if (sign > 0 && id < 0) {
    const classad::NameSet own = schedd::SignificantAttributes::from_slots({&k.ad}, {}).names();
    id = memo.significant_id(std::vector<std::string>(own.begin(), own.end()));
  }
  if (id < 0) return;
  const auto i = static_cast<std::size_t>(id);
  if (significant_count.size() <= i) significant_count.resize(i + 1, 0);
  significant_count[i] += sign;
}

void SlotBoard::Impl::index(Key key, Entry& e, bool in) {
  auto& list = e.state == 1 ? claimed : matched;
  if (e.state == 0) return;
  claim_log.changed(e.name);
  if (in)
    insert_sorted(list[e.name], key, &e.known.ad);
  else
    erase_sorted(list, e.name, key);
}

void SlotBoard::Impl::forget_tables() {
  tables.clear();
  for (auto& [k, e] : bundled) e->parts.clear();
}

SlotBoard::Impl::Table& SlotBoard::Impl::table_for(const std::vector<classad::Symbol>& names) {
  const std::uint32_t generation = memo.generation(names, 0);
  for (Table& t : tables)
    if (t.generation == generation) return t;
  // A name list not among the last few (or a new generation of one): its
  // bundles made from every bundled slot, in place of the longest unused.
  if (tables.size() >= kTables) {
    auto oldest = std::min_element(tables.begin(), tables.end(),
                                   [](const Table& a, const Table& b) { return a.used < b.used; });
    for (auto& [k, e] : bundled)
      std::erase_if(e->parts, [&](const auto& p) { return p.first == oldest->generation; });
    tables.erase(oldest);
  }
  Table& t = tables.emplace_back();
  t.generation = generation;
  t.names = names;
  for (auto& [k, e] : bundled) join(t, k, *e);
  return t;
}

void SlotBoard::Impl::take(Key key, Entry& e, CycleSlots& out, bool in_digest) const {
  out.keys.push_back(key);
  out.input.ads.push_back(&e.known.ad);
  out.input.known.push_back(e.volatile_ ? nullptr : &e.known);
  out.input.in_digest.push_back(in_digest ? 1 : 0);
}

SlotBoard::SlotBoard() : impl_(std::make_unique<Impl>()) {}
SlotBoard::~SlotBoard() = default;

void SlotBoard::set(Key key, const classad::ClassAd& ad) {
  Impl& m = *impl_;
  auto [it, fresh] = m.entries.try_emplace(key);
  Impl::Entry& e = it->second;
  if (!fresh && SlotMemo::rememberable(ad) && e.known.ad.identity() == ad.identity()) return;
  static const classad::Symbol kState = classad::intern("State"), kName = classad::intern("Name");
  std::string scratch;
  std::string name(schedd::string_attr(ad, kName, scratch));
  const std::string_view state_text = schedd::string_attr(ad, kState, scratch);
  const int state = state_text == "Claimed" ? 1 : state_text == "Matched" ? 2 : 0;
  // A placed slot stays where it is until prepare() has described its new
  // ad: most new ads of a slot (a machine's clock moved on) place it where
  // it was, and then nothing moves (Impl::replace_in_place).
  if (e.placed && !e.was) {
    e.was = std::make_unique<RememberedSlot>(std::move(e.known));
    e.was->slot.ad = &e.was->ad;
  }
  e.known = RememberedSlot{};
  e.known.ad = ad;
  e.described = false;
  if (fresh || name != e.name || state != e.state) {
    if (!fresh) m.index(key, e, false);
    e.name = std::move(name);
    e.state = state;
    m.index(key, e, true);
  } else if (state != 0) {
    m.claim_log.changed(e.name);  // the same name and state, another ad (claimed() holds it already)
  }
  m.pending.push_back(key);
}

void SlotBoard::erase(Key key) {
  Impl& m = *impl_;
  auto it = m.entries.find(key);
  if (it == m.entries.end()) return;
  m.unplace(key, it->second);
  m.index(key, it->second, false);
  m.entries.erase(it);
}

const classad::ClassAd* SlotBoard::find(Key key) const {
  auto it = impl_->entries.find(key);
  return it == impl_->entries.end() ? nullptr : &it->second.known.ad;
}

const classad::ClassAd* SlotBoard::first() const {
  return impl_->entries.empty() ? nullptr : &impl_->entries.begin()->second.known.ad;
}

std::size_t SlotBoard::size() const {
  return impl_->entries.size();
}

std::vector<SlotBoard::Key> SlotBoard::keys_in(Key first, Key last) const {
  std::vector<Key> out;
  for (auto it = impl_->entries.lower_bound(first); it != impl_->entries.end() && it->first < last; ++it)
    out.push_back(it->first);
  return out;
}

std::vector<SlotBoard::Key> SlotBoard::keys() const {
  std::vector<Key> out;
  out.reserve(impl_->entries.size());
  for (const auto& [k, e] : impl_->entries) out.push_back(k);
  return out;
}

std::vector<classad::ClassAd> SlotBoard::ads() const {
  std::vector<classad::ClassAd> out;
  out.reserve(impl_->entries.size());
  for (const auto& [k, e] : impl_->entries) out.push_back(e.known.ad);
  return out;
}

void SlotBoard::prepare(const NegotiatorPolicy& policy, const classad::EvalEnv& env) {
  Impl& m = *impl_;
  const Fingerprint f = Fingerprint::of(policy);
  m.in_place = 0;
  m.memo.set_kept_elsewhere(m.entries.size());
  m.memo.begin(policy);
  if (!m.prepared || !(f == m.policy)) {
    // Every slot described again under the new policy.
    for (auto& [k, e] : m.entries) {
      m.unplace(k, e);
      e.described = false;
    }
    m.pending.clear();
    for (const auto& [k, e] : m.entries) m.pending.push_back(k);
    m.policy = f;
    m.prepared = true;
  }
  if (m.memo.epoch() != m.memo_epoch || m.memo.trim_significant_lists()) {
    // The memo forgot what it numbered: key parts and significant lists
    // are numbered anew.
    m.memo_epoch = m.memo.epoch();
    m.forget_tables();
    m.significant_count.clear();
    for (auto& [k, e] : m.entries) {
      if (!e.placed) continue;
      RememberedSlot& placed = e.was ? *e.was : e.known;
      placed.significant = -1;
      m.count_significant(placed, +1);
    }
  }
  for (Key k : m.pending) {
    auto it = m.entries.find(k);
    if (it == m.entries.end() || it->second.described) continue;
    Impl::Entry& e = it->second;
    auto parts = std::move(e.parts);  // describe() clears them
    m.describe(e, policy, env);
    if (e.was && m.replace_in_place(e, parts)) {
      ++m.in_place;
      continue;
    }
    e.parts = std::move(parts);
    m.unplace(k, e);
    m.place(k, e);
  }
  m.pending.clear();
}

std::int64_t SlotBoard::take_described() {
  return std::exchange(impl_->described, 0);
}

void SlotBoard::cycle_slots(const std::vector<classad::Symbol>& names, std::int64_t jobs, bool busy,
                            CycleSlots& out) {
  Impl& m = *impl_;
  Impl::Table& t = m.table_for(names);
  t.used = ++m.calls;
  m.last_busy = busy;
  // One slot of each bundle of busy slots (its first) enters the pool, and
  // the first jobs + 1 of each bundle of idle ones, counted in the digest
  // already. A cycle matches each job once at most, to the first slot left
  // of a class; every slot of a bundle is of one class, so no cycle reaches
  // past those: the slots it would take, and one left to tell that the
  // class is not used up. The busy ones are there only for the reasons of
  // the requests that no slot takes (and to keep a cycle going to tell
  // them): a cycle that needs none of that can do without them.
  const auto idle_taken = static_cast<std::size_t>(std::max<std::int64_t>(jobs, 0)) + 1;
  std::vector<std::pair<Key, Impl::Entry*>> reps;
  m.last_bundles = t.bundles[0].size();
  m.last_idle_bundles = t.bundles[1].size();
  reps.reserve(m.last_idle_bundles + (busy ? m.last_bundles : 0));
  for (const bool idle : {false, true}) {
    if (!idle && !busy) continue;
    for (const auto& [bk, members] : t.bundles[idle]) {
      std::size_t n = idle ? idle_taken : 1;
      for (auto it = members.begin(); it != members.end() && n > 0; ++it, --n) reps.push_back(*it);
    }
  }
  std::sort(reps.begin(), reps.end());
  // The active slots and the bundles' in key order.
  const std::size_t n = m.active.size() + reps.size();
  out.keys.clear();
  out.input = PoolInput{};
  out.keys.reserve(n);
  out.input.ads.reserve(n);
  out.input.known.reserve(n);
  out.input.in_digest.reserve(n);
  auto a = m.active.begin();
  auto r = reps.begin();
  while (a != m.active.end() || r != reps.end()) {
    if (r == reps.end() || (a != m.active.end() && a->first < r->first)) {
      m.take(a->first, *a->second, out, false);
      ++a;
    } else {
      m.take(r->first, *r->second, out, true);
      ++r;
    }
  }
  out.input.digest = &m.digest;
  out.input.from_board = true;
  out.input.busy_left_out = !busy && m.last_bundles > 0;
  out.input.recycle = &m.spare;
}

bool SlotBoard::busy_read() const {
  return impl_->busy_read;
}

void SlotBoard::set_busy_read(bool read) {
  impl_->busy_read = read;
}

void SlotBoard::all_slots(CycleSlots& out) {
  Impl& m = *impl_;
  out = CycleSlots{};
  out.keys.reserve(m.entries.size());
  out.input.ads.reserve(m.entries.size());
  out.input.known.reserve(m.entries.size());
  for (auto& [k, e] : m.entries) m.take(k, e, out, false);
  m.last_busy = true;
  out.input.from_board = true;
  out.input.recycle = &m.spare;
}

SlotMemo& SlotBoard::numbering() {
  return impl_->memo;
}

SlotBoard::Parts SlotBoard::parts() const {
  const Impl& m = *impl_;
  Parts p;
  p.active = m.active.size();
  p.bundles = m.last_bundles;
  p.idle_bundles = m.last_idle_bundles;
  p.busy_taken = m.last_busy;
  p.in_place = m.in_place;
  for (const auto& [k, e] : m.entries) {
    if (!e.placed) continue;
    if (e.part == Part::Quiet) ++p.quiet;
    if (e.part == Part::Idle) ++p.idle;
  }
  p.bundled = m.bundled.size() - p.idle;
  return p;
}

classad::NameSet SlotBoard::significant_reads() {
  Impl& m = *impl_;
  classad::NameSet names;
  for (std::size_t id = 0; id < m.significant_count.size(); ++id) {
    if (m.significant_count[id] <= 0) continue;
    const std::vector<std::string>& list = m.memo.significant_list(static_cast<int>(id));
    names.insert(list.begin(), list.end());
  }
  return names;
}

const SlotBoard::Named& SlotBoard::claimed() const {
  return impl_->claimed;
}
const SlotBoard::Named& SlotBoard::matched() const {
  return impl_->matched;
}

const ChangeLog& SlotBoard::claim_log() const {
  return impl_->claim_log;
}

bool SlotBoard::in_shard(Key key, const NegotiatorPolicy& policy, const classad::EvalEnv& env) const {
  if (!policy.slot_constraint) return true;
  const Impl::Entry& e = impl_->entries.at(key);
  if (!e.described || e.volatile_) return policy.negotiates_for(e.known.ad, env);
  return e.known.kept;
}

}  // namespace cara::negotiation
