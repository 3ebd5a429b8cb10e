// libFuzzer target for the submit description language (condor_submit's):
// any text must parse or be refused with an error naming a line, and a
// parsed description must build its jobs or be refused likewise, without
// crashing. MAX_JOBS_PER_SUBMISSION keeps a huge queue count from being
// built (as it keeps it from a schedd).
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include "model/classad/unparse.h"
#include "model/config/config.h"
#include "model/config/config_host.h"
#include "model/schedd/job_builder.h"
#include "model/schedd/submit_description.h"

using namespace cara;

namespace {

struct Site {
  std::shared_ptr<config::MemoryHost> host = std::make_shared<config::MemoryHost>();
  std::optional<config::Config> config;
  Site() {
    host->add_file("/fuzz/items.txt", "a, 1\nb, 2\n");
    host->add_file("/fuzz/data.txt", "x\n");
    auto c = config::config_from_text("", {"SCHEDD", ""}, host);
    if (!c) std::abort();
    config = std::move(*c);
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Site site;
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto description = schedd::parse_submit(text, "fuzz.sub");
  if (!description) {
    if (description.error().empty()) std::abort();  // errors must say something
    return 0;
  }
  schedd::SubmitContext ctx;
  ctx.owner = "alice";
  ctx.uid_domain = "pool";
  ctx.iwd = "/fuzz";
  ctx.now = 1700000000;
  ctx.label = "fuzz.sub";
  ctx.config = &*site.config;
  ctx.files = site.host.get();
  ctx.max_jobs = 50;
  auto jobs = schedd::build_jobs(*description, ctx);
  if (!jobs) {
    if (jobs.error().empty()) std::abort();
    return 0;
  }
  for (const classad::ClassAd& job : *jobs) {
    (void)classad::unparse(job);
    (void)schedd::job_arguments(job);
  }
  return 0;
}
