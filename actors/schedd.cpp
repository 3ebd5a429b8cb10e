#include "actors/schedd.h"

#include <unistd.h>

#include <caf/actor_system.hpp>
#include <caf/io/middleman_actor.hpp>
#include <caf/typed_event_based_actor.hpp>
#include <map>
#include <optional>
#include <set>

#include "actors/collectors_update.h"
#include "actors/submitter.h"
#include "actors/system_accounts.h"
#include "actors/user_files.h"
#include "model/classad/eval.h"
#include "model/classad/match.h"
#include "model/classad/parser.h"
#include "model/collector/ad_store.h"
#include "model/schedd/autocluster.h"
#include "model/schedd/job_builder.h"
#include "model/schedd/job_order.h"
#include "model/schedd/job_queue.h"
#include "model/schedd/schedd_settings.h"
#include "model/schedd/submit_description.h"
#include "net/address.h"

namespace cara::actors {
namespace {

using schedd::JobId;

// A slot on another node may be gone: never wait for it forever.
constexpr auto kSlotTimeout = std::chrono::seconds(20);
// FailedToCreateProcess: the job could not be started (HTCondor's code 6).
constexpr int kHoldStartFailed = 6;

struct Claim {
  std::string id;
  slot_actor slot;
  std::string slot_name;
  classad::ClassAd slot_ad;
  std::string submitter;
  std::vector<std::string> job_ids;  // the jobs the match was made for
  std::optional<JobId> job;          // the job activated on it
  bool ending = false;               // its job was evicted: the slot ends the claim
  bool ready = true;                 // false while it waits for a preempted job to leave
};

struct ScheddState {
  std::shared_ptr<const config::Config> config;  // the queue policy's macros: kept alive with it
  std::optional<schedd::JobQueue> queue;
  std::string schedd_name;
  std::string uid_domain;
  bool claim_leftovers = true;  // CLAIM_PARTITIONABLE_LEFTOVERS
  std::map<std::string, submitter_actor> submitters;
  std::map<std::string, Claim> claims;  // by claim id
  std::set<JobId> busy;                 // jobs being claimed for, activated or running
  // Claims asked for whose ClaimReply has not come, with what the startd
  // said of them meanwhile: a waiting claim's news comes straight from the
  // startd, its reply through the slot actor, and may be overtaken.
  struct EarlyNews {
    std::optional<ClaimReady> ready;
    std::optional<std::string> ended;  // why
  };
  std::map<std::string, EarlyNews> claiming;  // by claim id
  std::int64_t finished = 0;                  // jobs that left the queue (completed or removed)
  bool dirty = true;                          // counts changed: advertise
  bool reschedule = true;                     // ask for a cycle at the next tick
  negotiator_actor negotiator;
  std::vector<collector_actor> collectors;  // setup's, until the node says otherwise
  std::set<caf::node_id> direct;            // nodes this schedd has its own connection to
  std::int64_t last_periodic = 0, last_advertise = 0, update_interval = 300, periodic_interval = 60;
  std::shared_ptr<const AccountBook> accounts;  // this machine's users
  std::map<std::string, Account> owners;        // found so far, by Owner
  static inline const char* name = "schedd";
};

using Self = schedd_actor::stateful_pointer<ScheddState>;

std::optional<JobId> parse_job_id(const std::string& s) {
  const auto dot = s.find('.');
  if (dot == std::string::npos) return std::nullopt;
  try {
    return JobId{std::stoll(s.substr(0, dot)), std::stoll(s.substr(dot + 1))};
  } catch (...) {
    return std::nullopt;
  }
}

bool is_idle(const classad::ClassAd& job) {
  return schedd::job_status(job) == schedd::JobStatus::Idle;
}

// The owner's account at the access point, or null when there is none
// (accounts found are kept; one not found is looked up again next time, as
// it may have been added since).
const Account* owner_account(Self self, const std::string& owner) {
  auto& st = self->state;
  auto it = st.owners.find(owner);
  if (it != st.owners.end()) return &it->second;
  auto found = st.accounts->find(owner);
  if (!found) return nullptr;
  return &st.owners.emplace(owner, std::move(*found)).first->second;
}

// The user log events of the last changes, appended to each job's log
// with its owner's rights (a log the owner may not write is not written).
void write_events(Self self, const ScheddSetup& setup) {
  for (const schedd::LoggedEvent& e : self->state.queue->take_events()) {
    if (e.log.empty()) continue;
    const Account* owner = owner_account(self, e.owner);
    if (!owner && ::geteuid() == 0) {
      // Root may not write for a user it cannot become.
      setup.context.warning("user log of " + e.owner + " not written: no such user here");
      continue;
    }
    if (auto s = append_as(e.log, schedd::format_user_log_event(e.event), owner); !s)
      setup.context.warning("user log of " + e.owner + ": " + s.error());
  }
}

void changed(Self self, const ScheddSetup& setup) {
  write_events(self, setup);
  self->state.finished += static_cast<std::int64_t>(self->state.queue->take_finished().size());
  self->state.dirty = true;
  self->state.reschedule = true;
}

// The next job a claim may run: one the match was made for, else any idle
// job of the submitter the slot would take.
std::optional<JobId> next_job(Self self, const Claim& c) {
  auto& st = self->state;
  for (const std::string& s : c.job_ids) {
    auto id = parse_job_id(s);
    if (!id || st.busy.count(*id)) continue;
    const classad::ClassAd* job = st.queue->find(*id);
    if (job && is_idle(*job)) return id;
  }
  for (const classad::ClassAd* job : st.queue->idle_jobs(c.submitter)) {
    const JobId id = schedd::job_id(*job);
    if (st.busy.count(id)) continue;
    if (classad::symmetric_match(*job, c.slot_ad)) return id;
  }
  return std::nullopt;
}

// A claim's slot is watched (its death loses the claim's job) while any
// claim is on it: a demonitor drops every monitor of the slot at once, and
// claims waiting on a partitionable slot share it.
void unwatch(Self self, const slot_actor& slot) {
  for (const auto& [id, c] : self->state.claims)
    if (c.slot == slot) return;
  self->demonitor(caf::actor_cast<caf::actor_addr>(slot));
}

void release(Self self, const std::string& claim_id) {
  auto it = self->state.claims.find(claim_id);
  if (it == self->state.claims.end()) return;
  const slot_actor slot = it->second.slot;
  self->send(slot, ReleaseSlot{claim_id});
  self->state.claims.erase(it);
  unwatch(self, slot);
  self->state.dirty = true;
}

void activate(Self self, const std::string& claim_id, JobId job, const ScheddSetup& setup);

// Reuse the claim for another job, or give it back.
void reuse_or_release(Self self, const std::string& claim_id, const ScheddSetup& setup) {
  auto it = self->state.claims.find(claim_id);
  if (it == self->state.claims.end() || it->second.ending) return;
  if (auto next = next_job(self, it->second))
    activate(self, claim_id, *next, setup);
  else
    release(self, claim_id);
}

void activate(Self self, const std::string& claim_id, JobId job, const ScheddSetup& setup) {
  auto it = self->state.claims.find(claim_id);
  const classad::ClassAd* ad = self->state.queue->find(job);
  if (it == self->state.claims.end() || !ad) return;
  self->state.busy.insert(job);
  it->second.job = job;
  // The owner's ids here, for an execution point with SOFT_UID_DOMAIN.
  ActivateClaim activation{claim_id, WireAd{*ad}, -1, -1};
  if (const Account* owner = owner_account(self, schedd::string_attr(*ad, "Owner"))) {
    activation.owner_uid = owner->uid;
    activation.owner_gid = owner->gid;
  }
  self->request(it->second.slot, kSlotTimeout, std::move(activation))
      .then(
          [self, claim_id, job, setup](ActivateReply& r) {
            auto c = self->state.claims.find(claim_id);
            if (r.ok && c != self->state.claims.end()) {
              if (self->state.queue->start(job, c->second.slot_name, setup.clock.now(self)))
                changed(self, setup);
              return;
            }
            self->state.busy.erase(job);
            if (c != self->state.claims.end()) {
              c->second.job.reset();
              release(self, claim_id);  // CLAIM_WORKLIFE over, or the slot will not run it
            }
            self->state.reschedule = true;
          },
          [self, claim_id, job](caf::error&) {
            self->state.busy.erase(job);
            auto c = self->state.claims.find(claim_id);
            if (c != self->state.claims.end()) {
              c->second.job.reset();
              release(self, claim_id);
            }
            self->state.reschedule = true;
          });
}

void claim_ready(Self self, ClaimReady r, const ScheddSetup& setup);
void lose_claim(Self self, const std::string& claim_id, const std::string& why, const ScheddSetup& setup);

void claim_now(Self self, MatchInfo m, const ScheddSetup& setup) {
  Claim c;
  c.id = m.claim_id;
  c.slot_ad = m.slot_ad.ad;
  c.submitter = m.submitter;
  c.job_ids = m.job_ids;
  std::optional<JobId> job = next_job(self, c);
  if (!job) return;  // nothing left to run: the match times out at the slot
  self->state.busy.insert(*job);
  self->state.claiming[c.id];
  const classad::ClassAd& ad = *self->state.queue->find(*job);
  slot_actor slot = caf::actor_cast<slot_actor>(m.slot);
  self->request(slot, kSlotTimeout,
                ClaimSlot{m.claim_id, WireAd{ad}, m.preempting, caf::actor_cast<caf::actor>(self),
                          std::move(m.preempt_dslots), self->state.claim_leftovers})
      .then(
          [self, c = std::move(c), job, setup, pslot = m.slot,
           pslot_name = m.slot_name](ClaimReply& r) mutable {
            auto& st = self->state;
            st.busy.erase(*job);
            ScheddState::EarlyNews news;
            if (auto it = st.claiming.find(c.id); it != st.claiming.end()) {
              news = std::move(it->second);
              st.claiming.erase(it);
            }
            if (!r.ok) {
              st.reschedule = true;
              return;
            }
            c.slot = caf::actor_cast<slot_actor>(r.slot);
            c.slot_name = r.slot_name;
            if (!r.slot_ad.ad.attributes().empty()) c.slot_ad = std::move(r.slot_ad.ad);
            // RemoteHost names the slot as the pool does: slot1_1@host.
            classad::Value full = classad::evaluate_attr(c.slot_ad, "Name");
            if (full.is_string()) c.slot_name = std::string(full.as_string());
            self->monitor(c.slot);
            const std::string id = c.id;
            c.ready = !r.pending;
            st.claims.emplace(id, std::move(c));
            if (r.pending) {
              // A preempting claim: the slot's jobs leave first (ClaimReady).
              if (news.ready) claim_ready(self, std::move(*news.ready), setup);
              if (news.ended) lose_claim(self, id, "the slot ended it: " + *news.ended, setup);
              if (!news.ready && !news.ended)
                setup.context.info("claim on " + r.slot_name + " waits for preempted jobs to leave");
              return;
            }
            const std::string submitter = st.claims.at(id).submitter;
            const classad::ClassAd* ad = st.queue->find(*job);
            if (ad && is_idle(*ad) && !st.busy.count(*job))
              activate(self, id, *job, setup);
            else
              reuse_or_release(self, id, setup);
            if (!r.leftover_claim_id.empty()) {
              // Scheduler matchmaking (CLAIM_PARTITIONABLE_LEFTOVERS): the
              // rest of the partitionable slot for the submitter's next job
              // that fits, without waiting for a cycle; the claim of that one
              // offers what is left after it, and so on.
              MatchInfo rest;
              rest.claim_id = std::move(r.leftover_claim_id);
              rest.submitter = submitter;
              rest.slot_name = pslot_name;
              rest.slot_ad = std::move(r.leftover_ad);
              rest.slot = pslot;
              claim_now(self, std::move(rest), setup);
            }
          },
          [self, job, id = m.claim_id](caf::error&) {
            self->state.busy.erase(*job);
            self->state.claiming.erase(id);
            self->state.reschedule = true;
          });
}

// A waiting claim holds its slot now (the preempted jobs have left): run a
// job on it. With pslot preemption the slot is the dynamic one carved for it.
void claim_ready(Self self, ClaimReady r, const ScheddSetup& setup) {
  auto it = self->state.claims.find(r.claim_id);
  if (it == self->state.claims.end() || it->second.ready) return;
  Claim& c = it->second;
  c.ready = true;
  if (r.slot && r.slot != caf::actor_cast<caf::actor>(c.slot)) {
    const slot_actor before = c.slot;
    c.slot = caf::actor_cast<slot_actor>(r.slot);
    self->monitor(c.slot);
    unwatch(self, before);
  }
  if (!r.slot_name.empty()) c.slot_name = r.slot_name;
  if (!r.slot_ad.ad.attributes().empty()) c.slot_ad = std::move(r.slot_ad.ad);
  reuse_or_release(self, r.claim_id, setup);
}

// The job on a claim that ended without an exit: back to Idle.
void lose_claim(Self self, const std::string& claim_id, const std::string& why, const ScheddSetup& setup) {
  auto it = self->state.claims.find(claim_id);
  if (it == self->state.claims.end()) return;
  if (it->second.job) {
    const JobId job = *it->second.job;
    setup.context.warning("claim on " + it->second.slot_name + " lost (" + why + "); job " + job.str() +
                          " runs again");
    self->state.busy.erase(job);
    const classad::ClassAd* ad = self->state.queue->find(job);
    if (ad && !is_idle(*ad)) self->state.queue->evict(job, setup.clock.now(self));
  }
  const slot_actor slot = it->second.slot;
  self->state.claims.erase(it);
  unwatch(self, slot);
  changed(self, setup);
}

RequestsReply requests_for(Self self, const RequestsQuery& q) {
  auto& st = self->state;
  RequestsReply reply;
  reply.submitter = q.submitter;
  schedd::AutoclusterIndex index(schedd::SignificantAttributes::from_list(q.significant));
  std::map<int, std::size_t> position;  // autocluster -> index in reply.requests
  for (const classad::ClassAd* job : st.queue->idle_jobs(q.submitter)) {
    const JobId id = schedd::job_id(*job);
    if (st.busy.count(id)) continue;
    const int ac = index.assign(*job);
    auto [it, fresh] = position.emplace(ac, reply.requests.size());
    if (fresh) reply.requests.push_back(WireRequest{WireAd{*job}, 0, {}});
    WireRequest& r = reply.requests[it->second];
    ++r.count;
    r.job_ids.push_back(id.str());
  }
  return reply;
}

void advertise(Self self) {
  auto& st = self->state;
  std::map<std::string, std::array<std::int64_t, 3>> counts;  // idle, running, held
  for (const auto& [id, job] : st.queue->jobs()) {
    const std::string s = schedd::submitter_name(job);
    auto& c = counts[s];
    switch (schedd::job_status(job).value_or(schedd::JobStatus::Idle)) {
      case schedd::JobStatus::Idle: ++c[0]; break;
      case schedd::JobStatus::Running:
      case schedd::JobStatus::Suspended: ++c[1]; break;
      case schedd::JobStatus::Held: ++c[2]; break;
      default: break;
    }
  }
  // Submitters that had jobs keep an ad (with zero counts) until they go.
  for (const auto& [name, actor] : st.submitters)
    counts.try_emplace(name, std::array<std::int64_t, 3>{0, 0, 0});
  std::int64_t idle = 0, running = 0, held = 0;
  for (const auto& [name, c] : counts) {
    auto it = st.submitters.find(name);
    if (it == st.submitters.end()) {
      submitter_actor sub = spawn_submitter(self->system(), self, st.collectors);
      self->link_to(sub);  // submitters end with their schedd
      it = st.submitters.emplace(name, std::move(sub)).first;
    }
    classad::ClassAd ad;
    ad.set("MyType", "Submitter");
    ad.set("Name", name);
    ad.set("ScheddName", st.schedd_name);
    ad.set("IdleJobs", c[0]);
    ad.set("RunningJobs", c[1]);
    ad.set("HeldJobs", c[2]);
    self->send(it->second, WireAd{std::move(ad)});
    idle += c[0];
    running += c[1];
    held += c[2];
  }
  classad::ClassAd ad;
  ad.set("MyType", "Scheduler");
  ad.set("Name", st.schedd_name);
  ad.set("TotalIdleJobs", idle);
  ad.set("TotalRunningJobs", running);
  ad.set("TotalHeldJobs", held);
  ad.set("TotalJobAds", static_cast<std::int64_t>(st.queue->size()));
  ad.set("TotalCompletedJobs", st.finished);
  AdUpdate u{static_cast<std::int32_t>(collector::AdType::Scheduler),
             {WireAd{std::move(ad)}},
             {caf::actor_cast<caf::actor>(self)}};
  for (const collector_actor& c : st.collectors) self->send(c, u);
  st.dirty = false;
}

bool has_idle(Self self) {
  for (const auto& [id, job] : self->state.queue->jobs())
    if (is_idle(job) && !self->state.busy.count(id)) return true;
  return false;
}

void find_negotiator(Self self) {
  if (self->state.negotiator || self->state.collectors.empty()) return;
  self->request(self->state.collectors.front(), std::chrono::seconds(5),
                AdQueryRequest{static_cast<std::int32_t>(collector::AdType::Negotiator), "", {}, false})
      .then(
          [self](AdQueryReply& r) {
            for (caf::actor& a : r.endpoints)
              if (a) self->state.negotiator = caf::actor_cast<negotiator_actor>(a);
          },
          [](caf::error&) {});
}

void on_tick(Self self, const ScheddSetup& setup) {
  auto& st = self->state;
  const std::int64_t now = setup.clock.now(self);
  if (now - st.last_periodic >= st.periodic_interval) {
    st.last_periodic = now;
    if (st.queue->evaluate_periodic(now) > 0) changed(self, setup);
  }
  if (st.dirty || now - st.last_advertise >= st.update_interval) {
    advertise(self);
    st.last_advertise = now;
  }
  if (st.reschedule) {
    find_negotiator(self);
    // Until the negotiator is known (being looked up) the request waits
    // for a later tick rather than being dropped.
    if (st.negotiator) {
      if (has_idle(self)) self->send(st.negotiator, Reschedule{st.schedd_name});
      st.reschedule = false;
    }
  }
}

SubmitReply submit(Self self, const ScheddSetup& setup, const SubmitRequest& r) {
  auto& st = self->state;
  SubmitReply reply;
  auto description =
      schedd::parse_submit(r.description, r.label.empty() ? "submit description" : r.label, r.appends);
  if (!description) {
    reply.error = description.error();
    return reply;
  }
  schedd::SubmitContext ctx;
  ctx.owner = r.owner;
  ctx.uid_domain = st.uid_domain;
  ctx.iwd = r.iwd;
  ctx.now = setup.clock.now(self);
  ctx.cluster_id = st.queue->next_cluster_id();
  ctx.label = r.label.empty() ? "submit description" : r.label;
  ctx.config = st.config.get();
  ctx.files = setup.files.get();
  for (const std::string& e : r.environment) {
    const auto eq = e.find('=');
    if (eq != std::string::npos) ctx.environment.emplace_back(e.substr(0, eq), e.substr(eq + 1));
  }
  auto jobs = schedd::build_jobs(*description, ctx);
  if (!jobs) {
    reply.error = jobs.error();
    return reply;
  }
  auto result = st.queue->submit(std::move(*jobs), ctx.now);
  if (!result) {
    reply.error = result.error();
    return reply;
  }
  changed(self, setup);
  reply.ok = true;
  reply.cluster = result->cluster;
  reply.count = static_cast<std::int64_t>(result->count);
  reply.warning = result->warning.value_or("");
  return reply;
}

QueueReply query(Self self, const QueueQuery& q) {
  QueueReply reply;
  classad::ExprPtr constraint;
  if (!q.constraint.empty()) {
    auto e = classad::parse_constraint(q.constraint);
    if (!e) {
      reply.ok = false;
      reply.error = e.error();
      return reply;
    }
    constraint = *e;
  }
  for (const auto& [id, job] : self->state.queue->jobs()) {
    if (constraint) {
      bool b = false;
      if (!classad::evaluate(*constraint, &job).bool_equiv(b) || !b) continue;
    }
    if (q.projection.empty()) {
      reply.jobs.push_back(WireAd{job});
      continue;
    }
    classad::ClassAd p;
    for (const std::string& n : q.projection)
      if (const classad::Attribute* a = job.find(n)) p.insert(a->name, a->expr);
    reply.jobs.push_back(WireAd{std::move(p)});
  }
  return reply;
}

// A string knob, or `fallback` when it is empty or does not expand.
std::string knob(const config::Config& config, const char* name, const std::string& fallback) {
  auto v = config.string(name);
  return v && !v->empty() ? *v : fallback;
}

// Claims over a connection of our own to the slot's node: a message
// through the central manager would arrive too, but the slot's death
// would not (CAF reports a node's loss only to nodes connected to it).
void claim(Self self, MatchInfo m, const ScheddSetup& setup) {
  const caf::node_id node = m.slot ? m.slot.node() : caf::node_id{};
  classad::Value my_address = classad::evaluate_attr(m.slot_ad.ad, "MyAddress");
  auto address = my_address.is_string()
                     ? net::parse_host_port(std::string(my_address.as_string()), "MyAddress")
                     : Result<net::HostPort>(Error{"no MyAddress"});
  if (!setup.middleman || !m.slot || node == self->system().node() || self->state.direct.count(node) ||
      !address)
    return claim_now(self, std::move(m), setup);
  auto mm = caf::actor_cast<caf::io::middleman_actor>(setup.middleman);
  self->request(mm, kSlotTimeout, caf::connect_atom::value, address->host, address->port)
      .then(
          [self, m, setup, node](const caf::node_id&, caf::strong_actor_ptr&,
                                 std::set<std::string>&) mutable {
            self->state.direct.insert(node);
            claim_now(self, std::move(m), setup);
          },
          [self, m, setup, where = *address](caf::error& e) mutable {
            setup.context.warning("cannot connect to " + where.host + ":" + std::to_string(where.port) +
                                  " (" + caf::to_string(e) + "); claiming through the central manager");
            claim_now(self, std::move(m), setup);
          });
}

void read_settings(ScheddState& st, const config::Config& config, const schedd::ScheddSettings& settings) {
  st.uid_domain = knob(config, "UID_DOMAIN", st.schedd_name);
  st.claim_leftovers = settings.claim_leftovers;
  st.update_interval = settings.update_interval;
  st.periodic_interval = settings.periodic_interval;
}

// condor_reconfig: submit requirements, transforms, periodic expressions
// and the schedd's own ad follow the new configuration from the next
// submission or evaluation on; the queued jobs stay as they are. Nothing
// changes when the new policy does not parse.
CommandReply reconfigure(Self self, std::shared_ptr<const config::Config> config) {
  auto& st = self->state;
  auto policy = schedd::QueuePolicy::from_config(*config, st.schedd_name);
  if (!policy) return CommandReply{false, policy.error()};
  auto settings = schedd::ScheddSettings::from_config(*config);
  if (!settings) return CommandReply{false, settings.error()};
  st.queue->set_policy(std::move(*policy));
  st.config = std::move(config);  // after the policy that points into it
  read_settings(st, *st.config, *settings);
  advertise(self);
  return CommandReply{true, {}};
}

schedd_actor::behavior_type schedd_behavior(Self self, std::string schedd_name,
                                            std::shared_ptr<schedd::QueuePolicy> policy,
                                            schedd::ScheddSettings settings, ScheddSetup setup) {
  auto& st = self->state;
  st.schedd_name = std::move(schedd_name);
  st.config = setup.config;
  read_settings(st, *setup.config, settings);
  classad::EvalEnv env;
  st.queue.emplace(std::move(*policy), "<" + st.schedd_name + ">", env);
  st.negotiator = setup.negotiator;
  st.collectors = setup.collectors;
  st.accounts = setup.accounts ? setup.accounts : std::make_shared<const SystemAccounts>();
  st.last_periodic = setup.clock.now(self);
  self->set_down_handler([self, setup](caf::down_msg& d) {
    // A slot we hold a claim on is gone (its node died): its job runs again.
    if (d.source && d.source.node() != self->system().node()) self->state.direct.erase(d.source.node());
    std::vector<std::string> lost;
    for (const auto& [id, c] : self->state.claims)
      if (caf::actor_cast<caf::actor_addr>(c.slot) == d.source) lost.push_back(id);
    for (const std::string& id : lost)
      lose_claim(self, id, "the slot is gone: " + caf::to_string(d.reason), setup);
  });
  self->delayed_send(self, setup.tick_every, Timer{});
  return {
      [self, setup](SubmitRequest& r) {
        if (auto no = setup.context.refused(self, net::Permission::Write, "schedd"))
          return SubmitReply{false, *no, 0, 0, ""};
        // A remote submitter is the user its certificate proves, whatever
        // the request says (a local one was checked by its front end).
        if (setup.context.guard) {
          auto sender = self->current_sender();
          if (sender && sender->node() != self->system().node())
            if (auto who = setup.context.guard->identity(sender->node()))
              r.owner = who->user.substr(0, who->user.find('@'));
        }
        auto reply = submit(self, setup, r);
        if (reply.ok)
          setup.context.info("cluster " + std::to_string(reply.cluster) + ": " + std::to_string(reply.count) +
                             " jobs submitted by " + r.owner);
        else
          setup.context.warning("submission by " + r.owner + " refused: " + reply.error);
        return reply;
      },
      [self, setup](RequestsQuery& q) {
        if (setup.context.refused(self, net::Permission::Negotiator, "schedd")) return RequestsReply{};
        return requests_for(self, q);
      },
      [self, setup](QueueQuery& q) {
        if (auto no = setup.context.refused(self, net::Permission::Read, "schedd"))
          return QueueReply{false, *no, {}};
        return query(self, q);
      },
      [self, setup](MatchBatch& b) {
        if (setup.context.refused(self, net::Permission::Negotiator, "schedd")) return;
        for (MatchInfo& m : b.matches) claim(self, std::move(m), setup);
      },
      [self, setup](JobFinished& f) {
        auto it = self->state.claims.find(f.claim_id);
        if (it == self->state.claims.end() || !it->second.job) return;
        const JobId job = *it->second.job;
        it->second.job.reset();
        self->state.busy.erase(job);
        const std::int64_t now = setup.clock.now(self);
        // A quick job's exit can overtake the reply to its activation: it
        // ran, so it is started first (its events stay in order).
        if (const classad::ClassAd* ad = self->state.queue->find(job); ad && is_idle(*ad) && f.error.empty())
          self->state.queue->start(job, it->second.slot_name, now);
        if (!f.error.empty()) {
          self->state.queue->hold(job, "Error from " + it->second.slot_name + ": " + f.error,
                                  f.hold_code > 0 ? f.hold_code : kHoldStartFailed, 0, now);
        } else if (f.evicted) {
          self->state.queue->evict(job, now);
          it->second.ending = true;
        } else {
          self->state.queue->complete(job, schedd::JobExit{f.by_signal, f.code}, now);
        }
        setup.context.info("job " + job.str() + " on " + it->second.slot_name + ": " +
                           (!f.error.empty() ? "held: " + f.error
                            : f.evicted      ? std::string("evicted")
                            : f.by_signal    ? "killed by signal " + std::to_string(f.code)
                                             : "exited with code " + std::to_string(f.code)));
        changed(self, setup);
        reuse_or_release(self, f.claim_id, setup);
      },
      [self, setup](ClaimReady& r) {
        auto& st = self->state;
        if (auto early = st.claiming.find(r.claim_id); early != st.claiming.end())
          early->second.ready = std::move(r);
        else
          claim_ready(self, std::move(r), setup);
      },
      [self, setup](ClaimEnded& e) {
        auto& st = self->state;
        if (auto early = st.claiming.find(e.claim_id); early != st.claiming.end())
          early->second.ended = e.reason;
        else
          lose_claim(self, e.claim_id, "the slot ended it: " + e.reason, setup);
      },
      [self, setup](JobSuspension& s) {
        if (auto id = parse_job_id(s.job_id)) {
          const std::int64_t now = setup.clock.now(self);
          if (s.suspended ? self->state.queue->suspend(*id, now) : self->state.queue->unsuspend(*id, now))
            changed(self, setup);
        }
      },
      [self, setup](Reconfigure&) {
        auto config = setup.context.reconfiguration(self);
        if (!config) return CommandReply{false, config.error()};
        CommandReply r = reconfigure(self, std::move(*config));
        if (r.ok) setup.context.info("reconfigured");
        return r;
      },
      [self, setup](Collectors& c) {
        auto& st = self->state;
        if (!take_collectors(self, c, st.collectors)) return;
        for (const auto& [name, sub] : st.submitters) self->send(sub, c);
        if (!setup.negotiator) st.negotiator = nullptr;  // found again through the new collector
        st.dirty = true;                                 // advertise at the next tick
      },
      [self, setup](Timer) {
        if (!net::from_this_node(self)) return;  // its own clock only
        on_tick(self, setup);
        self->delayed_send(self, setup.tick_every, Timer{});
      },
  };
}

}  // namespace

Result<schedd_actor> spawn_schedd(caf::actor_system& sys, ScheddSetup setup) {
  std::string schedd_name =
      knob(*setup.config, "SCHEDD_NAME", knob(*setup.config, "FULL_HOSTNAME", "schedd"));
  auto policy = schedd::QueuePolicy::from_config(*setup.config, schedd_name);
  if (!policy) return Error{policy.error()};
  auto settings = schedd::ScheddSettings::from_config(*setup.config);
  if (!settings) return Error{settings.error()};
  return sys.spawn(schedd_behavior, std::move(schedd_name),
                   std::make_shared<schedd::QueuePolicy>(std::move(*policy)), *settings, std::move(setup));
}

}  // namespace cara::actors
