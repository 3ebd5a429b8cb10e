// condor_rm, condor_hold and condor_release on a queue (issue 23): the
// jobs a constraint selects, each changed when its state allows and the
// asker owns it or is a queue super user.
#include "model/schedd/job_actions.h"

#include <catch2/catch.hpp>

#include "model/schedd/job_counts.h"
#include "unit/schedd/support.h"

using namespace cara;
using namespace cara::schedd;
using namespace cara::schedd_test;

namespace {

JobActionReport act(Queue& q, JobAction a, const std::string& constraint, const std::string& user = "cms001",
                    bool superuser = false, const std::string& reason = "") {
  auto r = act_on_jobs(*q.queue, JobActionRequest{a, constraint, reason, user, superuser}, kT0 + 50);
  if (!r) FAIL(r.error());
  return *r;
}

}  // namespace

TEST_CASE("hold, release and remove change the selected jobs and say why", "[schedd][actions]") {
  Queue q;
  REQUIRE(q.submit(kExe + "queue 3\n"));
  REQUIRE(q.queue->start({1, 1}, "slot1@ep", kT0 + 10));

  JobActionReport held = act(q, JobAction::Hold, "ClusterId == 1");
  CHECK(strs(held.done) == std::vector<std::string>{"1.0", "1.1", "1.2"});
  CHECK(held.refused.empty());
  const classad::ClassAd& running = *q.queue->find({1, 1});
  CHECK(value(running, "JobStatus") == "5");
  // HTCondor's wording and code for condor_hold: UserRequest (1).
  CHECK(value(running, "HoldReason") == "\"via condor_hold (by user cms001)\"");
  CHECK(value(running, "HoldReasonCode") == "1");
  // The run it was in counts (the transition ends it).
  CHECK(value(running, "RemoteWallClockTime") == "40.0");

  JobActionReport released = act(q, JobAction::Release, "ProcId == 0", "cms001", false, "fixed the input");
  CHECK(strs(released.done) == std::vector<std::string>{"1.0"});
  CHECK(value(*q.queue->find({1, 0}), "ReleaseReason") == "\"fixed the input\"");
  CHECK(value(*q.queue->find({1, 0}), "JobStatus") == "1");

  // Releasing an idle job is refused with the state it is in; the held
  // ones are released.
  JobActionReport again = act(q, JobAction::Release, "true");
  CHECK(strs(again.done) == std::vector<std::string>{"1.1", "1.2"});
  REQUIRE(again.refused.size() == 1);
  CHECK(again.refused[0].first.str() == "1.0");
  CHECK(again.refused[0].second == "job 1.0 is Idle; release applies only to a job that is Held");

  JobActionReport removed = act(q, JobAction::Remove, "ProcId >= 1");
  CHECK(strs(removed.done) == std::vector<std::string>{"1.1", "1.2"});
  CHECK(value(*q.queue->find({1, 2}), "RemoveReason") == "\"via condor_rm (by user cms001)\"");
  CHECK(q.queue->take_finished().size() == 2);
}

TEST_CASE("only a job's owner or a queue super user may change it", "[schedd][actions]") {
  Queue q;
  REQUIRE(q.submit(kExe + "queue 2\n"));  // owned by cms001
  JobActionReport other = act(q, JobAction::Remove, "true", "alice");
  CHECK(other.done.empty());
  REQUIRE(other.refused.size() == 2);
  CHECK(other.refused[1].second == "permission denied: it belongs to cms001");
  CHECK(q.queue->find({1, 0}) != nullptr);

  // -all: only one's own, the others passed over without a word.
  auto all = act_on_jobs(*q.queue, JobActionRequest{JobAction::Hold, "true", "", "alice", false, true}, kT0);
  REQUIRE(all);
  CHECK(all->done.empty());
  CHECK(all->refused.empty());

  JobActionReport root = act(q, JobAction::Hold, "ProcId == 1", "root", true);
  CHECK(strs(root.done) == std::vector<std::string>{"1.1"});
  CHECK(is_queue_super_user({"root", "condor"}, "condor"));
  CHECK_FALSE(is_queue_super_user({"root", "condor"}, "alice"));
}

TEST_CASE("a job action needs a constraint that parses", "[schedd][actions]") {
  Queue q;
  REQUIRE(q.submit(kExe + "queue 1\n"));
  auto none = act_on_jobs(*q.queue, JobActionRequest{JobAction::Hold, "", "", "cms001", false}, kT0);
  REQUIRE_FALSE(none);
  CHECK(none.error() == "no jobs named: give a job, a cluster, a user or a constraint");
  auto bad =
      act_on_jobs(*q.queue, JobActionRequest{JobAction::Hold, "ClusterId ==", "", "cms001", false}, kT0);
  REQUIRE_FALSE(bad);
  CHECK(bad.error().find("constraint") != std::string::npos);
  // Nothing selected is no error: the report is empty.
  CHECK(act(q, JobAction::Hold, "ClusterId == 7").done.empty());
  CHECK(parse_job_action("hold").value() == JobAction::Hold);
  CHECK_FALSE(parse_job_action("vacate"));
}

TEST_CASE("the schedd's totals count every job by status, and the asker's", "[schedd][q]") {
  Queue q;
  REQUIRE(q.submit(kExe + "queue 3\n"));  // cms001's
  q.ctx.owner = "alice";
  REQUIRE(q.submit(kExe + "queue 2\n"));
  CHECK(act(q, JobAction::Hold, "ProcId == 1", "root", true).done.size() == 2);
  CHECK(act(q, JobAction::Remove, "ClusterId == 1 && ProcId == 2", "root", true).done.size() == 1);
  // total, completed, removed, idle, running, held, suspended: the removed
  // job counts until the schedd moves it to the history.
  QueueTotals t = queue_totals(*q.queue, "cms001");
  CHECK(t.owner == JobCounts{3, 0, 1, 1, 0, 1, 0});
  CHECK(t.all == JobCounts{5, 0, 1, 2, 0, 2, 0});
  CHECK(q.queue->take_finished().size() == 1);
  t = queue_totals(*q.queue, "cms001");
  CHECK(t.owner == JobCounts{2, 0, 0, 1, 0, 1, 0});
  CHECK(t.all == JobCounts{4, 0, 0, 2, 0, 2, 0});
  CHECK(queue_totals(*q.queue, "nobody").owner == JobCounts{});
  CHECK(queue_totals(*q.queue, "alice").owner == JobCounts{2, 0, 0, 1, 0, 1, 0});
}
