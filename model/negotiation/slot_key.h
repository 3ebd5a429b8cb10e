// The key of a slot class or family (slot_classes.h): two slots with the
// same key are alike to every expression the key's names stand for. A
// writer keeps the scratch and the caches of what a slot expression reads
// and how it is spelled, so one writer serves one thread: the classes of a
// cycle are keyed on several (issue 30, NEGOTIATOR_THREADS) and their
// writers' caches merged.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/expr.h"
#include "model/classad/references.h"
#include "model/classad/symbol.h"
#include "model/negotiation/slot_pool.h"

namespace cara::negotiation {

// The names a cycle's class keys (`names`) and family keys (`match`) are
// written over, from what the requests and the negotiator's expressions
// read and what the requests alone read: the family's names with what
// every match reads, the class's with the family's (a class refines its
// family). A board (slot_board.h) keys the slots it leaves out over the
// same names.
struct ClassKeyNames {
  std::vector<classad::Symbol> names, match;
};
ClassKeyNames class_key_names(classad::NameSet names, classad::NameSet match_names);

class SlotKeyWriter {
 public:
  // The values of `names` followed through the slot's ad: the part of a
  // key that depends on the ad and `names` alone (what a memo may keep, or
  // number, while the ad is unchanged: slot_memo.h); valid until the next
  // call.
  const std::string& attributes(const PoolSlot& slot, const std::vector<classad::Symbol>& names);
  // The key: the slot's weight, its use (`with_use`: idle, or whose job at
  // which CurrentRank), then `attributes` (that part, or the memo's number
  // of it).
  static std::string key_with(const PoolSlot& slot, bool with_use, std::string_view attributes);
  // Appends the values of `names` (sorted by symbol) in `ad` as
  // attributes() writes them; false, with `out` as it was, when one of
  // them is not an inline value (an expression, a long string), which
  // attributes() would follow. An absent name is written too.
  static bool append_inline_values(const classad::ClassAd& ad, const std::vector<classad::Symbol>& names,
                                   std::string& out);
  // How many expression trees the caches hold.
  std::size_t cached() const { return refs_.size() + texts_.size(); }
  // Whether an expression of a slot this writer followed refers to `name`.
  bool reads(classad::Symbol name) const;
  // Whether one of them refers to a name `pred` accepts.
  bool reads_any(const std::function<bool(classad::Symbol)>& pred) const;
  // Takes in what `other` has cached (another thread's writer).
  void absorb(SlotKeyWriter&& other);

 private:
  const std::vector<classad::Symbol>& names_in(const classad::ExprPtr& expr);
  const std::string& text_of(const classad::ExprPtr& expr);

  std::string buffer_;
  std::vector<std::pair<classad::Symbol, const classad::ClassAd::IndexSlot*>> seen_;
  std::vector<classad::Symbol> pending_;
  std::vector<std::uint32_t> marks_;  // by symbol: the attributes() call that saw it
  std::uint32_t mark_ = 0;
  // By tree, which the maps keep alive so that an address is never reused
  // for another expression while cached.
  std::unordered_map<const classad::ExprTree*, std::pair<classad::ExprPtr, std::vector<classad::Symbol>>>
      refs_;
  std::unordered_map<const classad::ExprTree*, std::pair<classad::ExprPtr, std::string>> texts_;
};

}  // namespace cara::negotiation
