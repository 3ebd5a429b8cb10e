// Helpers shared by the accountant's tests: its configuration from text.
#pragma once

#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "model/accounting/accountant_config.h"
#include "model/config/config.h"
#include "model/config/config_host.h"

namespace cara::accounting_test {

// The accountant's configuration of a negotiator configured by `text`,
// in UID_DOMAIN physik.rwth-aachen.de (the thesis's site).
inline accounting::AccountantConfig config_of(const std::string& text) {
  auto c = config::config_from_text("UID_DOMAIN = physik.rwth-aachen.de\n" + text, {"NEGOTIATOR", ""},
                                    std::make_shared<config::MemoryHost>());
  if (!c) FAIL(c.error());
  auto a = accounting::AccountantConfig::from_config(*c);
  if (!a) FAIL(a.error());
  return *a;
}

}  // namespace cara::accounting_test
