// The pool walk (class_ranks.h, candidate_queue.h; issue 30 section 3): a
// request whose job Rank is one value for every slot walks the presorted
// families together, best first, and asks a family whether it matches
// only when the walk reaches it, so it stops as soon as it has its slots.
#include "model/negotiation/class_names.h"
#include "model/negotiation/rank_views.h"
#include "tests/unit/negotiation/support.h"

using namespace cara;
using namespace cara::test;

namespace {

const std::string kAlice = "alice@example.org";

// `n` idle slots on machines that differ in KFlops (1000, then `step`
// more each), which the jobs' Requirements read: each machine is a family
// of its own.
void machines(Pool& p, int n, int step = 1, const std::string& extra = "") {
  for (int m = 0; m < n; ++m)
    p.slots.push_back(slot("slot1@m" + std::to_string(m),
                           "SlotID = 1; KFlops = " + std::to_string(1000 + step * m) + "; " + extra));
}

std::vector<std::string> matched_slots(const negotiation::CycleResult& r) {
  std::vector<std::string> out;
  for (const auto& m : r.matches) out.push_back(m.slot_name);
  return out;
}

}  // namespace

TEST_CASE("a request whose Rank is one value asks only the families the walk reaches",
          "[negotiation][issue30]") {
  Pool p("");
  machines(p, 200);
  p.submit(kAlice, 1, 3, "Requirements = TARGET.KFlops > 0");
  const auto r = p.run();
  // The best three by NEGOTIATOR_POST_JOB_RANK (KFlops - SlotID): the
  // fastest machines.
  CHECK(matched_slots(r) == std::vector<std::string>{"slot1@m199", "slot1@m198", "slot1@m197"});
  CHECK(r.stats.slot_evaluations <= 4);
  // The plain algorithm agrees, assessing every slot.
  const auto plain = p.run(false, false);
  CHECK(matched_slots(plain) == matched_slots(r));
  CHECK(plain.stats.slot_evaluations >= 200);
}

TEST_CASE("a job Rank that reads the slot ranks each family for the request", "[negotiation][issue30]") {
  Pool p("");
  machines(p, 200);
  // Prefers the slowest machine: every family is matched and ranked.
  p.submit(kAlice, 1, 1, "Requirements = TARGET.KFlops > 0; Rank = -TARGET.KFlops");
  const auto r = p.run();
  CHECK(matched_slots(r) == std::vector<std::string>{"slot1@m0"});
  CHECK(r.stats.slot_evaluations >= 200);
}

TEST_CASE("the pool walk passes over a slot the limit refuses and takes the next one",
          "[negotiation][issue30]") {
  Pool p("NEGOTIATOR_PRE_JOB_RANK = 0\n");  // KFlops alone orders the slots
  machines(p, 20, 10);
  // Second best, and two cpus: affordable when the list is made, not once
  // alice's ceiling of 2 has paid for the best.
  p.slots.push_back(slot("slot1@big", "SlotID = 1; KFlops = 1185", 2));
  REQUIRE(p.accountant.set_ceiling(kAlice, 2, std::nullopt, kNow));
  p.submit(kAlice, 1, 3, "Requirements = TARGET.KFlops > 0");
  const auto r = p.run();
  CHECK(matched_slots(r) == std::vector<std::string>{"slot1@m19", "slot1@m18"});
  REQUIRE(r.rejections.size() == 1);
  CHECK(r.rejections[0].reason == "submitter limit exceeded");
  CHECK(r.stats.candidate_lists == 1);  // both in the first list: the walk went on past the refusal
  const auto plain = p.run(false, false);
  CHECK(matched_slots(plain) == matched_slots(r));
  REQUIRE(plain.rejections.size() == 1);
  CHECK(plain.rejections[0].reason == r.rejections[0].reason);
}

TEST_CASE("the pool walk ends when nothing left is affordable, and the reason still holds",
          "[negotiation][issue30]") {
  Pool p("");
  machines(p, 200);
  REQUIRE(p.accountant.set_ceiling(kAlice, 2, std::nullopt, kNow));
  // The slower half fails the prefilter: a walk that went on would look
  // at each of them.
  p.submit(kAlice, 1, 5, "Requirements = TARGET.KFlops >= 1100");
  const auto r = p.run();
  CHECK(matched_slots(r) == std::vector<std::string>{"slot1@m199", "slot1@m198"});
  REQUIRE(r.rejections.size() == 1);
  CHECK(r.rejections[0].reason == "submitter limit exceeded");
  // Two matches and one look past the end of the walk for the reason; the
  // slower half never reached.
  CHECK(r.stats.slot_evaluations <= 5);
  CHECK(r.stats.prefiltered == 0);
  const auto plain = p.run(false, false);
  CHECK(matched_slots(plain) == matched_slots(r));
  REQUIRE(plain.rejections.size() == 1);
  CHECK(plain.rejections[0].reason == r.rejections[0].reason);
  CHECK(plain.stats.slot_evaluations >= 200);
}

// A site's slots that prefer one group's jobs (the slot's Rank reads the
// job's AcctGroupTop, and the default NEGOTIATOR_PRE_JOB_RANK reads
// My.Rank): ranked once at the value Rank takes for no job, so a job that
// gives Rank that value walks them with the pool, and one the slots prefer
// is ranked against them one by one.
namespace {

const std::string kPrefersCms = "Rank = ifThenElse(TARGET.AcctGroupTop =?= \"cms\", 10, 0)";

}  // namespace

TEST_CASE("slots whose Rank reads the job join the pool walk for jobs they rank as no job",
          "[negotiation][issue30]") {
  Pool p("");
  machines(p, 200, 1, kPrefersCms);
  p.submit(kAlice, 1, 3, "Requirements = TARGET.KFlops > 0; AcctGroupTop = \"atlas\"");
  const auto r = p.run();
  CHECK(matched_slots(r) == std::vector<std::string>{"slot1@m199", "slot1@m198", "slot1@m197"});
  // Without the rank value, every family would be assessed for the job.
  CHECK(r.stats.slot_evaluations <= 4);
  CHECK(matched_slots(p.run(false, false)) == matched_slots(r));
}

TEST_CASE("a job that may read the slot through the slots' Rank is ranked against each family",
          "[negotiation][issue30]") {
  Pool p("");
  machines(p, 200, 1, kPrefersCms);
  p.submit(kAlice, 1, 3, "Requirements = TARGET.KFlops > 0; AcctGroupTop = TARGET.Site");
  const auto r = p.run();
  CHECK(matched_slots(r) == std::vector<std::string>{"slot1@m199", "slot1@m198", "slot1@m197"});
  CHECK(r.stats.slot_evaluations >= 200);
  CHECK(matched_slots(p.run(false, false)) == matched_slots(r));
}

TEST_CASE("a job the slots' Rank prefers walks the pool in a view ranked at its value",
          "[negotiation][issue30]") {
  // The ten slowest machines prefer cms jobs: the default
  // NEGOTIATOR_PRE_JOB_RANK (10000000 * My.Rank + ...) puts them first for
  // a cms job, and last-but-equal for the others.
  Pool p("");
  for (int m = 0; m < 100; ++m)
    p.slots.push_back(slot("slot1@m" + std::to_string(m), "SlotID = 1; KFlops = " + std::to_string(1000 + m) +
                                                              (m < 10 ? "; " + kPrefersCms : std::string())));
  p.submit(kAlice, 1, 3, "Requirements = TARGET.KFlops > 0; AcctGroupTop = \"cms\"");
  p.submit("bob@example.org", 2, 3, "Requirements = TARGET.KFlops > 0; AcctGroupTop = \"atlas\"");
  const auto r = p.run();
  CHECK(r.stats.rank_views == 2);  // the base, and one at the value cms jobs give
  std::vector<std::string> alice, bob;
  for (const auto& m : r.matches) (m.submitter == kAlice ? alice : bob).push_back(m.slot_name);
  CHECK(alice == std::vector<std::string>{"slot1@m9", "slot1@m8", "slot1@m7"});
  CHECK(bob == std::vector<std::string>{"slot1@m99", "slot1@m98", "slot1@m97"});
  // Both walk the pool: a few families asked, not a hundred.
  CHECK(r.stats.slot_evaluations <= 10);
  const auto plain = p.run(false, false);
  CHECK(matched_slots(plain) == matched_slots(r));
  CHECK(plain.stats.slot_evaluations >= 190);  // each slot for each request, but those taken
}

TEST_CASE("a job Rank that reads the slot walks the pool run by run of NEGOTIATOR_PRE_JOB_RANK",
          "[negotiation][issue30]") {
  // NEGOTIATOR_PRE_JOB_RANK orders the machines by Speed, in runs of four
  // equal values; the job's Rank (KFlops, which falls as Speed rises)
  // orders each run. The walk stops in the first run.
  Pool p("NEGOTIATOR_PRE_JOB_RANK = Speed\n");
  for (int m = 0; m < 200; ++m)
    p.slots.push_back(slot("slot1@m" + std::to_string(m), "SlotID = 1; Speed = " + std::to_string(m / 4) +
                                                              "; KFlops = " + std::to_string(5000 - m)));
  p.submit(kAlice, 1, 3, "Requirements = TARGET.KFlops > 0; Rank = TARGET.KFlops");
  const auto r = p.run();
  CHECK(matched_slots(r) == std::vector<std::string>{"slot1@m196", "slot1@m197", "slot1@m198"});
  CHECK(r.stats.slot_evaluations <= 5);
  const auto plain = p.run(false, false);
  CHECK(matched_slots(plain) == matched_slots(r));
  CHECK(plain.stats.slot_evaluations >= 200);
}

TEST_CASE("busy slots whose Rank reads the job: rank preemption for the preferred, reasons for the others",
          "[negotiation][issue30]") {
  // Four busy slots running bob's jobs at CurrentRank 0 that prefer cms
  // jobs; with PREEMPTION_REQUIREMENTS False only the slots' Rank can
  // take them.
  auto pool = [](const std::string& group) {
    auto p = std::make_unique<Pool>("");
    for (int m = 0; m < 4; ++m)
      p->slots.push_back(busy_slot("slot1@m" + std::to_string(m), "bob@example.org",
                                   "SlotID = 1; KFlops = " + std::to_string(1000 + m) + "; " + kPrefersCms));
    REQUIRE(p->accountant.set_priority("bob@example.org", 100));
    p->submit(kAlice, 1, 2, "AcctGroupTop = \"" + group + "\"");
    return p;
  };
  auto cms = pool("cms");
  const auto r = cms->run();
  REQUIRE(r.matches.size() == 2);
  CHECK(r.matches[0].reason == negotiation::MatchReason::Rank);
  CHECK(r.matches[0].preempts == std::optional<std::string>("bob@example.org"));
  CHECK(matched_slots(r) == matched_slots(cms->run(false, false)));

  auto atlas = pool("atlas");
  const auto a = atlas->run(), plain = atlas->run(false, false);
  CHECK(a.matches.empty());
  REQUIRE(a.rejections.size() == 1);
  CHECK(a.rejections[0].reason == "PREEMPTION_REQUIREMENTS == False");
  CHECK(a.rejections[0].reason == plain.rejections.at(0).reason);
}

TEST_CASE("a request a concurrency limit stops looks on only for what the submitter limit refuses",
          "[negotiation][issue30]") {
  // XSW is in use up to its limit already. Alice's XSW jobs match every
  // slot: the small ones are skipped for the limit, the big one (four
  // cpus) is refused by her ceiling first — so, as in the plain
  // algorithm, a later spin tries the request again. The walk matches no
  // family it could not be refused.
  Pool p("XSW_LIMIT = 1\n");
  p.slots.push_back(
      busy_slot("slot1@busy", "bob@example.org", "SlotID = 1; KFlops = 900; ConcurrencyLimits = \"xsw\""));
  for (int m = 0; m < 12; ++m)
    p.slots.push_back(
        slot("slot1@m" + std::to_string(m), "SlotID = 1; KFlops = " + std::to_string(1000 + m)));
  p.slots.push_back(slot("slot1@big", "SlotID = 1; KFlops = 5000", 4));
  REQUIRE(p.accountant.set_ceiling(kAlice, 3, std::nullopt, kNow));
  p.submit(kAlice, 1, 5, "Requirements = TARGET.KFlops > 0; ConcurrencyLimits = \"XSW\"");
  p.submit(kAlice, 2, 2, "Requirements = TARGET.Cpus == 1");
  p.submit("carol@example.org", 3, 20, "Requirements = TARGET.Cpus == 1");
  const auto r = p.run(), plain = p.run(false, false);
  REQUIRE(r.rejections.size() == plain.rejections.size());
  for (std::size_t i = 0; i < r.rejections.size(); ++i)
    CHECK(r.rejections[i].reason == plain.rejections[i].reason);
  CHECK(r.matches.size() == plain.matches.size());
  // Tried in as many spins as the plain algorithm tries it.
  CHECK(r.stats.candidate_lists == plain.stats.candidate_lists);
  CHECK(r.stats.pie_spins == plain.stats.pie_spins);
  INFO("evaluations " << r.stats.slot_evaluations);
  CHECK(r.stats.slot_evaluations <= 20);
}

TEST_CASE("rank views are made for the values most requests give, at most four", "[negotiation][issue30]") {
  // The slots rank a job at its Prio (0 for a job without one); the
  // requests give six values, the first most often. Views for the four
  // given most; the requests of the other two are listed family by family.
  Pool p("");
  for (int m = 0; m < 40; ++m)
    p.slots.push_back(slot("slot1@m" + std::to_string(m),
                           "SlotID = 1; KFlops = " + std::to_string(1000 + m) +
                               "; Rank = ifThenElse(TARGET.Prio =?= undefined, 0, TARGET.Prio)"));
  int cluster = 0;
  for (int value = 1; value <= 6; ++value) {
    for (int copies = std::max(1, 6 - value); copies > 0; --copies) {
      ++cluster;
      p.submit("u" + std::to_string(cluster) + "@example.org", cluster, 1,
               "Requirements = TARGET.KFlops > " + std::to_string(1000 + cluster) +
                   "; Prio = " + std::to_string(value));
    }
  }
  const auto r = p.run(), plain = p.run(false, false);
  CHECK(r.stats.rank_views == 1 + static_cast<std::int64_t>(negotiation::RankViews::kMaxViews));
  // The fourteen requests with a view walk the pool (a few families
  // each); the two without one match every family (views for the values
  // given least would leave nine requests matching every family: 214).
  CHECK(r.stats.slot_evaluations <= 100);
  REQUIRE(r.matches.size() == plain.matches.size());
  for (std::size_t i = 0; i < r.matches.size(); ++i) {
    CHECK(r.matches[i].slot_name == plain.matches[i].slot_name);
    CHECK(r.matches[i].submitter == plain.matches[i].submitter);
  }
}

TEST_CASE("the pool walk passes the classes every slot has left in one step", "[negotiation][issue30]") {
  // Five machines of one slot each, five classes in the pool-wide order
  // (best first: the fastest). A class that loses its last slot leaves
  // next_open(); one that gets a slot back returns.
  Pool p("");
  machines(p, 5);
  p.submit(kAlice, 1, 1, "Requirements = TARGET.KFlops > 0");
  classad::EvalEnv env;
  env.now = kNow;
  negotiation::SlotPool pool(p.slots, p.policy, p.accountant, env);
  negotiation::ClassNames read = negotiation::class_names(p.policy, p.submitters);
  negotiation::SlotClasses classes(pool, std::move(read.names), std::move(read.match_names), true);
  negotiation::ClassRanks ranks(pool, classes, p.policy, env, true);
  const std::vector<int>& order = ranks.order(negotiation::ClassRanks::kPool);
  REQUIRE(order.size() == 5);
  CHECK(ranks.next_open(0) == 0);
  CHECK(ranks.next_open(5) == 5);
  // The two best machines' slots are taken.
  for (std::size_t pos : {0, 1}) {
    const int c = order[pos];
    classes.take(classes.head(c));
    ranks.refresh(c);
  }
  CHECK(ranks.next_open(0) == 2);
  CHECK(ranks.next_open(3) == 3);
  // The last one's too: nothing from position 4 on.
  const std::size_t last = classes.head(order[4]);
  classes.take(last);
  ranks.refresh(order[4]);
  CHECK(ranks.next_open(4) == 5);
  CHECK(ranks.next_open(3) == 3);
  // Its slot back in its class (as a partitionable slot's leftover joins
  // the class of its shape): open again.
  CHECK(classes.reclassify(last) == order[4]);
  ranks.refresh(order[4]);
  CHECK(ranks.next_open(4) == 4);
  CHECK(ranks.next_open(0) == 2);
}
