#include "model/negotiation/remote_attributes.h"

#include <cctype>
#include <vector>

#include "model/classad/symbol.h"
#include "model/negotiation/class_names.h"
#include "model/negotiation/slot_classes.h"

namespace cara::negotiation {

bool is_remote_attribute(std::string_view name) {
  for (std::string_view known :
       {"RemoteUserPrio", "RemoteUserResourcesInUse", "RemoteGroup", "RemoteNegotiatingGroup",
        "RemoteAutoregroup", "RemoteGroupQuota", "RemoteGroupResourcesInUse"})
    if (classad::iequals(name, known)) return true;
  return false;
}

bool is_machine_remote_prio(std::string_view name) {
  constexpr std::string_view kHead = "Slot", kTail = "_RemoteUserPrio";
  if (name.size() <= kHead.size() + kTail.size()) return false;
  if (!classad::iequals(name.substr(0, kHead.size()), kHead) ||
      !classad::iequals(name.substr(name.size() - kTail.size()), kTail))
    return false;
  for (char c : name.substr(kHead.size(), name.size() - kHead.size() - kTail.size()))
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

RemoteReads remote_reads(const ClassNames& read) {
  RemoteReads r{false, false, false};
  for (const classad::NameSet* set : {&read.names, &read.match_names}) {
    for (const std::string& n : *set) {
      if (is_remote_attribute(n)) {
        r.takeable = true;
        if (set == &read.match_names) r.untakeable = true;
      }
      if (is_machine_remote_prio(n)) r.machine = true;
    }
  }
  return r;
}

bool slots_read_remote_attributes(const SlotClasses& classes) {
  // The slots' expressions name a few hundred symbols, read again and
  // again (one list per expression followed): each is looked at once.
  std::vector<signed char> known;  // by symbol: -1 not yet, else the answer
  return classes.reads_any([&](classad::Symbol s) {
    if (known.size() <= s) known.resize(s + 1, -1);
    if (known[s] < 0) {
      const std::string_view n = classad::symbol_name(s);
      known[s] = is_remote_attribute(n) || is_machine_remote_prio(n) ? 1 : 0;
    }
    return known[s] == 1;
  });
}

}  // namespace cara::negotiation
