// Helpers shared by the schedd model tests: submit text to job ads with
// a configuration, as condor_submit would make them, and a queue to
// submit them to.
#pragma once

#include <catch2/catch.hpp>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "model/classad/eval.h"
#include "model/classad/unparse.h"
#include "model/config/config.h"
#include "model/config/config_host.h"
#include "model/schedd/job_builder.h"
#include "model/schedd/job_queue.h"
#include "model/schedd/submit_description.h"

namespace cara::schedd_test {

using namespace cara::schedd;

inline std::string fixture(const std::string& name) {
  std::ifstream in(std::string(CARA_FIXTURES) + "/" + name);
  REQUIRE(in);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Submit {
  std::shared_ptr<config::MemoryHost> host = std::make_shared<config::MemoryHost>();
  std::optional<config::Config> config;
  SubmitContext ctx;

  // `config_text` is read as the schedd's configuration (SCHEDD.*
  // prefixes apply), after the built-in defaults.
  explicit Submit(const std::string& config_text = "") {
    auto c = config::config_from_text(config_text, {"SCHEDD", ""}, host);
    if (!c) FAIL(c.error());
    config = std::move(*c);
    ctx.owner = "cms001";
    ctx.uid_domain = "physik.rwth-aachen.de";
    ctx.iwd = "/home/cms001";
    ctx.now = 1535000000;
    ctx.cluster_id = 1;
    ctx.label = "testjob.submit";
    ctx.config = &*config;
    ctx.files = host.get();
  }
  Result<std::vector<classad::ClassAd>> jobs(const std::string& text, std::vector<std::string> appends = {},
                                             std::string queue = {}) {
    auto d = parse_submit(text, ctx.label, appends, queue);
    if (!d) return Error{d.error()};
    return build_jobs(*d, ctx);
  }
  std::vector<classad::ClassAd> ok(const std::string& text, std::vector<std::string> appends = {},
                                   std::string queue = {}) {
    auto j = jobs(text, std::move(appends), std::move(queue));
    INFO(text);
    if (!j) FAIL(j.error());
    return std::move(*j);
  }
  std::string error(const std::string& text, std::vector<std::string> appends = {}, std::string queue = {}) {
    auto j = jobs(text, std::move(appends), std::move(queue));
    return j ? std::string("<no error>") : j.error();
  }
};

inline std::string attr(const classad::ClassAd& ad, const std::string& name) {
  const classad::Attribute* a = ad.find(name);
  return a ? classad::unparse(*a->expr) : "<none>";
}

inline std::string value(const classad::ClassAd& ad, const std::string& name) {
  return classad::unparse(classad::evaluate_attr(ad, name, nullptr, {}));
}

// Job ids as "cluster.proc" text: what a test compares.
inline std::vector<std::string> strs(const std::vector<JobId>& ids) {
  std::vector<std::string> out;
  for (const JobId& id : ids) out.push_back(id.str());
  return out;
}

inline const std::string kExe = "executable = /bin/true\n";

inline constexpr std::int64_t kT0 = 1535000000;

// A job queue of schedd ap.example.org, submitted to as Submit builds jobs.
struct Queue : Submit {
  std::optional<JobQueue> queue;
  explicit Queue(const std::string& config_text = "") : Submit(config_text) {
    auto p = QueuePolicy::from_config(*config, "ap.example.org");
    if (!p) FAIL(p.error());
    queue.emplace(std::move(*p), "<10.0.0.1:9618>");
  }
  Result<SubmitResult> submit(const std::string& text, std::int64_t now = kT0) {
    ctx.cluster_id = queue->next_cluster_id();
    ctx.now = now;
    auto jobs = this->jobs(text);
    if (!jobs) return Error{jobs.error()};
    return queue->submit(std::move(*jobs), now);
  }
};

}  // namespace cara::schedd_test
