#include "actors/wire_ad.h"

#include "model/classad/parser.h"
#include "model/classad/unparse.h"

namespace cara::actors {

std::string wire_text(const classad::ClassAd& ad) {
  return classad::unparse(ad);
}

bool wire_parse(const std::string& text, classad::ClassAd& ad, std::string& error) {
  auto parsed = classad::parse_new_classad(text);
  if (!parsed) {
    error = "a ClassAd in a message does not parse: " + parsed.error();
    return false;
  }
  ad = std::move(*parsed);
  return true;
}

}  // namespace cara::actors
