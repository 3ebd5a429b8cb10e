#include "apps/commands/queue_totals.h"

#include <array>
#include <utility>

namespace cara::apps {
namespace {

// Each count under its name, in condor_q's order.
std::array<std::pair<const char*, std::int64_t schedd::JobCounts::*>, 7> fields() {
  return {{{"total", &schedd::JobCounts::total},
           {"completed", &schedd::JobCounts::completed},
           {"removed", &schedd::JobCounts::removed},
           {"idle", &schedd::JobCounts::idle},
           {"running", &schedd::JobCounts::running},
           {"held", &schedd::JobCounts::held},
           {"suspended", &schedd::JobCounts::suspended}}};
}

nlohmann::json counts_json(const schedd::JobCounts& c) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, field] : fields()) j[name] = c.*field;
  return j;
}

Result<schedd::JobCounts> counts_from_json(const nlohmann::json& j, const char* part) {
  schedd::JobCounts c;
  for (const auto& [name, field] : fields()) {
    auto it = j.is_object() ? j.find(name) : j.end();
    if (!j.is_object() || it == j.end() || !it->is_number_integer())
      return Error{std::string("the schedd's totals lack a whole number '") + part + "." + name + "'"};
    c.*field = it->get<std::int64_t>();
  }
  return c;
}

}  // namespace

nlohmann::json totals_json(const schedd::QueueTotals& t) {
  return {{"owner", counts_json(t.owner)}, {"all", counts_json(t.all)}};
}

Result<schedd::QueueTotals> totals_from_json(const nlohmann::json& j) {
  schedd::QueueTotals t;
  if (!j.is_object()) return Error{"the schedd's totals are not an object"};
  auto owner = counts_from_json(j.value("owner", nlohmann::json()), "owner");
  if (!owner) return Error{owner.error()};
  auto all = counts_from_json(j.value("all", nlohmann::json()), "all");
  if (!all) return Error{all.error()};
  t.owner = *owner;
  t.all = *all;
  return t;
}

}  // namespace cara::apps
