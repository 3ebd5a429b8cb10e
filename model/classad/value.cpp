#include "model/classad/value.h"

#include <algorithm>

#include "model/classad/classad.h"

namespace cara::classad {

const char* type_name(ValueType t) {
  switch (t) {
    case ValueType::Undefined: return "undefined";
    case ValueType::Error: return "error";
    case ValueType::Boolean: return "boolean";
    case ValueType::Integer: return "integer";
    case ValueType::Real: return "real";
    case ValueType::String: return "string";
    case ValueType::List: return "list";
    case ValueType::ClassAd: return "classad";
    case ValueType::AbsTime: return "abstime";
    case ValueType::RelTime: return "reltime";
  }
  return "?";
}

namespace {
template <class T>
struct Held final : detail::Payload {
  explicit Held(T v) : value(std::move(v)) {}
  T value;
};
}  // namespace

Value Value::string(std::string s) {
  auto* owned = new Held<std::string>(std::move(s));
  Value v(ValueType::String, static_cast<std::uint32_t>(owned->value.size()));
  v.u_.s = owned->value.data();
  v.hold_ = owned;
  return v;
}

Value Value::list(ValueList items) {
  Value v(ValueType::List);
  v.hold_ = new Held<ValueList>(std::move(items));
  return v;
}

Value Value::ad(AdRef ref) {
  Value v(ValueType::ClassAd);
  v.hold_ = new Held<AdRef>(std::move(ref));
  return v;
}

const ValueList& Value::as_list() const {
  return static_cast<const Held<ValueList>*>(hold_)->value;
}

const AdRef& Value::as_ad() const {
  return static_cast<const Held<AdRef>*>(hold_)->value;
}

bool Value::number(double& out) const {
  switch (type()) {
    case ValueType::Integer: out = static_cast<double>(u_.i); return true;
    case ValueType::Real: out = u_.r; return true;
    case ValueType::Boolean: out = u_.i != 0 ? 1.0 : 0.0; return true;
    default: return false;
  }
}

bool Value::number(std::int64_t& out) const {
  switch (type()) {
    case ValueType::Integer: out = u_.i; return true;
    case ValueType::Real: {
      // Truncation as in C, but saturating instead of undefined behaviour.
      double r = u_.r;
      if (!(r == r))
        out = 0;
      else if (r >= 9.2233720368547758e18)
        out = INT64_MAX;
      else if (r <= -9.2233720368547758e18)
        out = INT64_MIN;
      else
        out = static_cast<std::int64_t>(r);
      return true;
    }
    case ValueType::Boolean: out = u_.i != 0 ? 1 : 0; return true;
    default: return false;
  }
}

bool Value::bool_equiv(bool& out) const {
  switch (type()) {
    case ValueType::Boolean: out = u_.i != 0; return true;
    case ValueType::Integer: out = u_.i != 0; return true;
    case ValueType::Real: out = u_.r != 0.0; return true;
    default: return false;
  }
}

bool Value::identical(const Value& o) const {
  if (type() != o.type()) return false;
  switch (type()) {
    case ValueType::Undefined:
    case ValueType::Error: return true;
    case ValueType::Boolean: return as_bool() == o.as_bool();
    case ValueType::Integer: return u_.i == o.u_.i;
    case ValueType::Real: return u_.r == o.u_.r;
    case ValueType::String: return as_string() == o.as_string();
    case ValueType::AbsTime: return u_.i == o.u_.i && abs_offset() == o.abs_offset();
    case ValueType::RelTime: return u_.r == o.u_.r;
    case ValueType::List: {
      const auto& a = as_list();
      const auto& b = o.as_list();
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (!a[i].identical(b[i])) return false;
      }
      return true;
    }
    case ValueType::ClassAd: return as_ad().ad->same_as(*o.as_ad().ad);
  }
  return false;
}

Value Value::detached() const {
  switch (type()) {
    case ValueType::String: return hold_ ? *this : Value::string(std::string(as_string()));
    case ValueType::List: {
      ValueList items;
      items.reserve(as_list().size());
      for (const auto& item : as_list()) items.push_back(item.detached());
      return Value::list(std::move(items));
    }
    case ValueType::ClassAd: return Value::ad(AdRef{as_ad().ad, nullptr});
    default: return *this;
  }
}

bool identical(const ValueList& a, const ValueList& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const Value& x, const Value& y) { return x.identical(y); });
}

}  // namespace cara::classad
