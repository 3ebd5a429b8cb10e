// Matchmaking between a request (job) ad and a resource (slot) ad
// (HTCondor MatchClassAd): each ad's Requirements is evaluated with itself
// as MY and the other as TARGET; both must be true.
#pragma once

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

// `ad.Rank` against `other` as a number; a Rank that is missing or not a
// number counts as 0.0 (HTCondor's negotiator does the same).
double rank(const ClassAd& ad, const ClassAd& other, const EvalEnv& env = {});

}  // namespace cara::classad
