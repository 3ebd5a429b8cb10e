// A ClassAd as a message field. In one process CAF never serializes a
// message, so the ad travels as it is (its expression trees shared); across
// nodes it travels as new-syntax text, which the parser reads back exactly
// (unparse round-trips, fuzzed in tests/fuzz), values spelled alike in the
// ads a thread reads sharing one tree (wire_parse). A peer sending text that
// does not parse gets a deserialization error, never a half-read ad.
#pragma once

#include <caf/error.hpp>
#include <caf/meta/load_callback.hpp>
#include <caf/sec.hpp>
#include <string>

#include "model/classad/classad.h"

namespace cara::actors {

struct WireAd {
  classad::ClassAd ad;
};

// The text form and back (implemented in wire_ad.cpp, out of the headers).
std::string wire_text(const classad::ClassAd& ad);
bool wire_parse(const std::string& text, classad::ClassAd& ad, std::string& error);

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, WireAd& x) {
  std::string text;
  if constexpr (Inspector::reads_state) {
    text = wire_text(x.ad);
    return f(text);
  } else {
    return f(text, caf::meta::load_callback([&]() -> caf::error {
               std::string why;
               if (!wire_parse(text, x.ad, why)) return caf::make_error(caf::sec::invalid_argument, why);
               return caf::none;
             }));
  }
}

}  // namespace cara::actors
