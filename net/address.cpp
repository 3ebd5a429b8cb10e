#include "net/address.h"

namespace cara::net {

Result<HostPort> parse_host_port(const std::string& text, const std::string& where) {
  HostPort hp;
  std::string t = text;
  if (t.size() > 2 && t.front() == '<' && t.back() == '>') t = t.substr(1, t.size() - 2);
  const auto colon = t.rfind(':');
  hp.host = t.substr(0, colon);
  if (colon != std::string::npos) {
    const std::string port = t.substr(colon + 1);
    if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
        std::stoi(port) == 0 || std::stoi(port) > 65535)
      return Error{where + ": '" + text + "' has a bad port; expected host[:port] with a port of 1-65535"};
    hp.port = static_cast<std::uint16_t>(std::stoi(port));
  }
  if (hp.host.empty()) return Error{where + ": '" + text + "' names no host; expected host[:port]"};
  return hp;
}

}  // namespace cara::net
