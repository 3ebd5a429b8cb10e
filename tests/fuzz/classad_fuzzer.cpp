// libFuzzer target for the ClassAd parser and evaluator: any input must
// parse or be refused with an error, evaluate without crashing, and every
// parsed expression must survive parse(unparse(e)) unchanged.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "model/classad/eval.h"
#include "model/classad/match.h"
#include "model/classad/parser.h"
#include "model/classad/unparse.h"

using namespace cara::classad;

namespace {

// The tree does not depend on the syntax it came from, so every tree must
// come back unchanged through the new syntax. (Old syntax cannot write a
// string that ends in a backslash in mid-expression, as in HTCondor.)
void check_round_trip(const ExprTree& e) {
  std::string text = unparse(e);
  auto again = parse_expression(text);
  if (!again || !(*again)->same_as(e)) {
    std::fprintf(stderr, "round trip failed for: %s\n", text.c_str());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string input(reinterpret_cast<const char*>(data), size);
  // The first line is an expression; the rest is an ad in either syntax.
  std::size_t nl = input.find('\n');
  std::string expr_text = input.substr(0, nl);
  std::string ad_text = nl == std::string::npos ? "" : input.substr(nl + 1);

  ClassAd my;
  if (auto ad = parse_classad(ad_text)) my = std::move(*ad);
  ClassAd target;
  target.set("Memory", 4096);
  target.insert("Requirements", *parse_expression("MY.Memory >= TARGET.RequestMemory"));

  for (StringSyntax syntax : {StringSyntax::New, StringSyntax::Old}) {
    auto e = parse_expression(expr_text, syntax);
    if (!e) continue;
    check_round_trip(**e);
    Value fast = evaluate(**e, &my, &target);
    Value ref = evaluate_reference(**e, &my, &target);
    if (unparse(fast) != unparse(ref) && fast.type() != ValueType::Real) std::abort();
  }
  for (const auto& a : my.attributes()) {
    check_round_trip(*a.expr);
    (void)evaluate_attr(my, a.name, &target);
  }
  (void)symmetric_match(my, target);
  (void)rank(my, target);
  return 0;
}
