// The built-in defaults (model/config/defaults.h) stand behind every
// configuration without being copied into it (issue 21: every `cara
// submit` copied all of them at its start): a name nothing defines has its
// default, a definition hides it, an erased name has neither, and the
// configuration's full list holds each name once, in canonical order.
#include "model/config/defaults.h"

#include <catch2/catch.hpp>

#include "model/config/macro_set.h"

using namespace cara::config;

TEST_CASE("the defaults table is in canonical order, which its lookup relies on", "[config][issue21]") {
  const auto table = knob_defaults();
  REQUIRE(table.size() > 100);
  for (std::size_t i = 1; i < table.size(); ++i) {
    INFO(table[i - 1].name << " before " << table[i].name);
    CHECK(canonical_less(table[i - 1].name, table[i].name));
  }
  for (const KnobDefault& d : table) {
    INFO(d.name);
    const Definition* found = knob_default(canonical_name(d.name));
    REQUIRE(found != nullptr);
    CHECK(found->name == d.name);  // as the table spells it
    CHECK(found->value == d.value);
    CHECK(found->origin.describe() == "<default>");
    CHECK(found == knob_default(canonical_name(d.name)));  // made once
    CHECK(found == knob_default(d.name));                  // spelled as the table spells it
  }
  CHECK(knob_default("machinemaxvacatetime") == knob_default("MACHINEMAXVACATETIME"));
  CHECK(knob_default("NO_SUCH_KNOB") == nullptr);
  CHECK(knob_default("no_such_knob") == nullptr);
  CHECK(knob_default("") == nullptr);
}

TEST_CASE("a macro set's defaults stand behind its definitions", "[config][issue21]") {
  MacroSet m;
  m.use_knob_defaults();
  const DaemonIdentity negotiator{"NEGOTIATOR", ""};
  REQUIRE(m.find_exact("priority_halflife") != nullptr);
  CHECK(m.find_exact("PRIORITY_HALFLIFE")->value == "86400");
  CHECK(m.find_exact("machinemaxvacatetime")->value == "600");
  // A definition hides the default; a prefixed one, for its daemon only.
  m.set("Priority_HalfLife", "3600", Origin{"a.conf", 3});
  CHECK(m.find_exact("PRIORITY_HALFLIFE")->value == "3600");
  m.set("NEGOTIATOR.NEGOTIATOR_INTERVAL", "30", Origin{"a.conf", 4});
  CHECK(m.find("NEGOTIATOR_INTERVAL", negotiator)->value == "30");
  CHECK(m.find("NEGOTIATOR_INTERVAL", DaemonIdentity{"SCHEDD", ""})->value == "60");
  // Erased: neither the definition nor the default.
  m.erase("priority_halflife");
  CHECK(m.find_exact("PRIORITY_HALFLIFE") == nullptr);
  m.erase("CLAIM_WORKLIFE");
  CHECK(m.find("CLAIM_WORKLIFE", negotiator) == nullptr);
  m.set("CLAIM_WORKLIFE", "0", Origin{"b.conf", 1});
  CHECK(m.find_exact("CLAIM_WORKLIFE")->value == "0");
  // Every name once, in canonical order: the defaults that stand, and the
  // definitions.
  const std::vector<const Definition*> all = m.all();
  for (std::size_t i = 1; i < all.size(); ++i) CHECK(canonical_less(all[i - 1]->name, all[i]->name));
  auto count = [&](std::string_view name) {
    return std::count_if(all.begin(), all.end(), [&](const Definition* d) {
      return canonical_name(d->name) == canonical_name(name);
    });
  };
  CHECK(count("PRIORITY_HALFLIFE") == 0);
  CHECK(count("CLAIM_WORKLIFE") == 1);
  CHECK(count("NEGOTIATOR_INTERVAL") == 1);
  CHECK(count("NEGOTIATOR.NEGOTIATOR_INTERVAL") == 1);
  CHECK(count("MachineMaxVacateTime") == 1);
  CHECK(all.size() == knob_defaults().size());  // one erased, one prefixed added
  // A default that stands is the one definition a lookup by name gives.
  for (const Definition* d : all)
    if (d->origin.file == "<default>") CHECK(d == m.find_exact(d->name));
  // Without defaults, a set holds only what it was given.
  MacroSet bare;
  CHECK(bare.find_exact("PRIORITY_HALFLIFE") == nullptr);
  CHECK(bare.all().empty());
}
