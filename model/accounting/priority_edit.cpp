#include "model/accounting/priority_edit.h"

#include <array>
#include <utility>

namespace cara::accounting {
namespace {

constexpr std::array<std::pair<PriorityEditKind, std::string_view>, 9> kWords = {{
    {PriorityEditKind::SetFactor, "setfactor"},
    {PriorityEditKind::SetPriority, "setprio"},
    {PriorityEditKind::SetAccumulated, "setaccum"},
    {PriorityEditKind::SetFloor, "setfloor"},
    {PriorityEditKind::SetCeiling, "setceil"},
    {PriorityEditKind::ResetUsage, "resetusage"},
    {PriorityEditKind::Delete, "delete"},
    {PriorityEditKind::SetBegin, "setbegin"},
    {PriorityEditKind::SetLast, "setlast"},
}};

}  // namespace

Result<PriorityEditKind> parse_priority_edit_kind(std::string_view word) {
  for (const auto& [kind, name] : kWords)
    if (name == word) return kind;
  return Error{"unknown userprio command '" + std::string(word) +
               "' (expected setfactor, setprio, setaccum, setfloor, setceil, resetusage, delete, setbegin or "
               "setlast)"};
}

std::string_view to_string(PriorityEditKind kind) {
  for (const auto& [k, name] : kWords)
    if (k == kind) return name;
  return "?";
}

Status apply(Accountant& accountant, const PriorityEdit& e, std::int64_t now) {
  switch (e.kind) {
    case PriorityEditKind::SetFactor: return accountant.set_factor(e.name, e.value);
    case PriorityEditKind::SetPriority: return accountant.set_priority(e.name, e.value);
    case PriorityEditKind::SetAccumulated: return accountant.set_accumulated_usage(e.name, e.value);
    case PriorityEditKind::SetFloor: return accountant.set_floor(e.name, e.value, e.duration, now);
    case PriorityEditKind::SetCeiling: return accountant.set_ceiling(e.name, e.value, e.duration, now);
    case PriorityEditKind::ResetUsage: return accountant.reset_usage(e.name, now);
    case PriorityEditKind::Delete: return accountant.remove(e.name);
    case PriorityEditKind::SetBegin:
      return accountant.set_begin_usage(e.name, static_cast<std::int64_t>(e.value));
    case PriorityEditKind::SetLast:
      return accountant.set_last_usage(e.name, static_cast<std::int64_t>(e.value));
  }
  return Error{"unknown userprio command"};
}

}  // namespace cara::accounting
