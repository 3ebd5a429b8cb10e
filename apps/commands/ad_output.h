// How HTCondor's query tools print ads besides their tables, shared by
// cara status, q and history so that the options read alike everywhere:
// -long (-l) with -long:json, -json, -af ATTR... (with HTCondor's -af:jlhrt,
// modifiers), -format FMT ATTR (printf-style, repeatable) and
// -attributes A,B (what -long and -json show).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "model/classad/classad.h"
#include "model/common/result.h"

namespace cara::apps {

struct AdOutput {
  enum class Mode { Table, Long, Json, Autoformat, Format } mode = Mode::Table;
  std::vector<std::string> af;                              // -af ATTR...
  std::vector<std::pair<std::string, std::string>> format;  // -format FMT ATTR, in order
  std::vector<std::string> attributes;                      // -attributes A,B: what -l and -json show
  // -af modifiers (-af:jh, ...): the job id first, a header line, labels
  // (Attr = value), raw expressions, the separator between values and
  // what ends each ad.
  bool af_jobid = false, af_header = false, af_label = false, af_raw = false;
  std::string af_separator = " ", af_end = "\n";

  // Whether args[i] is an output option; if so, `i` is left at its last
  // value. An option that lacks its values is an error naming it.
  Result<bool> take(const std::vector<std::string>& args, std::size_t& i);
  // The attributes the ads need to carry (a projection for the query):
  // none (every one) unless -af, -format or -attributes names them.
  std::vector<std::string> projection() const;
  // `ads` as the mode says (not Table).
  void print(std::ostream& out, const std::vector<classad::ClassAd>& ads) const;
};

// The ads as one JSON document: an array of objects, literal values as
// JSON values and other expressions as "\/Expr(...)\/" strings, as
// HTCondor's -json prints them.
std::string ads_json(const std::vector<classad::ClassAd>& ads);

// One -format: `fmt` with its single printf conversion (%d %i %x %o %f %e
// %g %s %v %V) applied to `attr` of `ad`; \n and \t in `fmt` are escapes.
// An attribute the ad lacks prints nothing (as in HTCondor).
std::string format_attribute(const std::string& fmt, const classad::ClassAd& ad, const std::string& attr);

// The options a query tool's usage lists for these.
extern const char* const kAdOutputUsage;

}  // namespace cara::apps
