#include "model/claim/claimed_slot.h"

#include "model/classad/eval.h"

namespace cara::claim {
namespace {

std::int64_t start_time(const classad::ClassAd& ad) {
  classad::Value v = classad::evaluate_attr(ad, "DaemonStartTime");
  return v.is_int() ? v.as_int() : 0;
}

bool named(const classad::ClassAd& ad, const std::string& name) {
  classad::Value v = classad::evaluate_attr(ad, "Name");
  return v.is_string() && v.as_string() == name;
}

}  // namespace

std::string machine_of(const std::string& slot_name) {
  const auto at = slot_name.find('@');
  return at == std::string::npos ? slot_name : slot_name.substr(at + 1);
}

ClaimedSlot find_claimed_slot(const std::string& slot_name, const std::vector<classad::ClassAd>& ads) {
  const std::string machine = machine_of(slot_name);
  if (ads.empty()) return {SlotSearch::Unknown, 0, "the collector has no ad of " + machine};
  std::int64_t newest = 0;
  for (const classad::ClassAd& ad : ads) newest = std::max(newest, start_time(ad));
  for (std::size_t i = 0; i < ads.size(); ++i) {
    if (!named(ads[i], slot_name)) continue;
    if (start_time(ads[i]) < newest)
      return {SlotSearch::Gone, 0, "the startd of " + machine + " restarted since the claim was made"};
    return {SlotSearch::Found, i, {}};
  }
  return {SlotSearch::Gone, 0, machine + " no longer has " + slot_name};
}

}  // namespace cara::claim
