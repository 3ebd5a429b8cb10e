// Whether a job matched a slot family, kept from one cycle to the next
// while both are unchanged (issue 30: HTCondor keeps an autocluster's match
// list for a cycle, NEGOTIATOR_MATCHLIST_CACHING; a negotiator that
// remembers its slots can keep it longer). Within a cycle FamilyMatches
// (family_matches.h) keeps the answers by family number; numbers change
// from cycle to cycle, the family keys do not: with a memo a family's key
// is the memo's number of what the match reads of its slots (slot_memo.h,
// slot_classes.h), so two families of one key generation with the same
// key agree on everything the match reads of a slot, in any cycle. The
// job side is the job's ad itself, by identity (a copy is kept, so that
// an identity is never reused for another ad while remembered).
//
// Not kept: an answer whose evaluation read the clock, the random source
// or the user maps, nor the answers of a job whose match reads the
// Submitter* attributes the negotiator adds (they change with the
// accountant). A job's answers that the next cycle does not ask for are
// forgotten after it, and a job no cycle asked for is forgotten: the memo
// holds what the last two cycles asked.
//
// One memo serves one negotiator, one cycle at a time; not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>

#include "model/classad/classad.h"

namespace cara::negotiation {

// Hashes a ClassAd::identity().
struct AdIdentityHash {
  std::size_t operator()(const std::pair<const void*, const void*>& id) const {
    const auto a = reinterpret_cast<std::uintptr_t>(id.first),
               b = reinterpret_cast<std::uintptr_t>(id.second);
    return static_cast<std::size_t>((a * 0x9E3779B97F4A7C15ull) ^ (b + (a >> 17)));
  }
};

class MatchMemo {
 public:
  static constexpr signed char kUnknown = -1, kNo = 0, kYes = 1;

  // What one job's matches gave, by family key.
  class Job {
   public:
    signed char get(const std::string& family);
    void set(const std::string& family, bool matched);

   private:
    friend class MatchMemo;
    classad::ClassAd ad;  // keeps the identity taken
    std::uint32_t generation = 0;
    std::uint64_t cycle = 0;
    std::unordered_map<std::string, bool> now, before;  // asked this cycle, and in the last one
  };

  // Starts a cycle: forgets the jobs the last one did not ask for.
  void begin();
  // The answers kept for `job` under the family keys of `generation`
  // (SlotMemo::generation of the family keys' names), or null when the
  // job has no identity of its own (an ad without attributes).
  Job* job(const classad::ClassAd& job, std::uint32_t generation);
  // How many jobs are remembered.
  std::size_t size() const { return jobs_.size(); }
  void clear();

 private:
  std::unordered_map<std::pair<const void*, const void*>, Job, AdIdentityHash> jobs_;
  std::uint64_t cycle_ = 0;
};

}  // namespace cara::negotiation
