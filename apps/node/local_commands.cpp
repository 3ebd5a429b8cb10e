#include "apps/node/local_commands.h"

#include <caf/actor_system.hpp>
#include <caf/scoped_actor.hpp>

#include "actors/interfaces.h"
#include "apps/commands/queue_totals.h"
#include "model/classad/unparse.h"

namespace cara::apps {

using namespace std::chrono_literals;

namespace {

// The jobs a queue or history query's answer (`handle`) lists, as text.
template <class Handle>
nlohmann::json jobs_reply(caf::actor_system& sys, Handle&& handle, bool totals = false) {
  nlohmann::json reply = {{"ok", false}, {"error", "the schedd did not answer"}};
  handle.receive(
      [&](actors::QueueReply& r) {
        std::vector<std::string> jobs;
        for (const actors::WireAd& j : r.jobs) jobs.push_back(classad::unparse(j.ad));
        reply = {{"ok", r.ok}, {"error", r.error}, {"jobs", jobs}};
        if (totals) reply["totals"] = totals_json(r.totals);
      },
      [&](caf::error& e) { reply["error"] = "the schedd did not answer: " + sys.render(e); });
  return reply;
}

}  // namespace

nlohmann::json handle_local(caf::scoped_actor& self, const actors::schedd_actor& schedd,
                            const net::Guard& guard, const std::string& domain, const std::string& host,
                            const nlohmann::json& request, const net::LocalPeer& peer, bool certified,
                            const net::ProgressNote& note) {
  const std::string command = request.value("command", "");
  const net::Identity who{peer.user + "@" + domain, host};
  // The name jobs submitted over this connection would be owned by.
  if (command == "whoami") return {{"ok", true}, {"user", peer.user}};
  if (!schedd && (command == "submit" || command == "q" || command == "history" || command == "act"))
    return {{"ok", false}, {"error", "the schedd is not running (its master restarts it); try again"}};
  caf::actor_system& sys = self->system();
  if (command == "submit") {
    if (auto no = guard.refuse(net::Permission::Write, who, "schedd (local)"))
      return {{"ok", false}, {"error", *no}};
    // Never root's jobs, whatever its account is called (HTCondor's
    // condor_submit refuses uid 0 too).
    if (peer.uid == 0 && !certified)
      return {{"ok", false},
              {"error", "submitting jobs as root (uid 0) is not allowed, for security reasons"}};
    actors::SubmitRequest r;
    r.description = request.value("description", "");
    r.label = request.value("label", "");
    r.owner = peer.user;  // the kernel's word, not the request's
    r.iwd = request.value("iwd", "");
    r.environment = request.value("environment", std::vector<std::string>{});
    r.appends = request.value("appends", std::vector<std::string>{});
    r.queue = request.value("queue", "");
    nlohmann::json reply = {{"ok", false}, {"error", "the schedd did not answer"}};
    auto answered = [&](actors::SubmitReply& s) {
      reply = {{"ok", s.ok},       {"error", s.error},     {"cluster", s.cluster},
               {"count", s.count}, {"warning", s.warning}, {"at_commit", s.at_commit}};
    };
    if (!note || !request.value("progress", false)) {
      self->request(schedd, 30s, std::move(r)).receive(answered, [&](caf::error& e) {
        reply["error"] = "the schedd did not answer: " + sys.render(e);
      });
      return reply;
    }
    // With progress: the schedd's notes and then its answer, as they come
    // (a request's receive would hold the notes back until the answer).
    r.progress = caf::actor_cast<actors::submit_progress_actor>(self);
    self->send(schedd, std::move(r));
    for (bool waiting = true; waiting;) {
      self->receive(
          [&](actors::SubmitProgress& p) {
            note({{"built", p.built}, {"total", p.total}});
          },
          [&](actors::SubmitReply& s) { answered(s), waiting = false; },
          caf::after(30s) >> [&] { waiting = false; });
    }
    return reply;
  }
  if (command == "q") {
    if (auto no = guard.refuse(net::Permission::Read, who, "schedd (local)"))
      return {{"ok", false}, {"error", *no}};
    actors::QueueQuery q;
    q.constraint = request.value("constraint", "");
    q.projection = request.value("projection", std::vector<std::string>{});
    // "totals_for": USER asks for the totals of USER's jobs and of all.
    if (auto it = request.find("totals_for"); it != request.end() && it->is_string()) {
      q.totals = true;
      q.owner = it->get<std::string>();
    }
    const bool totals = q.totals;
    return jobs_reply(sys, self->request(schedd, 30s, std::move(q)), totals);
  }
  if (command == "history") {
    if (auto no = guard.refuse(net::Permission::Read, who, "schedd (local)"))
      return {{"ok", false}, {"error", *no}};
    actors::HistoryQuery h;
    h.constraint = request.value("constraint", "");
    h.projection = request.value("projection", std::vector<std::string>{});
    h.limit = request.value("limit", std::int64_t{0});
    return jobs_reply(sys, self->request(schedd, 30s, std::move(h)));
  }
  if (command == "act") {
    if (auto no = guard.refuse(net::Permission::Write, who, "schedd (local)"))
      return {{"ok", false}, {"error", *no}};
    // The asker is the kernel's word (root is a queue super user by default).
    actors::JobActionRequest r{request.value("action", ""), request.value("constraint", ""),
                               request.value("reason", ""), peer.user, request.value("mine_only", false)};
    nlohmann::json reply = {{"ok", false}, {"error", "the schedd did not answer"}};
    self->request(schedd, 30s, std::move(r))
        .receive(
            [&](actors::JobActionReply& a) {
              reply = {{"ok", a.ok}, {"error", a.error}, {"done", a.done}, {"refused", a.refused}};
            },
            [&](caf::error& e) { reply["error"] = "the schedd did not answer: " + sys.render(e); });
    return reply;
  }
  return {{"ok", false},
          {"error", "unknown command '" + command + "'; expected submit, q, history, act or whoami"}};
}

}  // namespace cara::apps
