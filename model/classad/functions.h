// The table of built-in ClassAd functions (HTCondor fnCall.cpp plus the
// compat functions condor_utils registers: stringList*, userMap, ...).
// Names are case-insensitive and resolved to ids at parse time; an unknown
// name parses fine and evaluates to error, as in HTCondor.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/classad/eval_env.h"
#include "model/classad/symbol.h"
#include "model/classad/value.h"

namespace cara::classad {

// A function's view of its call: arguments are evaluated on demand, so
// ifThenElse() and friends are lazy.
class FnArgs {
 public:
  virtual ~FnArgs() = default;
  virtual std::size_t size() const = 0;
  // Evaluates argument i in the caller's scope.
  virtual Value eval(std::size_t i) = 0;
  // For unparse(): when argument i is an attribute reference, the unparsed
  // expression it refers to ("" when the attribute does not exist);
  // nullopt when argument i is not an attribute reference.
  virtual std::optional<std::string> referenced_text(std::size_t i) = 0;
  // For eval(): parses `text` and evaluates it in the caller's scope
  // (error when it does not parse).
  virtual Value eval_text(std::string_view text) = 0;
  virtual const EvalEnv& env() const = 0;
};

// `name` is the spelling of the call, for functions that serve several names.
using BuiltinFn = Value (*)(FnArgs& args, std::string_view name);

class FunctionRegistry {
 public:
  // The process-wide table, with every built-in registered.
  static FunctionRegistry& instance();

  // Returns the id of `name`, or kUnknownFunction (expr.h).
  std::uint32_t find(std::string_view name) const;
  BuiltinFn get(std::uint32_t id) const { return fns_[id]; }

  // Adds or replaces a function. Call before parsing expressions that use
  // it; not safe concurrently with parsing.
  void add(std::string_view name, BuiltinFn fn);

  std::vector<std::string> names() const;

 private:
  FunctionRegistry();
  std::vector<std::string> names_;  // lower-cased
  std::vector<BuiltinFn> fns_;
  // Function names are case-insensitive, as symbols are, so the parser
  // resolves a call through the symbol table it already uses for names.
  std::unordered_map<Symbol, std::uint32_t> by_symbol_;
};

// Registration of each family (functions/*.cpp).
void register_type_functions(FunctionRegistry& r);
void register_string_functions(FunctionRegistry& r);
void register_list_functions(FunctionRegistry& r);
void register_math_functions(FunctionRegistry& r);
void register_time_functions(FunctionRegistry& r);
void register_regex_functions(FunctionRegistry& r);
void register_stringlist_functions(FunctionRegistry& r);
void register_version_functions(FunctionRegistry& r);
void register_misc_functions(FunctionRegistry& r);

}  // namespace cara::classad
