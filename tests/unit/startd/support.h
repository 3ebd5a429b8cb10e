// Helpers for startd tests: a machine of known size and configurations read
// from text.
#pragma once

#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "model/config/config.h"
#include "model/config/config_host.h"
#include "model/startd/resources.h"
#include "model/startd/slot_layout.h"

namespace cara::startd::test {

// A host whose machine has `cpus` CPUs, `memory` MiB, `disk` KiB.
inline std::shared_ptr<config::MemoryHost> machine_host(std::int64_t cpus, std::int64_t memory,
                                                        std::int64_t disk = 1000000, std::int64_t swap = 0) {
  auto h = std::make_shared<config::MemoryHost>();
  config::MachineFacts f;
  f.full_hostname = "node1.example.org";
  f.hostname = "node1";
  f.detected_cpus = f.detected_physical_cpus = cpus;
  f.detected_memory_mib = memory;
  f.detected_disk_kib = disk;
  f.detected_swap_kib = swap;
  h->set_machine(f);
  return h;
}

inline config::Config startd_config(const std::string& text, std::shared_ptr<config::MemoryHost> h) {
  auto c = config::config_from_text(text, config::DaemonIdentity{"STARTD", ""}, h);
  INFO(text);
  if (!c) FAIL(c.error());
  return std::move(*c);
}

// The slots `text` lays out on `h`'s machine, or the error.
inline Result<std::vector<SlotPlan>> layout(const std::string& text, std::shared_ptr<config::MemoryHost> h) {
  config::Config c = startd_config(text, h);
  auto m = machine_resources(c);
  if (!m) return Error{m.error()};
  return plan_slots(c, *m);
}

}  // namespace cara::startd::test
