// Partitionable slots carve dynamic slots and get them back; consumption
// policies for the negotiator (the spec's examples).
#include "model/startd/partitionable.h"

#include "model/classad/parser.h"
#include "model/classad/unparse.h"
#include "model/startd/slot_ad.h"
#include "tests/unit/startd/machine_harness.h"

using namespace cara;
using namespace cara::startd;
using namespace cara::startd::test;

namespace {

classad::ClassAd job(const std::string& text) {
  auto ad = classad::parse_classad(text);
  REQUIRE(ad.ok());
  return std::move(*ad);
}

}  // namespace

TEST_CASE("the spec's example: a job carves slot1_1 and the rest stays available", "[startd][pslot]") {
  // "Slot1 ... cpu = 10, memory = 10240"; JobA asks 3 CPUs, 1024 MiB, 10240 KiB.
  auto h = machine_host(10, 10240, 1000000);
  config::Config c = startd_config("", h);
  auto m = machine_resources(c);
  REQUIRE(m.ok());
  auto plans = plan_slots(c, *m);
  REQUIRE(plans.ok());
  PartitionableSlot slot((*plans)[0].id, *m, (*plans)[0].resources, (*plans)[0].custom_ids);
  auto policy = CarvePolicy::from_config(c, 1, 0);
  REQUIRE(policy.ok());
  classad::ClassAd a = job("[ RequestCpus = 3; RequestMemory = 1024; RequestDisk = 10240 ]");
  classad::ClassAd slot_ad;
  auto want = slot.request_of(a, slot_ad, *policy, {});
  REQUIRE(want.ok());
  auto d = slot.carve(*want);
  REQUIRE(d);
  CHECK(d->name() == "slot1_1");
  CHECK(slot.available().cpus == 7);
  CHECK(slot.available().memory == 9216);
  CHECK(slot.available().disk == 1000000 - 10240);
  auto second = slot.carve(*want);
  REQUIRE(second);
  CHECK(second->name() == "slot1_2");
  CHECK(slot.dynamic_count() == 2);
  slot.release(*d);
  slot.release(*second);
  CHECK(slot.available().cpus == 10);
  CHECK(slot.available().memory == 10240);
  CHECK(slot.dynamic_count() == 0);
  CHECK(slot.carve(*want)->name() == "slot1_3");
}

TEST_CASE("requests are quantized by MODIFY_REQUEST_EXPR_*", "[startd][pslot]") {
  auto h = machine_host(8, 4096, 100000);
  config::Config c = startd_config("MODIFY_REQUEST_EXPR_REQUESTCPUS = quantize(RequestCpus, {2, 4})\n", h);
  auto m = machine_resources(c);
  REQUIRE(m.ok());
  PartitionableSlot slot(1, *m, m->total, {});
  auto policy = CarvePolicy::from_config(c, 1, 0);
  REQUIRE(policy.ok());
  classad::ClassAd slot_ad;
  auto want =
      slot.request_of(job("[ RequestCpus = 1; RequestMemory = 100; RequestDisk = 1 ]"), slot_ad, *policy, {});
  REQUIRE(want.ok());
  CHECK(want->cpus == 2);
  CHECK(want->memory == 128);
  CHECK(want->disk == 1024);
  auto three = slot.request_of(job("[ RequestCpus = 3; RequestMemory = 129; RequestDisk = 1025 ]"), slot_ad,
                               *policy, {});
  CHECK(three->cpus == 4);
  CHECK(three->memory == 256);
  CHECK(three->disk == 2048);
  CHECK_THAT(slot.request_of(job("[ RequestCpus = \"x\"; RequestMemory = 1; RequestDisk = 1 ]"), slot_ad,
                             *policy, {})
                 .error(),
             Catch::Contains("MODIFY_REQUEST_EXPR_REQUESTCPUS"));
}

TEST_CASE("a request that does not fit is refused, custom resources and their identifiers",
          "[startd][pslot]") {
  auto h = machine_host(4, 4096, 100000);
  config::Config c = startd_config("MACHINE_RESOURCE_GPUs = CUDA0, CUDA1\n", h);
  auto m = machine_resources(c);
  REQUIRE(m.ok());
  auto plans = plan_slots(c, *m);
  PartitionableSlot slot(1, *m, (*plans)[0].resources, (*plans)[0].custom_ids);
  auto policy = CarvePolicy::from_config(c, 1, 0);
  classad::ClassAd slot_ad;
  auto want =
      slot.request_of(job("[ RequestCpus = 1; RequestMemory = 128; RequestDisk = 1; RequestGPUs = 1 ]"),
                      slot_ad, *policy, {});
  REQUIRE(want.ok());
  CHECK(want->custom == std::vector<double>{1});
  auto a = slot.carve(*want);
  auto b = slot.carve(*want);
  REQUIRE((a && b));
  CHECK(a->custom_ids[0] == std::vector<std::string>{"CUDA0"});
  CHECK(b->custom_ids[0] == std::vector<std::string>{"CUDA1"});
  CHECK(!slot.carve(*want));  // no GPU left
  slot.release(*a);
  auto again = slot.carve(*want);
  REQUIRE(again);
  CHECK(again->custom_ids[0] == std::vector<std::string>{"CUDA0"});
  Resources huge = *want;
  huge.custom[0] = 0;
  huge.memory = 5000;
  CHECK(!slot.carve(huge));
}

TEST_CASE("consumption policies publish expressions the negotiator evaluates", "[startd][pslot]") {
  // The spec's examples: cores by request, GPUs by TARGET.RequestGpu.
  auto h = machine_host(8, 8192);
  config::Config c = startd_config(
      "MACHINE_RESOURCE_NAMES = gpus\nMACHINE_RESOURCE_gpus = 4\n"
      "SLOT_TYPE_1 = cpus=8, gpus=4\nSLOT_TYPE_1_PARTITIONABLE = True\nNUM_SLOTS_TYPE_1 = 1\n"
      "SLOT_TYPE_1_CONSUMPTION_POLICY = True\nSLOT_TYPE_1_CONSUMPTION_CPUS = TARGET.RequestCpus\n"
      "SLOT_TYPE_1_CONSUMPTION_gpus = TARGET.RequestGpu\nSLOT_WEIGHT = Cpus\n",
      h);
  auto m = machine_resources(c);
  REQUIRE(m.ok());
  auto attrs = consumption_attributes(c, *m, 1, 1);
  REQUIRE(attrs.ok());
  classad::ClassAd pslot;
  for (const auto& [name, text] : *attrs) pslot.insert(name, *classad::parse_expression(text));
  CHECK(classad::unparse(*pslot.lookup("ConsumptionCpus")) == "TARGET.RequestCpus");
  auto take = consumption(
      pslot, job("[ RequestCpus = 3; RequestMemory = 200; RequestDisk = 10; RequestGpu = 2 ]"), *m, {});
  REQUIRE(take);
  CHECK(take->cpus == 3);
  CHECK(take->memory == 256);  // the default: quantize to 128
  CHECK(take->disk == 1024);
  CHECK(take->custom == std::vector<double>{2});
  CHECK(!consumption(pslot, job("[ RequestCpus = -1 ]"), *m, {}));
  auto off = consumption_attributes(startd_config("", h), *m, 1, 1);
  REQUIRE(off.ok());
  CHECK(off->empty());
  classad::ClassAd plain;
  CHECK(!consumption(plain, job("[ RequestCpus = 1 ]"), *m, {}));
}

TEST_CASE("a partitionable slot's ad, changed in place as it carves and takes back, is the ad made anew",
          "[startd][pslot]") {
  // Each carve and each dynamic slot gone sets only the amounts the
  // partitionable slot offers (Slot::set_offered): every attribute of its
  // base ad made anew must show as made, and nothing else may come or go.
  const std::string text = "MACHINE_RESOURCE_GPUs = CUDA0, CUDA1, CUDA2\n";
  Machine m(text, 8, 16384);
  const config::Config c = startd_config(text, machine_host(8, 16384, 1000000));
  const std::size_t shown_at_start = m.startd().slot("slot1")->ad().flattened().size();
  int compared = 0;
  auto same_as_made_anew = [&] {
    m.startd().visit_slots([&](const SlotDescription& d, const Slot& shown) {
      if (d.kind != SlotKind::Partitionable) return;
      auto base = base_slot_ad(c, m.startd().machine(), d);
      REQUIRE(base.ok());
      const classad::ClassAd got = shown.ad().flattened();
      CHECK(got.size() == shown_at_start);
      for (const classad::Attribute& a : base->attributes()) {
        INFO(a.name);
        const classad::Attribute* g = got.find(a.symbol);
        REQUIRE(g != nullptr);
        CHECK(classad::unparse(*g->expr) == classad::unparse(*a.expr));
      }
      ++compared;
    });
  };
  const std::string gpu_job =
      "[ Owner = \"a\"; RequestCpus = 2; RequestMemory = 3000; RequestDisk = 100; RequestGPUs = 1 ]";
  CHECK(m.run("slot1", gpu_job, "c1") == "slot1_1");
  same_as_made_anew();
  CHECK(m.attr("slot1", "Cpus") == "6");
  CHECK(m.attr("slot1", "GPUs") == "2");
  m.tick(60);
  CHECK(m.run("slot1", "[ Owner = \"b\"; RequestCpus = 3; RequestMemory = 100; RequestDisk = 1 ]", "c2") ==
        "slot1_2");
  same_as_made_anew();
  m.send("slot1_1", JobExited{"c1"}, 600);
  m.send("slot1_1", ReleaseClaim{"c1"}, 1);
  CHECK(m.state("slot1_1") == "<gone>");
  same_as_made_anew();
  CHECK(m.attr("slot1", "Cpus") == "5");
  CHECK(m.attr("slot1", "GPUs") == "3");
  CHECK(compared == 3);
}
