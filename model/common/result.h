// Result<T>: a value or an error message, for fallible operations at the
// model's boundaries (parsing, validation). Error messages name the input
// (file:line, attribute, argument) and say what was expected.
// [[nodiscard]]: a dropped Result is a dropped error; the caller handles
// it or logs what was lost (issue 20).
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace cara {

struct Error {
  std::string message;
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Error e) : v_(std::move(e)) {}      // NOLINT

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  const std::string& error() const { return std::get<1>(v_).message; }

 private:
  std::variant<T, Error> v_;
};

// The result of an operation that yields nothing but may fail.
struct Ok {};
using Status = Result<Ok>;

}  // namespace cara
