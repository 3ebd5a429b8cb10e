#include "actors/web_source.h"

#include <caf/actor_system.hpp>
#include <caf/event_based_actor.hpp>

#include "actors/ha_link.h"
#include "actors/ha_messages.h"
#include "actors/messages.h"
#include "actors/negotiator_lookup.h"

namespace cara::actors {
namespace {

using collector::AdType;

collector_actor first_collector(const WebSourceSetup& setup) {
  if (!setup.collectors) return {};
  for (const collector_actor& c : setup.collectors())
    if (c) return c;
  return {};
}

std::vector<classad::ClassAd> ads_of(AdQueryReply& reply) {
  std::vector<classad::ClassAd> out;
  out.reserve(reply.ads.size());
  for (WireAd& w : reply.ads) out.push_back(std::move(w.ad));
  return out;
}

// One fetch's answers as they come; the last one calls `done`.
struct Gathering {
  monitor::PoolView view;
  std::size_t waiting = 0;
  std::string error;  // the first failure
  std::function<void(Result<monitor::PoolView>)> done;
  caf::event_based_actor* self = nullptr;

  void failed(const std::string& why) {
    if (error.empty()) error = why;
  }
  void finish_one() {
    if (--waiting > 0) return;
    if (error.empty())
      done(std::move(view));
    else
      done(Error{error});
    self->quit();
  }
};

void ask_groups(const std::shared_ptr<Gathering>& g, const WebSourceSetup& setup, const negotiator_actor& n) {
  ++g->waiting;
  g->self->request(n, setup.timeout, UserprioQuery{})
      .then(
          [g](UserprioReply& r) {
            for (WireAd& w : r.groups) g->view.groups.push_back(std::move(w.ad));
            g->finish_one();
          },
          // A negotiator that does not answer leaves the groups' quotas out;
          // the rest of the view stands.
          [g](caf::error&) { g->finish_one(); });
}

void ask_ads(const std::shared_ptr<Gathering>& g, const WebSourceSetup& setup, const collector_actor& c,
             AdType type, std::vector<std::string> projection) {
  ++g->waiting;
  g->self
      ->request(c, setup.timeout,
                AdQueryRequest{static_cast<std::int32_t>(type), {}, std::move(projection), false})
      .then(
          [g, setup, type](AdQueryReply& r) {
            if (!r.ok) {
              g->failed("the collector refused: " + r.error);
              return g->finish_one();
            }
            if (type == AdType::Negotiator)
              if (auto n = newest_negotiator(r)) ask_groups(g, setup, n->negotiator);
            std::vector<classad::ClassAd> ads = ads_of(r);
            monitor::PoolView& v = g->view;
            switch (type) {
              case AdType::Machine: v.live.slots = std::move(ads); break;
              case AdType::Submitter: v.live.submitters = std::move(ads); break;
              case AdType::Negotiator: v.live.negotiators = std::move(ads); break;
              case AdType::Scheduler: v.schedulers = std::move(ads); break;
              case AdType::Master: v.masters = std::move(ads); break;
              case AdType::Collector: v.collectors = std::move(ads); break;
              case AdType::Accounting: v.accounting = std::move(ads); break;
              case AdType::Defrag: break;
            }
            g->finish_one();
          },
          [g](caf::error& e) {
            g->failed("the collector did not answer: " + caf::to_string(e));
            g->finish_one();
          });
}

void ask_had(const std::shared_ptr<Gathering>& g, const WebSourceSetup& setup, const had_actor& had) {
  ++g->waiting;
  g->self->request(had, setup.timeout, HadStatusQuery{})
      .then(
          [g](HadStatus& s) {
            g->view.ha = monitor::HaRole{s.member, s.active, s.term, s.since};
            g->finish_one();
          },
          [g](caf::error&) { g->finish_one(); });  // a had restarting: no role to show
}

// The fetches are function-based actors with their inputs as spawn
// arguments: CAF 0.17 dereferences a null argument tuple when a lambda
// with no arguments is spawned (UBSan reports it).
void view_fetch(caf::event_based_actor* self, WebSourceSetup setup, collector_actor c,
                std::function<void(Result<monitor::PoolView>)> done) {
  auto g = std::make_shared<Gathering>();
  g->self = self;
  g->done = std::move(done);
  g->view.now = setup.clock.now(self);
  g->waiting = 1;  // the setup below; released after every question is out
  // Slot ads are the bulk of a large pool: only what the summary reads.
  ask_ads(g, setup, c, AdType::Machine, {"Name", "Machine", "State", "Activity", "Cpus"});
  for (AdType t : {AdType::Submitter, AdType::Negotiator, AdType::Scheduler, AdType::Master,
                   AdType::Collector, AdType::Accounting})
    ask_ads(g, setup, c, t, {});
  if (setup.ha)
    if (auto had = setup.ha->had()) ask_had(g, setup, had);
  g->finish_one();
}

void history_fetch(caf::event_based_actor* self, WebSourceSetup setup, collector_actor c, PoolHistoryQuery q,
                   std::function<void(Result<std::vector<classad::ClassAd>>)> done) {
  self->request(c, setup.timeout, std::move(q))
      .then(
          [self, done](AdQueryReply& r) {
            if (!r.ok)
              done(Error{r.error});
            else
              done(ads_of(r));
            self->quit();
          },
          [self, done](caf::error& e) {
            done(Error{"the collector did not answer: " + caf::to_string(e)});
            self->quit();
          });
}

}  // namespace

void fetch_pool_view(caf::actor_system& sys, const WebSourceSetup& setup,
                     std::function<void(Result<monitor::PoolView>)> done) {
  const collector_actor c = first_collector(setup);
  if (!c) return done(Error{"this node has no collector running"});
  sys.spawn(view_fetch, setup, c, std::move(done));
}

void fetch_pool_history(caf::actor_system& sys, const WebSourceSetup& setup, std::int64_t from,
                        std::int64_t to, std::string constraint,
                        std::function<void(Result<std::vector<classad::ClassAd>>)> done) {
  const collector_actor c = first_collector(setup);
  if (!c) return done(Error{"this node has no collector running"});
  sys.spawn(history_fetch, setup, c, PoolHistoryQuery{from, to, std::move(constraint), {}}, std::move(done));
}

}  // namespace cara::actors
