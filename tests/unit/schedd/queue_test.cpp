// The job queue: submissions through the policy, the order idle jobs are
// offered in, autoclusters, and cluster skipping.
#include <catch2/catch.hpp>

#include "model/classad/parser.h"
#include "model/schedd/autocluster.h"
#include "model/schedd/job_order.h"
#include "model/schedd/job_queue.h"
#include "model/schedd/schedd_settings.h"
#include "model/schedd/submission.h"
#include "unit/schedd/support.h"

using namespace cara;
using namespace cara::schedd;
using namespace cara::schedd_test;

namespace {

std::vector<std::string> ids(const std::vector<const classad::ClassAd*>& jobs) {
  std::vector<std::string> out;
  for (const classad::ClassAd* j : jobs) out.push_back(job_id(*j).str());
  return out;
}

std::vector<std::string> drain(IdleJobCursor cursor, const std::set<std::string>& unmatched) {
  std::vector<std::string> offered;
  while (const classad::ClassAd* j = cursor.next()) {
    offered.push_back(job_id(*j).str());
    if (unmatched.count(offered.back())) cursor.no_match();
  }
  return offered;
}

classad::ClassAd ad(const std::string& text) {
  return *classad::parse_classad(text);
}

}  // namespace

TEST_CASE("submissions get successive clusters and a 000 event per job", "[schedd][queue]") {
  Queue q;
  auto first = q.submit(kExe + "log = a.log\nqueue 2\n");
  REQUIRE(first);
  CHECK(first->cluster == 1);
  CHECK(first->count == 2);
  auto second = q.submit(kExe + "queue\n");
  REQUIRE(second);
  CHECK(second->cluster == 2);
  CHECK(q.queue->size() == 3);
  auto events = q.queue->take_events();
  REQUIRE(events.size() == 3);
  CHECK(events[0].log == "/home/cms001/a.log");
  CHECK(format_user_log_event(events[1].event) ==
        "000 (001.001.000) 08/23 04:53:20 Job submitted from host: <10.0.0.1:9618>\n...\n");
  CHECK(events[2].log.empty());
  CHECK(q.queue->take_events().empty());
  // A job of another cluster is refused.
  q.ctx.cluster_id = 9;
  auto wrong = q.queue->submit(q.ok(kExe + "queue\n"), kT0);
  REQUIRE_FALSE(wrong);
  CHECK_THAT(wrong.error(), Catch::Contains("does not belong to cluster 3"));
  CHECK_FALSE(q.queue->start({7, 0}, "h", kT0));
  CHECK(q.queue->start({7, 0}, "h", kT0).error() == "no job 7.0 in the queue");
}

TEST_CASE("a rejected cluster leaves the queue and the cluster counter unchanged", "[schedd][queue]") {
  Queue q("SUBMIT_REQUIREMENT_NAMES = Mem\nSUBMIT_REQUIREMENT_Mem = RequestMemory >= 1024\n");
  auto r = q.submit(kExe + "request_memory = 512\nqueue 5\n");
  REQUIRE_FALSE(r);
  CHECK(q.queue->size() == 0);
  CHECK(q.queue->next_cluster_id() == 1);
  CHECK(q.queue->take_events().empty());
}

TEST_CASE("idle jobs are offered by JobPrio, then QDate, then ClusterId and ProcId",
          "[schedd][queue][order]") {
  Queue q;
  REQUIRE(q.submit(kExe + "queue 2\n", kT0 + 100));                 // 1.0 1.1
  REQUIRE(q.submit(kExe + "queue 2\n", kT0));                       // 2.0 2.1: older
  REQUIRE(q.submit(kExe + "priority = 5\nqueue 1\n", kT0 + 200));   // 3.0: higher priority
  REQUIRE(q.submit(kExe + "priority = -1\nqueue 1\n", kT0 - 500));  // 4.0: lower priority
  REQUIRE(q.submit(kExe + "queue\n", kT0));                         // 5.0: same QDate as 2
  REQUIRE(q.queue->start({2, 0}, "slot1@ep", kT0 + 300));           // running: not offered
  const std::string me = "cms001@physik.rwth-aachen.de";
  CHECK(ids(q.queue->idle_jobs(me)) == std::vector<std::string>{"3.0", "2.1", "5.0", "1.0", "1.1", "4.0"});
  CHECK(q.queue->idle_jobs("someone@else").empty());
  CHECK(q.queue->submitters() == std::vector<std::string>{me});
}

TEST_CASE("the submitter is the accounting group joined to the UID domain", "[schedd][queue]") {
  Queue q;
  REQUIRE(q.submit(kExe + "accounting_group = group_cms.cms\nqueue\n"));
  REQUIRE(q.submit(kExe + "accounting_group = group_cms\naccounting_group_user = alice\nqueue\n"));
  REQUIRE(q.submit(kExe + "queue\n"));
  CHECK(q.queue->submitters() == std::vector<std::string>{"cms001@physik.rwth-aachen.de",
                                                          "group_cms.alice@physik.rwth-aachen.de",
                                                          "group_cms.cms.cms001@physik.rwth-aachen.de"});
}

TEST_CASE("after a no-match the rest of the cluster is skipped", "[schedd][queue][cluster-skipping]") {
  const std::string me = "cms001@physik.rwth-aachen.de";
  SECTION("by default a cluster is a ClusterId") {
    Queue q;
    REQUIRE(q.submit(kExe + "queue 3\n"));
    REQUIRE(q.submit(kExe + "queue 2\n"));
    CHECK(drain(q.queue->negotiation_cursor(me), {"1.0"}) == std::vector<std::string>{"1.0", "2.0", "2.1"});
    CHECK(drain(q.queue->negotiation_cursor(me), {"1.1"}) ==
          std::vector<std::string>{"1.0", "1.1", "2.0", "2.1"});
  }
  SECTION("NEGOTIATE_ALL_JOBS_IN_CLUSTER offers every job") {
    Queue q("NEGOTIATE_ALL_JOBS_IN_CLUSTER = True\n");
    REQUIRE(q.submit(kExe + "queue 3\n"));
    CHECK(drain(q.queue->negotiation_cursor(me), {"1.0", "1.1"}) ==
          std::vector<std::string>{"1.0", "1.1", "1.2"});
  }
  SECTION("with SIGNIFICANT_ATTRIBUTES a cluster is an autocluster") {
    Queue q("SIGNIFICANT_ATTRIBUTES = RequestMemory\n");
    // One ClusterId, two autoclusters; the second ClusterId joins the first
    // autocluster.
    REQUIRE(q.submit(kExe + "request_memory = $(Item)\nqueue Item in (1000, 2000, 3000)\n"));
    REQUIRE(q.submit(kExe + "request_memory = 1000\nqueue 1\n"));
    CHECK(drain(q.queue->negotiation_cursor(me), {"1.0"}) == std::vector<std::string>{"1.0", "1.1", "1.2"});
    // 2.0 is alike 1.0 (same significant attributes) and is skipped.
  }
}

TEST_CASE("autoclusters group idle jobs by their significant attributes", "[schedd][autocluster]") {
  const std::string me = "cms001@physik.rwth-aachen.de";
  Queue q;
  REQUIRE(q.submit(kExe + "request_memory = 2000\nqueue 4\n"));
  REQUIRE(
      q.submit(kExe + "request_memory = 2000\narguments = other\nqueue 3\n"));  // args are not significant
  REQUIRE(q.submit(kExe + "request_memory = 4000\nqueue 2\n"));
  REQUIRE(q.submit(kExe + "request_memory = 2000\npriority = 10\nqueue 1\n"));
  const auto requests = q.queue->resource_requests(me, SignificantAttributes{});
  REQUIRE(requests.size() == 2);
  // In offer order: the priority-10 job's autocluster comes first.
  CHECK(job_id(*requests[0].job).str() == "4.0");
  CHECK(requests[0].count == 8);
  CHECK(requests[1].count == 2);
  CHECK(value(*requests[1].job, "RequestMemory") == "4000");
  // Each request names its jobs in offer order.
  std::vector<std::string> ids;
  for (const JobId& id : requests[1].jobs) ids.push_back(id.str());
  CHECK(ids == std::vector<std::string>{"3.0", "3.1"});
  CHECK(requests[0].jobs.front().str() == "4.0");
  // Jobs being claimed for are left out (the schedd's busy jobs).
  const auto rest =
      q.queue->resource_requests(me, SignificantAttributes{}, [](JobId id) { return id.cluster == 3; });
  REQUIRE(rest.size() == 1);
  CHECK(rest[0].count == 8);
}

TEST_CASE("a negotiator's NEGOTIATOR_JOB_CONSTRAINT: only the jobs it is true of are requested",
          "[schedd][autocluster][shards]") {
  const std::string me = "cms001@physik.rwth-aachen.de";
  Queue q;
  REQUIRE(q.submit(kExe + "request_memory = 2000\n+WantGPU = true\nqueue 2\n"));
  REQUIRE(q.submit(kExe + "request_memory = 2000\nqueue 3\n"));
  auto gpu = classad::parse_expression("WantGPU =?= true");
  auto cpu = classad::parse_expression("WantGPU =!= true && time() > 0");
  REQUIRE(gpu);
  REQUIRE(cpu);
  // The negotiator's significant attributes include what its constraint
  // reads, so the shards' jobs are apart already; the constraint is
  // applied to each job anyway.
  const auto mine = q.queue->resource_requests(me, SignificantAttributes{}, {}, gpu->get(), kT0);
  REQUIRE(mine.size() == 1);
  CHECK(mine[0].count == 2);
  CHECK(mine[0].jobs.front().str() == "1.0");
  const auto others = q.queue->resource_requests(me, SignificantAttributes{}, {}, cpu->get(), kT0);
  std::int64_t count = 0;
  for (const auto& r : others) count += r.count;
  CHECK(count == 3);
  CHECK(q.queue->resource_requests(me, SignificantAttributes{}, {}, cpu->get(), 0).empty());  // time() is now
}

TEST_CASE("the idle jobs and requests the queue keeps follow every change of a job",
          "[schedd][autocluster]") {
  const std::string me = "cms001@physik.rwth-aachen.de";
  Queue q;
  REQUIRE(q.submit(kExe + "request_memory = 2000\nqueue 3\n"));
  auto count = [&] {
    const auto r = q.queue->resource_requests(me, SignificantAttributes{});
    return r.empty() ? 0 : r[0].count;
  };
  CHECK(count() == 3);
  CHECK(q.queue->submitters() == std::vector<std::string>{me});
  // Running: not idle, but still the submitter's; its run changed its ad.
  REQUIRE(q.queue->start(JobId{1, 0}, "slot1@ep", kT0 + 1));
  CHECK(count() == 2);
  CHECK(ids(q.queue->idle_jobs(me)) == std::vector<std::string>{"1.1", "1.2"});
  // Evicted: idle again, in its place in the offer order.
  REQUIRE(q.queue->evict(JobId{1, 0}, kT0 + 2));
  CHECK(count() == 3);
  CHECK(ids(q.queue->idle_jobs(me)) == std::vector<std::string>{"1.0", "1.1", "1.2"});
  // Held and removed jobs are no one's requests; a removed one leaves.
  REQUIRE(q.queue->hold(JobId{1, 1}, "test", 1, 0, kT0 + 3));
  REQUIRE(q.queue->remove(JobId{1, 2}, "test", kT0 + 3));
  CHECK(count() == 1);
  q.queue->take_finished();
  REQUIRE(q.queue->remove(JobId{1, 0}, "test", kT0 + 4));
  q.queue->take_finished();
  CHECK(count() == 0);
  CHECK(q.queue->submitters().empty());
  std::vector<std::string> visited;
  REQUIRE(q.queue->release(JobId{1, 1}, "test", kT0 + 5));
  q.queue->for_each_idle_job(me, [&](const classad::ClassAd& j) {
    visited.push_back(job_id(j).str());
    return true;
  });
  CHECK(visited == std::vector<std::string>{"1.1"});
}

TEST_CASE("the default significant attributes are what slot and negotiator expressions read",
          "[schedd][autocluster]") {
  classad::ClassAd slot =
      ad("[ Memory = 4096; Cpus = 4; Department = \"physics\";"
         "  START = TARGET.Owner != \"chris\" && Department == \"physics\" && (WantGPU =?= true || Cpus > 0);"
         "  Rank = TARGET.JobPrio ]");
  auto preempt = classad::parse_expression("MY.RemoteUserPrio > TARGET.SubmitterUserPrio * 1.2");
  REQUIRE(preempt);
  SignificantAttributes sig = SignificantAttributes::from_slots({&slot}, {preempt->get()});
  std::vector<std::string> names(sig.names().begin(), sig.names().end());
  // Department, Memory and Cpus are the slot's own; WantGPU is unscoped
  // and absent from the slot, so it is the job's.
  CHECK(names == std::vector<std::string>{"JobPrio", "Owner", "SubmitterUserPrio", "WantGPU"});

  AutoclusterIndex index(sig);
  const auto job = [](const std::string& extra) {
    return ad(
        "[ Owner = \"ann\"; Requirements = TARGET.Memory >= RequestMemory && MY.Need; Need = true;"
        "  RequestMemory = 100; RequestCpus = 1; Rank = 0.0; Cmd = \"/bin/a\"" +
        extra + " ]");
  };
  const int base = index.assign(job(""));
  CHECK(index.assign(job("; Cmd = \"/bin/b\"")) == base);     // not significant
  CHECK(index.assign(job("; Owner = \"bob\"")) != base);      // the slot reads it
  CHECK(index.assign(job("; RequestMemory = 200")) != base);  // Request* always
  CHECK(index.assign(job("; RequestGPUs = 1")) != base);      // any Request*
  CHECK(index.assign(job("; Need = false")) != base);         // the job's Requirements read it
  CHECK(index.assign(job("; WantGPU = true")) != base);
  CHECK(index.assign(job("; Rank = Memory")) != base);
  CHECK(index.assign(job("; JobPrio = 3")) != base);
  CHECK(index.assign(job("; owner = \"ann\"")) == base);  // names are case-insensitive
  CHECK(index.size() == 8);
}

TEST_CASE("finished jobs leave the queue in the order they finished", "[schedd][queue]") {
  Queue q;
  REQUIRE(q.submit(kExe + "queue 4\n"));
  const JobId a{1, 0}, b{1, 1}, c{1, 2}, d{1, 3};
  REQUIRE(q.queue->start(c, "slot1@ep", kT0 + 1));
  REQUIRE(q.queue->complete(c, JobExit{false, 0}, kT0 + 2));
  REQUIRE(q.queue->remove(a, "by the user", kT0 + 3));
  REQUIRE(q.queue->start(b, "slot2@ep", kT0 + 4));  // running: stays
  auto gone = q.queue->take_finished();
  REQUIRE(gone.size() == 2);
  CHECK(job_id(gone[0]) == c);
  CHECK(job_id(gone[1]) == a);
  CHECK(q.queue->size() == 2);
  CHECK(q.queue->find(b));
  CHECK(q.queue->find(d));
  CHECK(q.queue->take_finished().empty());  // each job once
}

TEST_CASE("the owner is the submitting user: never root, and no transform changes it",
          "[schedd][queue][owner]") {
  Queue q;
  q.ctx.owner = "root";
  auto as_root = q.submit(kExe + "queue\n");
  REQUIRE_FALSE(as_root);
  CHECK_THAT(as_root.error(), Catch::Contains("submitting jobs as root is not allowed"));
  CHECK(q.queue->jobs().empty());

  Queue t(
      "JOB_TRANSFORM_NAMES = Impersonate\n"
      "JOB_TRANSFORM_Impersonate @=end\n"
      "   SET Owner = \"alice\"\n"
      "@end\n");
  auto changed = t.submit(kExe + "queue\n");
  REQUIRE_FALSE(changed);
  CHECK_THAT(changed.error(), Catch::Contains("changed Owner from 'cms001' to 'alice'"));
  CHECK(t.queue->jobs().empty());
  // A submit file cannot name another owner either: Owner is the user's.
  Queue own;
  auto plus = own.submit(kExe + "+Owner = \"alice\"\nqueue\n");
  REQUIRE(plus);
  CHECK(classad::unparse(*own.queue->jobs().begin()->second.find("Owner")->expr) == "\"cms001\"");
}

TEST_CASE("the schedd's name and UID_DOMAIN are resolved in one place", "[schedd][settings]") {
  auto settings = [](const std::string& text) {
    Submit s(text);
    auto r = ScheddSettings::from_config(*s.config);
    if (!r) FAIL(r.error());
    return *r;
  };
  // UID_DOMAIN defaults to $(FULL_HOSTNAME), the name to the host too.
  ScheddSettings plain = settings("FULL_HOSTNAME = ap.example.org\n");
  CHECK(plain.name == "ap.example.org");
  CHECK(plain.uid_domain == "ap.example.org");
  ScheddSettings named = settings(
      "FULL_HOSTNAME = ap.example.org\nSCHEDD_NAME = physics@ap\nUID_DOMAIN = physik.rwth-aachen.de\n");
  CHECK(named.name == "physics@ap");
  CHECK(named.uid_domain == "physik.rwth-aachen.de");
  // An empty UID_DOMAIN falls back to the schedd's name.
  CHECK(settings("SCHEDD_NAME = ap2\nUID_DOMAIN =\n").uid_domain == "ap2");
  // QUEUE_SUPER_USERS: root and condor unless configured.
  CHECK(plain.super_users == std::set<std::string>{"root", "condor"});
  CHECK(settings("QUEUE_SUPER_USERS = root, cmsadmin\n").super_users ==
        std::set<std::string>{"root", "cmsadmin"});
}

TEST_CASE("submit_description parses, builds and queues one cluster, or leaves the queue as it was",
          "[schedd][submit]") {
  Queue q(
      "SUBMIT_REQUIREMENT_NAMES = NoCustom\nSUBMIT_REQUIREMENT_NoCustom = custom_ClassAd_attr =!= true\n"
      "SUBMIT_REQUIREMENT_NoCustom_REASON = \"no custom attributes here\"\n");
  const SubmitSite site{"physik.rwth-aachen.de", &*q.config, q.host.get()};
  Submission s{fixture("thesis/testjob.submit"), "testjob.submit", {}, "", "cms001", "/home/cms001", {}};
  auto refused = submit_description(*q.queue, s, site, kT0);
  REQUIRE_FALSE(refused);
  CHECK(refused.error == "no custom attributes here");
  CHECK(refused.at_commit);  // the submit requirement refused it, not its description
  CHECK(q.queue->size() == 0);
  CHECK(q.queue->next_cluster_id() == 1);
  s.appends = {"+custom_ClassAd_attr = false"};
  s.queue = "2";
  auto ok = submit_description(*q.queue, s, site, kT0);
  REQUIRE(ok);
  CHECK(ok.submitted->cluster == 1);
  CHECK(ok.submitted->count == 2);
  const classad::ClassAd* job = q.queue->find(JobId{1, 1});
  REQUIRE(job);
  CHECK(string_attr(*job, "User") == "cms001@physik.rwth-aachen.de");
  CHECK(string_attr(*job, "Iwd") == "/home/cms001");
  // A malformed description names its label and line.
  s.description = "queue 1 2 3 4\n";
  s.appends.clear();
  s.queue.clear();
  auto bad = submit_description(*q.queue, s, site, kT0);
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error, Catch::Contains("testjob.submit, line 1"));
  CHECK_FALSE(bad.at_commit);
  // MAX_JOBS_PER_SUBMISSION (20000 by default): refused before a job is made.
  s.description = "executable = /bin/true\nqueue 15000\nqueue 5001\n";
  auto many = submit_description(*q.queue, s, site, kT0);
  REQUIRE_FALSE(many);
  CHECK(many.error ==
        "testjob.submit, line 3: the submission would queue more than MAX_JOBS_PER_SUBMISSION = 20000 jobs");
  s.description = "executable = /bin/true\nqueue 15000\nqueue 5000\n";
  CHECK(submit_description(*q.queue, s, site, kT0));
}

TEST_CASE("building a submission tells its progress against the whole, about a hundred times",
          "[schedd][submit]") {
  Queue q("");
  const SubmitSite site{"pool", &*q.config, q.host.get()};
  // Two queue statements and rows: the whole is known before the first job.
  Submission s{"executable = /bin/true\nqueue 1500\narguments = $(x)\nqueue x in (a, b, c)\nqueue 497\n",
               "big.sub",
               {},
               "",
               "alice",
               "/tmp",
               {}};
  std::vector<std::pair<std::int64_t, std::int64_t>> told;
  auto ok = submit_description(*q.queue, s, site, kT0, [&](std::int64_t built, std::int64_t total) {
    told.emplace_back(built, total);
  });
  REQUIRE(ok);
  CHECK(ok.submitted->count == 2000);
  REQUIRE(told.size() == 100);  // every 20 jobs, the last one included
  for (std::size_t i = 0; i < told.size(); ++i) {
    CHECK(told[i].second == 2000);
    CHECK(told[i].first == static_cast<std::int64_t>(i + 1) * 20);
  }
  // A refused description (over MAX_JOBS_PER_SUBMISSION) builds nothing
  // and tells nothing; a small one tells each job.
  told.clear();
  s.description = "executable = /bin/true\nqueue 20001\n";
  CHECK_FALSE(submit_description(*q.queue, s, site, kT0,
                                 [&](std::int64_t b, std::int64_t t) { told.emplace_back(b, t); }));
  CHECK(told.empty());
  s.description = "executable = /bin/true\nqueue 3\n";
  REQUIRE(submit_description(*q.queue, s, site, kT0,
                             [&](std::int64_t b, std::int64_t t) { told.emplace_back(b, t); }));
  CHECK(told == std::vector<std::pair<std::int64_t, std::int64_t>>{{1, 3}, {2, 3}, {3, 3}});
}
