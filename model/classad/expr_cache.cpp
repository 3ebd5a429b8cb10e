#include "model/classad/expr_cache.h"

#include "model/classad/text_hash.h"

namespace cara::classad {
namespace {

thread_local bool tl_enabled = true;

}  // namespace

ExprCache::ExprCache(std::size_t slots) : entries_(slots) {}

ExprPtr ExprCache::find(std::string_view text) const {
  const Entry* e = entries_.find(hash_text<false>(text));
  if (e && e->text == text) {
    ++hits_;
    return e->tree;
  }
  ++misses_;
  return nullptr;
}

void ExprCache::put(std::string_view text, ExprPtr tree) {
  if (text.size() > kMaxText || !tree) return;
  const std::uint64_t h = hash_text<false>(text);
  Entry& e = entries_.place(h);
  e.hash = h;
  e.text.assign(text);
  e.tree = std::move(tree);
}

ExprCache* ExprCache::for_this_thread(StringSyntax syntax) {
  thread_local ExprCache old_syntax, new_syntax;
  if (!tl_enabled) return nullptr;
  return syntax == StringSyntax::Old ? &old_syntax : &new_syntax;
}

void ExprCache::set_enabled(bool on) {
  tl_enabled = on;
}

}  // namespace cara::classad
