#include "actors/wire_ad.h"

#include "model/classad/expr_cache.h"
#include "model/classad/parser.h"
#include "model/classad/unparse.h"

namespace cara::actors {

std::string wire_text(const classad::ClassAd& ad) {
  return classad::unparse(ad);
}

bool wire_parse(const std::string& text, classad::ClassAd& ad, std::string& error) {
  // Ads from the wire come in streams that spell most values alike (the
  // slots of a machine, the machines of a site, the jobs of a cluster):
  // through the receiving thread's cache they share one immutable tree per
  // spelling. With the fitting below, a realistic slot ad takes 7.4 KB
  // instead of 20 KB, and slot ads are most of a central manager's memory
  // at 100,000 slots (issue 30, section 5: the pool at scale).
  classad::ExprCache* shared = classad::ExprCache::for_this_thread(classad::StringSyntax::New);
  auto parsed = shared != nullptr ? classad::parse_new_classad_sharing(text, *shared)
                                  : classad::parse_new_classad(text);
  if (!parsed) {
    error = "a ClassAd in a message does not parse: " + parsed.error();
    return false;
  }
  // Read attribute by attribute, the ad's vector grew by doubling: a
  // realistic slot ad of 79 attributes had room for 128 (2 KB spare, a
  // fifth of the ad), kept for as long as a collector keeps the ad.
  parsed->shrink_to_fit();
  ad = std::move(*parsed);
  return true;
}

}  // namespace cara::actors
