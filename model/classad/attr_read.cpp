#include "model/classad/attr_read.h"

#include "model/classad/eval.h"

namespace cara::classad {

std::string attr_string(const ClassAd& ad, std::string_view name) {
  const Value v = evaluate_attr(ad, name);
  return v.is_string() ? std::string(v.as_string()) : std::string();
}

double attr_number(const ClassAd& ad, std::string_view name) {
  const Value v = evaluate_attr(ad, name);
  if (v.is_int()) return static_cast<double>(v.as_int());
  if (v.is_real()) return v.as_real();
  return 0;
}

bool attr_bool(const ClassAd& ad, std::string_view name, bool otherwise) {
  const Value v = evaluate_attr(ad, name);
  return v.is_bool() ? v.as_bool() : otherwise;
}

}  // namespace cara::classad
