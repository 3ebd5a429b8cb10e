// A match carries the term of the election that made its negotiator
// active (model/ha/election.h). A slot or a schedd remembers the newest
// term it has seen and refuses a match of an older one: a negotiator that
// lost its role (paused, cut off, back after a failover) cannot hand out a
// slot the new active one may hand out too. A pool without high
// availability has term 0 throughout.
#pragma once

#include <algorithm>
#include <cstdint>

namespace cara::claim {

class TermFence {
 public:
  // Whether a match of `term` may be taken; a newer term is remembered.
  bool admit(std::int64_t term) {
    if (term < newest_) return false;
    newest_ = term;
    return true;
  }
  std::int64_t newest() const { return newest_; }

 private:
  std::int64_t newest_ = 0;
};

}  // namespace cara::claim
