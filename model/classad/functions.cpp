#include "model/classad/functions.h"

#include <string>

#include "model/classad/expr.h"

namespace cara::classad {

FunctionRegistry& FunctionRegistry::instance() {
  static FunctionRegistry* registry = new FunctionRegistry;  // never destroyed
  return *registry;
}

FunctionRegistry::FunctionRegistry() {
  register_type_functions(*this);
  register_string_functions(*this);
  register_list_functions(*this);
  register_math_functions(*this);
  register_time_functions(*this);
  register_regex_functions(*this);
  register_stringlist_functions(*this);
  register_version_functions(*this);
  register_misc_functions(*this);
}

std::uint32_t FunctionRegistry::find(std::string_view name) const {
  if (name.empty()) return kUnknownFunction;
  auto it = by_symbol_.find(intern(name));
  return it == by_symbol_.end() ? kUnknownFunction : it->second;
}

void FunctionRegistry::add(std::string_view name, BuiltinFn fn) {
  std::string lower;
  for (char c : name) lower += ascii_lower(c);
  if (std::uint32_t id = find(lower); id != kUnknownFunction) {
    fns_[id] = fn;
    return;
  }
  by_symbol_.emplace(intern(lower), static_cast<std::uint32_t>(names_.size()));
  names_.push_back(std::move(lower));
  fns_.push_back(fn);
}

std::vector<std::string> FunctionRegistry::names() const {
  return names_;
}

}  // namespace cara::classad
