// libFuzzer target for the ClassAd parser and evaluator: any input must
// parse or be refused with an error, evaluate without crashing, and every
// parsed expression must survive parse(unparse(e)) unchanged. The ad, split
// into a parent and a chained child, must behave exactly as the whole ad.
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

// The ad split in two, every other attribute in the parent, the rest in a
// child chained to it: the same ad to the language.
ClassAd chained_copy(const ClassAd& whole, ClassAd& parent) {
  ClassAd child;
  bool to_parent = true;
  for (const auto& a : whole.attributes()) {
    (to_parent ? parent : child).insert(a.name, a.expr);
    to_parent = !to_parent;
  }
  child.chain_to(parent);
  return child;
}

void check_chained(const ClassAd& whole, const ClassAd& chained, const ExprTree* e, const ClassAd& target) {
  bool same = whole.same_as(chained) && chained.same_as(whole) && whole.size() == chained.size();
  auto reparsed = parse_classad(unparse(chained));
  same = same && reparsed && reparsed->same_as(whole);
  if (e) {
    same = same && unparse(evaluate(*e, &whole, &target)) == unparse(evaluate(*e, &chained, &target)) &&
           unparse(evaluate_reference(*e, &whole, &target)) ==
               unparse(evaluate_reference(*e, &chained, &target));
  }
  for (const auto& a : whole.attributes())
    same = same &&
           unparse(evaluate_attr(whole, a.name, &target)) == unparse(evaluate_attr(chained, a.name, &target));
  same = same && symmetric_match(whole, target) == symmetric_match(chained, target);
  if (!same) {
    std::fprintf(stderr, "a chained ad differs from the whole: %s\n", unparse(whole).c_str());
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

  ClassAd parent;
  const ClassAd chained = chained_copy(my, parent);
  check_chained(my, chained, nullptr, target);
  for (StringSyntax syntax : {StringSyntax::New, StringSyntax::Old}) {
    auto e = parse_expression(expr_text, syntax);
    if (!e) continue;
    check_chained(my, chained, e->get(), target);
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
