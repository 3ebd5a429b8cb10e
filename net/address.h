// A daemon's network address as HTCondor writes it: "host[:port]", or
// "<host:port>" as in a MyAddress attribute. Pure: no sockets.
#pragma once

#include <cstdint>
#include <string>

#include "model/common/result.h"

namespace cara::net {

struct HostPort {
  std::string host;
  std::uint16_t port = 9618;  // HTCondor's well-known port when none is given
};

// "host[:port]" or "<host:port>" -> HostPort; `where` (a knob, an
// attribute) names the input in the error.
Result<HostPort> parse_host_port(const std::string& text, const std::string& where);

}  // namespace cara::net
