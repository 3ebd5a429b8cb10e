// libFuzzer target for the configuration reader: any text must load or be
// refused with an error naming a line; every value of a loaded
// configuration must expand and convert without crashing.
#include <cstdint>
#include <memory>
#include <string>

#include "model/config/config.h"
#include "model/config/config_host.h"

using namespace cara::config;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  auto host = std::make_shared<MemoryHost>();
  // Includes of the text itself exercise the nesting limit.
  host->add_file("/fuzz/main.config", text);
  host->add_file("/fuzz/other.config", "OTHER = $(A) $(B)\n");
  LoadOptions options;
  options.config_file = "/fuzz/main.config";
  options.who = {"NEGOTIATOR", "LOCAL"};
  auto config = load_config(options, host);
  if (!config) {
    if (config.error().empty()) std::abort();  // errors must say something
    return 0;
  }
  // The input's own definitions (and what they reach through macros): the
  // built-in defaults, the same for every input, are the configuration
  // tests' to check, and converting all of them for each input made this
  // fuzzer manage a few hundred inputs a second.
  for (const Definition* d : config->macros().all()) {
    if (d->origin.file.rfind("/fuzz/", 0) != 0) continue;
    (void)config->value(d->name);
    (void)config->integer(d->name);
    (void)config->boolean(d->name);
    (void)config->expression(d->name);
    (void)config->list(d->name);
  }
  return 0;
}
