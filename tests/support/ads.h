// A ClassAd from its text, for tests: a text that does not parse fails
// the test that wrote it.
#pragma once

#include <catch2/catch.hpp>
#include <string>

#include "model/classad/parser.h"

namespace cara::test_ads {

inline classad::ClassAd ad(const std::string& text) {
  auto a = classad::parse_classad(text);
  if (!a) FAIL(a.error() + " in " + text);
  return *a;
}

}  // namespace cara::test_ads
