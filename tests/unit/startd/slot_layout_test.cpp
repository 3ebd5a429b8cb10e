// Machine resources and slot layouts (policy-configuration, "Dividing
// System Resources in Multi-core Machines"), with the spec's examples and
// the thesis's execution machine.
#include "tests/unit/startd/support.h"

using namespace cara;
using namespace cara::startd;
using namespace cara::startd::test;

TEST_CASE("detected resources, overridden by configuration", "[startd][resources]") {
  auto h = machine_host(8, 16000, 500000, 2048);
  auto m = machine_resources(startd_config("", h));
  REQUIRE(m.ok());
  CHECK(m->total.cpus == 8);
  CHECK(m->total.memory == 16000);
  CHECK(m->total.disk == 500000);
  CHECK(m->detected.swap == 2048);
  auto o = machine_resources(startd_config("NUM_CPUS = 24 + 1\nMEMORY = 64000\nDISK = 1000\n", h));
  REQUIRE(o.ok());
  CHECK(o->total.cpus == 25);
  CHECK(o->detected.cpus == 8);
  CHECK(o->total.memory == 64000);
  CHECK(o->total.disk == 1000);
  // RESERVED_DISK (MiB) is kept back from the detected disk (KiB), not from DISK.
  auto r = machine_resources(startd_config("RESERVED_DISK = 100\n", h));
  REQUIRE(r.ok());
  CHECK(r->total.disk == 500000 - 100 * 1024);
  CHECK(r->detected.disk == 500000);
  CHECK(machine_resources(startd_config("RESERVED_DISK = 1000\n", h))->total.disk == 0);
  CHECK(machine_resources(startd_config("RESERVED_DISK = 100\nDISK = 1000\n", h))->total.disk == 1000);
  CHECK_THAT(machine_resources(startd_config("RESERVED_DISK = -5\n", h)).error(),
             Catch::Contains("RESERVED_DISK"));
  CHECK_THAT(machine_resources(startd_config("NUM_CPUS = lots\n", h)).error(), Catch::Contains("NUM_CPUS"));
  CHECK_THAT(machine_resources(startd_config("NUM_CPUS = 0\n", h)).error(), Catch::Contains("at least 1"));
}

TEST_CASE("custom resources: counts, identifiers, MACHINE_RESOURCE_NAMES", "[startd][resources]") {
  auto h = machine_host(4, 8000);
  // The spec's example.
  auto m = machine_resources(startd_config("MACHINE_RESOURCE_Cogs = 16\nMACHINE_RESOURCE_actuator = 8\n", h));
  REQUIRE(m.ok());
  REQUIRE(m->custom.size() == 2);
  CHECK(m->custom[m->custom_index("cogs")].quantity == 16);
  CHECK(m->custom[m->custom_index("Actuator")].quantity == 8);
  auto g = machine_resources(startd_config("MACHINE_RESOURCE_GPUs = CUDA0, CUDA1, CUDA2\n", h));
  REQUIRE(g.ok());
  CHECK(g->custom[0].name == "GPUs");
  CHECK(g->custom[0].quantity == 3);
  CHECK(g->custom[0].ids == std::vector<std::string>{"CUDA0", "CUDA1", "CUDA2"});
  auto only = machine_resources(startd_config(
      "MACHINE_RESOURCE_NAMES = Cogs\nMACHINE_RESOURCE_Cogs = 2\nMACHINE_RESOURCE_Other = 3\n", h));
  REQUIRE(only.ok());
  CHECK(only->custom.size() == 1);
  CHECK_THAT(machine_resources(startd_config("MACHINE_RESOURCE_X = \"a b\" (\n", h)).error(),
             Catch::Contains("MACHINE_RESOURCE_X"));
}

TEST_CASE("by default one partitionable slot holds everything", "[startd][slots]") {
  auto plans = layout("", machine_host(4, 8192));
  REQUIRE(plans.ok());
  REQUIRE(plans->size() == 1);
  CHECK((*plans)[0].partitionable);
  CHECK((*plans)[0].resources.cpus == 4);
  CHECK((*plans)[0].resources.memory == 8192);
}

TEST_CASE("NUM_SLOTS divides the machine evenly, never beyond its CPUs", "[startd][slots]") {
  auto plans = layout("NUM_SLOTS = 4\n", machine_host(4, 8192, 4000));
  REQUIRE(plans.ok());
  REQUIRE(plans->size() == 4);
  for (const SlotPlan& p : *plans) {
    CHECK(!p.partitionable);
    CHECK(p.resources.cpus == 1);
    CHECK(p.resources.memory == 2048);
    CHECK(p.resources.disk == 1000);
  }
  CHECK((*plans)[3].id == 4);
  CHECK_THAT(layout("NUM_SLOTS = 5\n", machine_host(4, 8192)).error(),
             Catch::Contains("NUM_SLOTS = 5") && Catch::Contains("NUM_CPUS = 4"));
}

TEST_CASE("FEATURE : StaticSlots makes one single-core slot per CPU", "[startd][slots]") {
  auto plans = layout("use FEATURE : StaticSlots\n", machine_host(6, 6000));
  REQUIRE(plans.ok());
  REQUIRE(plans->size() == 6);
  CHECK((*plans)[5].resources.cpus == 1);
  CHECK((*plans)[5].resources.memory == 1000);
}

TEST_CASE("the spec's slot type definitions", "[startd][slots]") {
  // "a machine with 4 cores and 256 Mbytes of RAM": types 1-3 are
  // equivalent to each other, as are types 4-6.
  auto h = machine_host(4, 256, 1000, 1000);
  auto m = machine_resources(startd_config("", h));
  REQUIRE(m.ok());
  auto resolve = [&](const std::string& spec) {
    auto plans = layout("SLOT_TYPE_1 = " + spec + "\nNUM_SLOTS_TYPE_1 = 1\n", h);
    INFO(spec);
    REQUIRE(plans.ok());
    return (*plans)[0].resources;
  };
  for (const char* spec : {"cpus=2, ram=128, swap=25%, disk=1/2", "cpus=1/2, memory=128, virt=25%, disk=50%",
                           "c=1/2, m=50%, v=1/4, disk=1/2"}) {
    Resources r = resolve(spec);
    CHECK(r.cpus == 2);
    CHECK(r.memory == 128);
    CHECK(r.swap == 250);
    CHECK(r.disk == 500);
  }
  for (const char* spec : {"c=25%, m=64, v=1/4, d=25%", "25%", "1/4"}) {
    Resources r = resolve(spec);
    CHECK(r.cpus == 1);
    CHECK(r.memory == 64);
    CHECK(r.swap == 250);
    CHECK(r.disk == 250);
  }
  // "all the following definitions result in the same allocation amount"
  // on a machine with 128 Mbytes of RAM (one slot: auto takes it all).
  auto small = machine_host(1, 128);
  for (const char* spec : {"mem=64", "mem=1/2", "mem=50%"}) {
    auto plans = layout(std::string("SLOT_TYPE_1 = ") + spec + "\nNUM_SLOTS_TYPE_1 = 1\n", small);
    REQUIRE(plans.ok());
    CHECK((*plans)[0].resources.memory == 64);
  }
}

TEST_CASE("auto shares divide what explicit shares leave", "[startd][slots]") {
  // "if one slot is defined to use 10% of the memory and the rest define it
  // as auto, then the rest of the slots will evenly divide 90%".
  auto plans = layout(
      "SLOT_TYPE_1 = mem=10%, cpus=1\nNUM_SLOTS_TYPE_1 = 1\n"
      "SLOT_TYPE_2 = cpus=1\nNUM_SLOTS_TYPE_2 = 3\n",
      machine_host(4, 1000));
  REQUIRE(plans.ok());
  REQUIRE(plans->size() == 4);
  CHECK((*plans)[0].resources.memory == 100);
  for (int i = 1; i < 4; ++i) CHECK((*plans)[i].resources.memory == 300);
  // "cpus=1, disk=auto, 50%": one core, disk auto, everything else half.
  auto blanket =
      layout("SLOT_TYPE_1 = cpus=1, disk=auto, 50%\nNUM_SLOTS_TYPE_1 = 1\n", machine_host(4, 1000, 800));
  REQUIRE(blanket.ok());
  CHECK((*blanket)[0].resources.cpus == 1);
  CHECK((*blanket)[0].resources.memory == 500);
  CHECK((*blanket)[0].resources.disk == 800);
}

TEST_CASE("custom resources in slot types, with identifiers handed out", "[startd][slots]") {
  // The spec's Cogs/actuator example.
  auto plans = layout(
      "MACHINE_RESOURCE_Cogs = 16\nMACHINE_RESOURCE_actuator = 8\n"
      "SLOT_TYPE_1 = cogs=50%,actuator=6,50%\nSLOT_TYPE_1_PARTITIONABLE = TRUE\nNUM_SLOTS_TYPE_1 = 1\n"
      "SLOT_TYPE_2 = cogs=25%,actuator=1,25%\nSLOT_TYPE_2_PARTITIONABLE = FALSE\nNUM_SLOTS_TYPE_2 = 2\n",
      machine_host(8, 8000));
  REQUIRE(plans.ok());
  REQUIRE(plans->size() == 3);
  auto m = machine_resources(
      startd_config("MACHINE_RESOURCE_Cogs = 16\nMACHINE_RESOURCE_actuator = 8\n", machine_host(8, 8000)));
  const auto cogs = static_cast<std::size_t>(m->custom_index("cogs"));
  const auto actuator = static_cast<std::size_t>(m->custom_index("actuator"));
  CHECK((*plans)[0].partitionable);
  CHECK((*plans)[0].resources.custom[cogs] == 8);
  CHECK((*plans)[0].resources.custom[actuator] == 6);
  CHECK((*plans)[0].resources.cpus == 4);
  CHECK((*plans)[1].resources.custom[cogs] == 4);
  CHECK((*plans)[1].resources.custom[actuator] == 1);
  CHECK(!(*plans)[2].partitionable);
  CHECK((*plans)[2].resources.cpus == 2);
  auto gpus = layout("MACHINE_RESOURCE_GPUs = CUDA0, CUDA1\nNUM_SLOTS = 2\n", machine_host(2, 2000));
  REQUIRE(gpus.ok());
  CHECK((*gpus)[0].custom_ids[0] == std::vector<std::string>{"CUDA0"});
  CHECK((*gpus)[1].custom_ids[0] == std::vector<std::string>{"CUDA1"});
}

TEST_CASE("the thesis's execution machine: a 24/25 partitionable slot and a 1/25 static slot",
          "[startd][slots]") {
  auto plans = layout(
      "NUM_CPUS = 24 + 1\nNUM_SLOTS=2\n"
      "NUM_SLOTS_TYPE_1 = 1\nSLOT_TYPE_1 = 24/25\nSLOT_TYPE_1_PARTITIONABLE = true\n"
      "NUM_SLOTS_TYPE_2 = 1\nSLOT_TYPE_2 = cpu=1, 1/25\nSLOT_TYPE_2_PARTITIONABLE = false\n",
      machine_host(24, 100000, 2500000));
  REQUIRE(plans.ok());
  REQUIRE(plans->size() == 2);
  CHECK((*plans)[0].id == 1);
  CHECK((*plans)[0].partitionable);
  CHECK((*plans)[0].resources.cpus == 24);
  CHECK((*plans)[0].resources.memory == 96000);
  CHECK((*plans)[0].resources.disk == 2400000);
  CHECK((*plans)[1].id == 2);
  CHECK(!(*plans)[1].partitionable);
  CHECK((*plans)[1].resources.cpus == 1);
  CHECK((*plans)[1].resources.memory == 4000);
}

TEST_CASE("impossible configurations are refused, naming what cannot be satisfied", "[startd][slots]") {
  auto h = machine_host(4, 1000);
  CHECK_THAT(layout("SLOT_TYPE_1 = cpus=3\nNUM_SLOTS_TYPE_1 = 2\n", h).error(),
             Catch::Contains("ask for 6 CPUs") && Catch::Contains("the machine has 4"));
  CHECK_THAT(layout("SLOT_TYPE_1 = mem=60%\nNUM_SLOTS_TYPE_1 = 2\n", h).error(), Catch::Contains("memory"));
  CHECK_THAT(layout("NUM_SLOTS_TYPE_1 = 1\n", h).error(), Catch::Contains("SLOT_TYPE_1 is not defined"));
  CHECK_THAT(layout("SLOT_TYPE_1 = flux=2\nNUM_SLOTS_TYPE_1 = 1\n", h).error(),
             Catch::Contains("unknown resource 'flux'"));
  CHECK_THAT(layout("SLOT_TYPE_1 = cpus=150%\nNUM_SLOTS_TYPE_1 = 1\n", h).error(),
             Catch::Contains("percentage"));
  CHECK_THAT(layout("SLOT_TYPE_1 = 3/2\nNUM_SLOTS_TYPE_1 = 1\n", h).error(),
             Catch::Contains("not a fraction"));
  CHECK_THAT(layout("SLOT_TYPE_1 = 1/2, 1/4\nNUM_SLOTS_TYPE_1 = 1\n", h).error(),
             Catch::Contains("more than one share"));
  CHECK_THAT(
      layout("SLOT_TYPE_1 = cpus=4\nNUM_SLOTS_TYPE_1 = 1\nSLOT_TYPE_2 = mem=1/4\nNUM_SLOTS_TYPE_2 = 1\n", h)
          .error(),
      Catch::Contains("slot 2 (SLOT_TYPE_2) would get no CPU"));
  CHECK_THAT(layout("SLOT_TYPE_1 = 1/4\nNUM_SLOTS_TYPE_1 = -1\n", h).error(),
             Catch::Contains("must not be negative"));
  CHECK(layout("SLOT_TYPE_1 = cpus=1\nNUM_SLOTS_TYPE_1 = 0\n", h).ok());  // zero of a type: the default slot
}

TEST_CASE("per-slot and per-type knobs", "[startd][slots]") {
  config::Config c =
      startd_config("START = A\nSLOT_TYPE_1_START = B\nSLOT2_START = C\n", machine_host(2, 100));
  CHECK(slot_knob(c, 1, 1, "START") == "SLOT_TYPE_1_START");
  CHECK(slot_knob(c, 2, 1, "START") == "SLOT2_START");
  CHECK(slot_knob(c, 3, 2, "START") == "START");
  CHECK(slot_knob(c, 3, 0, "START") == "START");
}
