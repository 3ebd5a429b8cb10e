// Every message that may cross nodes survives CAF's serialization inside a
// caf::message, as the middleman sends it (STACK-NOTES.md: an unregistered
// type fails only at run time, the receiver getting an empty message). A
// message is serialized, read back, and serialized again to the same bytes;
// a few fields the protocol depends on are checked by name.
#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/binary_deserializer.hpp>
#include <caf/binary_serializer.hpp>
#include <caf/message.hpp>

#include "actor/caf_catch.h"
#include "actors/message_types.h"
#include "actors/messages.h"
#include "actors/node_messages.h"
#include "actors/queue_messages.h"
#include "model/classad/eval.h"
#include "model/classad/parser.h"

using namespace cara;
using namespace cara::actors;

namespace {

struct Wire {
  caf::actor_system_config cfg;
  std::unique_ptr<caf::actor_system> sys;
  Wire() {
    configure_actor_system(cfg);
    sys = std::make_unique<caf::actor_system>(cfg);
  }

  std::vector<char> bytes(caf::message m) {
    std::vector<char> buf;
    caf::binary_serializer sink{*sys, buf};
    auto e = sink(m);
    INFO(caf::to_string(e));
    REQUIRE(!e);
    return buf;
  }

  // `x` sent and read back: what arrives (CAF 0.17 turns an element that
  // does not load into an empty message, which no handler takes).
  template <class T>
  caf::message arrives(const T& x) {
    const std::vector<char> sent = bytes(caf::make_message(x));
    caf::message back;
    caf::binary_deserializer source{*sys, sent};
    auto e = source(back);
    INFO(caf::to_string(e));
    REQUIRE(!e);
    return back;
  }

  // `x` sent and read back as the receiving node would.
  template <class T>
  T crosses(const T& x) {
    const caf::message back = arrives(x);
    REQUIRE(back.match_elements<T>());
    CHECK(bytes(back) == bytes(caf::make_message(x)));
    return back.get_as<T>(0);
  }
};

WireAd ad(const std::string& text) {
  auto a = classad::parse_classad(text);
  REQUIRE(a.ok());
  return WireAd{std::move(*a)};
}

}  // namespace

TEST_CASE("every message type crosses nodes intact", "[actors][wire]") {
  Wire w;
  const WireAd job =
      ad("[ Owner = \"alice\"; RequestCpus = 2; Requirements = TARGET.Cpus >= MY.RequestCpus ]");
  w.crosses(AdUpdate{1, {job, job}, {nullptr, nullptr}});
  w.crosses(AdInvalidate{0, {"slot1@a", "slot2@a"}});
  w.crosses(AdQueryRequest{0, "State == \"Claimed\"", {"Name", "State"}, true});
  w.crosses(AdQueryReply{false, "no", {job}, {nullptr}});
  w.crosses(RequestsQuery{7, "alice@x", {"RequestCpus", "Owner"}, "Site == \"east\""});
  w.crosses(WireRequest{job, 12, {{1, 0}, {1, 1}}});
  w.crosses(RequestsReply{"alice@x", {WireRequest{job, 1, {{3, 4}}}}});
  w.crosses(SlotMatched{"1.1#s"});
  MatchInfo m{"1.1#s", "alice@x", "slot1@a", job, {}, {{1, 0}}, true, {"slot1_2@a", "slot1_3@a"}};
  const MatchInfo mi = w.crosses(m);
  CHECK(mi.preempting);
  CHECK(mi.preempt_dslots == std::vector<std::string>{"slot1_2@a", "slot1_3@a"});
  w.crosses(MatchBatch{{m, m}});
  w.crosses(Reschedule{"ap"});
  const ClaimSlot cs = w.crosses(ClaimSlot{"1.1#s", job, true, {}, {"slot1_2"}, true});
  CHECK(cs.preempt_dslots == std::vector<std::string>{"slot1_2"});
  CHECK(cs.leftovers);
  const ClaimReply cr = w.crosses(ClaimReply{true, "", "slot1@a", {}, job, "ep/slot1.1#s", job});
  CHECK(cr.slot_name == "slot1@a");
  CHECK(cr.leftover_claim_id == "ep/slot1.1#s");
  CHECK(classad::evaluate_attr(cr.leftover_ad.ad, "RequestCpus").as_int() == 2);
  CHECK(w.crosses(ActivateClaim{"1.1#s", job, 1001, 1002}).owner_gid == 1002);
  w.crosses(ActivateReply{false, "no claim"});
  CHECK(w.crosses(ReleaseSlot{"1.1#s", true}).at_once);
  CHECK(w.crosses(VacateRequest{"slot1_2", true}).fast);
  w.crosses(PingRequest{});
  CHECK(w.crosses(DaemonControl{"restart", "SCHEDD", true}).daemon == "SCHEDD");
  CHECK(w.crosses(PingReply{"alice@pool/h", {"READ"}, {"ADMINISTRATOR"}, {"MASTER"}}).refused.size() == 1);
  w.crosses(ClaimEnded{"1.1#s", "preempted by a better match"});
  const JobFinished f = w.crosses(JobFinished{"1.1#s", {1, 0}, true, 9, "", true, 23});
  CHECK((f.by_signal && f.code == 9 && f.evicted));
  w.crosses(JobSuspension{"1.1#s", {1, 0}, true});
  CHECK(
      w.crosses(SubmitRequest{"queue", "x.sub", "alice", "/tmp", {"A=1"}, {"+Foo = 1"}, "2500", {}}).queue ==
      "2500");
  w.crosses(SubmitReply{true, "", 4, 10, "careful", false});
  CHECK(w.crosses(SubmitProgress{1200, 20000}).total == 20000);
  CHECK(w.crosses(SubmitReply{false, "no", 0, 0, "", true}).at_commit);
  CHECK(w.crosses(QueueQuery{"JobStatus == 1", {"Owner"}, true, "alice"}).owner == "alice");
  CHECK(w.crosses(JobActionRequest{"hold", "ClusterId == 5", "disk full", "alice", true}).mine_only);
  w.crosses(JobActionReply{true, "", {"5.0"}, {"5.1: job 5.1 is Held"}});
  CHECK(w.crosses(HistoryQuery{"JobStatus == 4", {"Owner"}, 20}).limit == 20);
  CHECK(w.crosses(QueueReply{true, "", {job}, {{2, 0, 0, 1, 1, 0, 0}, {5, 1, 0, 2, 1, 1, 0}}})
            .totals.all.held == 1);
  w.crosses(UserprioQuery{});
  CHECK(w.crosses(UserprioReply{{job}, {job}, 77, {job}, {job}}).last_cycle.size() == 1);
  w.crosses(UserprioCommand{"setfactor", "alice@x", 10, 0});
  w.crosses(CommandReply{false, "refused"});
  const DrainRequest d =
      w.crosses(DrainRequest{2, false, "Defrag cm.test", "MaxJobRetirementTime == 0", true});
  CHECK((d.reason == "Defrag cm.test" && d.start == "MaxJobRetirementTime == 0" && d.resume_on_completion));
  w.crosses(ReconfigRequest{});
  w.crosses(Reconfigure{});
  w.crosses(GroupTurn{3, job});
  w.crosses(GroupQuery{});
  const SlotCall call =
      w.crosses(SlotCall{"slot1", SlotCallKind::Claim, "1.1#s", job, true, {}, {"slot1_2"}, true});
  CHECK(call.kind == SlotCallKind::Claim);
  CHECK(call.preempt_dslots == std::vector<std::string>{"slot1_2"});
  CHECK(call.leftovers);
  const SlotOrder order =
      w.crosses(SlotOrder{startd::ActionKind::HardKill,
                          "1.1#s",
                          "",
                          {},
                          startd::RunAs{true, {"alice", 1001, 1002, {1002, 7}}, true, "owner", "", ""}});
  CHECK(order.action == startd::ActionKind::HardKill);
  CHECK(order.account.account.groups == std::vector<std::uint32_t>{1002, 7});
  CHECK(order.account.switch_user);
  w.crosses(StarterExit{true, 15, "", 23});
  CHECK(w.crosses(StarterSignal{JobSignal::SoftKill}).signal == JobSignal::SoftKill);
  w.crosses(Timer{1});
  w.crosses(ViewHosts{{collector_actor{}}});
  w.crosses(Collectors{{collector_actor{}}});
}

TEST_CASE("an ad that does not parse is a deserialization error, not a half-read ad", "[actors][wire]") {
  Wire w;
  // A WireAd travels as its text: "[ x = " is no ad.
  std::vector<char> raw;
  caf::binary_serializer sink{*w.sys, raw};
  REQUIRE(!sink(std::string("[ x = ")));
  WireAd a;
  caf::binary_deserializer source{*w.sys, raw};
  auto e = source(a);
  REQUIRE(e);
  CHECK(caf::to_string(e).find("does not parse") != std::string::npos);
  CHECK(a.ad.size() == 0);
}

TEST_CASE("ads read from the wire share the trees of values spelled alike", "[actors][wire]") {
  // Two slots of one machine as a collector receives them: only the name
  // differs. What they spell alike is one tree; what is read is what the
  // plain parser reads.
  Wire w;
  auto slot = [](int n) {
    return *classad::parse_classad(
        "[ Name = \"slot" + std::to_string(n) +
        "@ep\"; OpSys = \"LINUX\"; Memory = 4096; "
        "Start = (TARGET.RequestMemory <= MY.Memory) && (TARGET.Owner != \"root\"); "
        "Env = [ A = \"x\"; B = { 1, 2 } ] ]");
  };
  const WireAd a = w.crosses(WireAd{slot(1)}), b = w.crosses(WireAd{slot(2)});
  for (const char* name : {"Start", "Env", "OpSys"}) {
    INFO(name);
    CHECK(a.ad.lookup(name).get() == b.ad.lookup(name).get());
  }
  CHECK(a.ad.lookup("Name").get() != b.ad.lookup("Name").get());
  CHECK(a.ad.same_as(slot(1)));
  CHECK(b.ad.same_as(slot(2)));
}

TEST_CASE("job ids cross typed, and one that names no job does not load", "[actors][wire]") {
  Wire w;
  const JobFinished f = w.crosses(JobFinished{"1.1#s", schedd::JobId{12, 3}, false, 0, "", false, 0});
  CHECK(f.job_id == schedd::JobId{12, 3});
  const RequestsReply r =
      w.crosses(RequestsReply{"alice@test", {WireRequest{ad("[ A = 1 ]"), 2, {{4, 0}, {4, 1}}}}});
  REQUIRE(r.requests.size() == 1);
  CHECK(r.requests[0].job_ids == std::vector<schedd::JobId>{{4, 0}, {4, 1}});
  // A malformed id does not load: nothing of the message reaches a handler.
  CHECK(w.arrives(JobSuspension{"1.1#s", schedd::JobId{0, -1}, true}).empty());
  CHECK(w.arrives(JobSuspension{"1.1#s", schedd::JobId{1, 0}, true}).match_elements<JobSuspension>());
  // The reason, as a deserializer of the id alone reports it.
  std::vector<char> buf;
  caf::binary_serializer sink{*w.sys, buf};
  schedd::JobId bad{0, -1};
  REQUIRE(!sink(bad));
  caf::binary_deserializer source{*w.sys, buf};
  CHECK_THAT(caf::to_string(source(bad)), Catch::Contains("malformed job id 0.-1"));
}
