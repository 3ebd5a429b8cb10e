// Helpers for configuration tests: configurations read from text held in a
// MemoryHost, so tests touch no real files or environment.
#pragma once

#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "model/config/config.h"
#include "model/config/config_host.h"

namespace cara::config::test {

inline std::shared_ptr<MemoryHost> host() {
  return std::make_shared<MemoryHost>();
}

// Reads `text`; the test fails if it does not load.
inline Config load(const std::string& text, std::shared_ptr<MemoryHost> h = host(),
                   DaemonIdentity who = {"TOOL", ""}) {
  auto c = config_from_text(text, who, h);
  INFO(text);
  if (!c) FAIL(c.error());
  return std::move(*c);
}

// The error reading `text` gives ("" when it loads).
inline std::string load_error(const std::string& text, std::shared_ptr<MemoryHost> h = host()) {
  auto c = config_from_text(text, DaemonIdentity{"TOOL", ""}, h);
  return c ? std::string() : c.error();
}

// The expanded value of `name`, "<undefined>" when not defined, or
// "<error: ...>".
inline std::string val(const Config& c, const std::string& name) {
  auto v = c.value(name);
  if (!v) return "<error: " + v.error() + ">";
  return v->has_value() ? **v : "<undefined>";
}

}  // namespace cara::config::test
