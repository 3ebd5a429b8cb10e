// The result of evaluating a ClassAd expression (HTCondor's classad::Value).
//
// A Value is small and cheap to copy: scalars are stored inline and a string
// may be a view into storage owned elsewhere (an expression's literal pool),
// so evaluating `TARGET.OpSys == "LINUX"` allocates nothing. A Value that
// must outlive the ads and expressions it came from is made independent with
// detached().
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cara::classad {

class ClassAd;
struct ScopeLink;

enum class ValueType : std::uint8_t {
  Undefined,
  Error,
  Boolean,
  Integer,
  Real,
  String,
  List,
  ClassAd,
  AbsTime,  // seconds since the epoch plus a zone offset
  RelTime,  // a signed interval in seconds
};

const char* type_name(ValueType t);

class Value;
using ValueList = std::vector<Value>;

namespace detail {
// Shared, immutable storage behind a string, list or ad value, counted
// intrusively so that a Value is three machine words.
struct Payload {
  mutable std::atomic<std::uint32_t> refs{1};
  virtual ~Payload() = default;
};
}  // namespace detail

// A nested or computed ClassAd as a value: the ad plus the lexical scope it
// was written in (for unscoped references inside it, spec "ClassAd
// mechanism": an attribute not found in a nested ad is looked up in the
// enclosing one).
struct AdRef {
  std::shared_ptr<const ClassAd> ad;
  std::shared_ptr<const ScopeLink> parent;  // null for top-level or detached ads
};

class Value {
 public:
  Value() = default;  // undefined
  Value(const Value& o) : meta_(o.meta_), u_(o.u_), hold_(o.hold_) {
    if (hold_) hold_->refs.fetch_add(1, std::memory_order_relaxed);
  }
  Value(Value&& o) noexcept : meta_(o.meta_), u_(o.u_), hold_(o.hold_) { o.hold_ = nullptr; }
  Value& operator=(const Value& o) {
    if (o.hold_) o.hold_->refs.fetch_add(1, std::memory_order_relaxed);
    release();
    meta_ = o.meta_;
    u_ = o.u_;
    hold_ = o.hold_;
    return *this;
  }
  Value& operator=(Value&& o) noexcept {
    if (this != &o) {
      release();
      meta_ = o.meta_;
      u_ = o.u_;
      hold_ = o.hold_;
      o.hold_ = nullptr;
    }
    return *this;
  }
  ~Value() { release(); }

  static Value undefined() { return Value(); }
  static Value error() { return Value(ValueType::Error); }
  static Value boolean(bool b) {
    Value v(ValueType::Boolean);
    v.u_.i = b ? 1 : 0;
    return v;
  }
  static Value integer(std::int64_t i) {
    Value v(ValueType::Integer);
    v.u_.i = i;
    return v;
  }
  static Value real(double r) {
    Value v(ValueType::Real);
    v.u_.r = r;
    return v;
  }
  // A string that owns its bytes.
  static Value string(std::string s);
  // A string viewing bytes owned elsewhere; the caller keeps them alive for
  // as long as this value (or its copies) is used.
  static Value string_view(std::string_view s) {
    Value v(ValueType::String, static_cast<std::uint32_t>(s.size()));
    v.u_.s = s.data();
    return v;
  }
  static Value list(ValueList items);
  static Value ad(AdRef ref);
  static Value abs_time(std::int64_t secs, std::int32_t offset) {
    Value v(ValueType::AbsTime, static_cast<std::uint32_t>(offset));
    v.u_.i = secs;
    return v;
  }
  static Value rel_time(double secs) {
    Value v(ValueType::RelTime);
    v.u_.r = secs;
    return v;
  }

  ValueType type() const { return static_cast<ValueType>(meta_ & 0xff); }
  bool is_undefined() const { return type() == ValueType::Undefined; }
  bool is_error() const { return type() == ValueType::Error; }
  bool is_exceptional() const { return type() <= ValueType::Error; }
  bool is_bool() const { return type() == ValueType::Boolean; }
  bool is_int() const { return type() == ValueType::Integer; }
  bool is_real() const { return type() == ValueType::Real; }
  bool is_number() const { return is_int() || is_real(); }
  bool is_string() const { return type() == ValueType::String; }
  bool is_list() const { return type() == ValueType::List; }
  bool is_ad() const { return type() == ValueType::ClassAd; }
  bool is_abs_time() const { return type() == ValueType::AbsTime; }
  bool is_rel_time() const { return type() == ValueType::RelTime; }

  // Accessors; the caller must check the type first.
  bool as_bool() const { return u_.i != 0; }
  std::int64_t as_int() const { return u_.i; }
  double as_real() const { return u_.r; }
  std::string_view as_string() const { return {u_.s, aux()}; }
  const ValueList& as_list() const;
  const AdRef& as_ad() const;
  std::int64_t abs_secs() const { return u_.i; }
  std::int32_t abs_offset() const { return static_cast<std::int32_t>(aux()); }
  double rel_secs() const { return u_.r; }

  // Integer, real or boolean as a double (old-ClassAd numeric coercion).
  bool number(double& out) const;
  // Integer, real (truncated) or boolean as an integer.
  bool number(std::int64_t& out) const;
  // Old-ClassAd truth: booleans, and numbers (non-zero is true). Strings,
  // lists, ads, undefined and error are not boolean-equivalent.
  bool bool_equiv(bool& out) const;

  // HTCondor's Value::SameAs: same type and same value (reals by ==, so
  // NaN differs from itself and 0.0 equals -0.0; strings case-sensitively).
  bool identical(const Value& other) const;

  // A copy that shares nothing with expression storage: strings are owned,
  // lists are detached element by element, ads drop their scope chain.
  Value detached() const;

 private:
  explicit Value(ValueType t, std::uint32_t aux = 0)
      : meta_(static_cast<std::uint64_t>(t) | (static_cast<std::uint64_t>(aux) << 32)) {}
  std::uint32_t aux() const { return static_cast<std::uint32_t>(meta_ >> 32); }
  void release() {
    if (hold_ && hold_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete hold_;
  }

  // Every field is a whole machine word and booleans are stored as 0/1 in
  // `i`: a Value is copied on every return, and fields written with
  // narrower stores than they are read with defeat store-to-load forwarding
  // (measured: a fifth of evaluation time, bench/RESULTS.md).
  std::uint64_t meta_ =
      0;  // ValueType in the low byte; string length or zone offset (seconds east of UTC) in the high half
  union {
    std::int64_t i;
    double r;
    const char* s;
  } u_{};
  const detail::Payload* hold_ = nullptr;  // owns string bytes, list or ad
};

// Element by element, Value::identical: the same length, each the same.
bool identical(const ValueList& a, const ValueList& b);

}  // namespace cara::classad
