// Batsim's external decision component entry points (the EDC library API
// Batsim loads with --edc-library): caracara's pool as Batsim's scheduler,
// one session per loaded library. The JSON form of the protocol only: its
// binary form is Flatbuffers, which Debian does not ship.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "batsim/batsim_session.h"

namespace {

// Batsim's initialization flags (batsim_edc.h).
constexpr std::uint32_t kFormatBinary = 0x1;
constexpr std::uint32_t kFormatJson = 0x2;

std::unique_ptr<cara::batsim::Session> session;
std::string decisions;   // the last answer: Batsim reads it until the next call
std::string last_error;  // what the last failed call said

std::uint8_t fail(std::string why) {
  last_error = "caracara EDC: " + std::move(why);
  std::fprintf(stderr, "%s\n", last_error.c_str());
  return 1;
}

}  // namespace

#define CARA_EDC_EXPORT extern "C" __attribute__((visibility("default")))

CARA_EDC_EXPORT std::uint8_t batsim_edc_init(const std::uint8_t* data, std::uint32_t size,
                                             std::uint32_t flags) {
  session.reset();
  last_error.clear();
  if (flags & kFormatBinary)
    return fail(
        "Batsim asked for the binary (Flatbuffers) form of its protocol; this decision component speaks the "
        "JSON "
        "form only (Debian ships no Flatbuffers library): run Batsim with the JSON format");
  if (!(flags & kFormatJson))
    return fail("Batsim named no protocol format in its flags (expected JSON, 0x2)");
  auto config = cara::batsim::parse_session_config(
      std::string_view(reinterpret_cast<const char*>(data), data ? size : 0));
  if (!config) return fail(config.error());
  session = std::make_unique<cara::batsim::Session>(std::move(*config));
  return 0;
}

CARA_EDC_EXPORT std::uint8_t batsim_edc_deinit() {
  session.reset();
  decisions.clear();
  decisions.shrink_to_fit();
  return 0;
}

CARA_EDC_EXPORT std::uint8_t batsim_edc_take_decisions(const std::uint8_t* what_happened,
                                                       std::uint32_t what_happened_size, std::uint8_t** out,
                                                       std::uint32_t* out_size) {
  if (!session) return fail("take_decisions before a successful batsim_edc_init");
  if (!out || !out_size) return fail("take_decisions without a place for the decisions");
  auto reply = session->take_decisions(
      std::string_view(reinterpret_cast<const char*>(what_happened), what_happened ? what_happened_size : 0));
  if (!reply) return fail(reply.error());
  decisions = std::move(*reply);
  *out = reinterpret_cast<std::uint8_t*>(decisions.data());
  *out_size = static_cast<std::uint32_t>(decisions.size());
  return 0;
}

// Not Batsim's: what the last failed call said (tests, wrappers).
CARA_EDC_EXPORT const char* caracara_edc_last_error() {
  return last_error.c_str();
}
