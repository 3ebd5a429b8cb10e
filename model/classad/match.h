// Matchmaking between a request (job) ad and a resource (slot) ad
// (HTCondor MatchClassAd): each ad's Requirements is evaluated with itself
// as MY and the other as TARGET; both must be true.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/eval_env.h"
#include "model/classad/symbol.h"

namespace cara::classad {

// Symbols of the attributes matchmaking reads, interned once.
struct MatchSymbols {
  Symbol requirements = intern("Requirements");
  Symbol rank = intern("Rank");
  static const MatchSymbols& get();
};

// Whether `ad.Requirements` is true against `other`. A missing or
// non-boolean Requirements is false; numbers count as booleans (old-ClassAd
// semantics, as && treats them).
bool requirements_met(const ClassAd& ad, const ClassAd& other, const EvalEnv& env = {});

// job.Requirements && slot.Requirements, each in its own ad's scope.
bool symmetric_match(const ClassAd& job, const ClassAd& slot, const EvalEnv& env = {});

// The positions in `slots` of those that match `job` (symmetric_match), in
// order, appended to `matched`. Walking many slot ads, each cold in cache,
// waits on memory more than it computes, so the walk loads each slot's
// lookup index a few slots ahead of its match, and its Requirements tree
// when the index has arrived (bench/RESULTS.md, classad_bench match).
void match_each(const ClassAd& job, std::span<const ClassAd* const> slots,
                std::vector<std::uint32_t>& matched, const EvalEnv& env = {});

// `ad.Rank` against `other` as a number; a Rank that is missing or not a
// number counts as 0.0 (HTCondor's negotiator does the same).
double rank(const ClassAd& ad, const ClassAd& other, const EvalEnv& env = {});

}  // namespace cara::classad
