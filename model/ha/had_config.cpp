#include "model/ha/had_config.h"

#include <algorithm>
#include <cmath>

#include "model/common/text.h"

namespace cara::ha {
namespace {

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

Result<HadMember> parse_member(const std::string& entry, const char* knob) {
  HadMember m;
  const std::string text = trimmed(entry);
  const auto colon = text.rfind(':');
  m.host = colon == std::string::npos ? text : text.substr(0, colon);
  if (m.host.empty()) return Error{std::string(knob) + ": '" + entry + "' is no host[:port]"};
  if (colon != std::string::npos) {
    const std::string port = text.substr(colon + 1);
    long value = 0;
    const bool digits =
        !port.empty() && port.size() <= 5 &&
        std::all_of(port.begin(), port.end(), [](unsigned char c) { return std::isdigit(c); });
    if (digits) value = std::stol(port);
    if (!digits || value <= 0 || value > 65535)
      return Error{std::string(knob) + ": '" + entry + "': a port of 1-65535 expected after ':'"};
    m.port = static_cast<std::uint16_t>(value);
    m.port_given = true;
  }
  return m;
}

}  // namespace

Result<std::optional<HadConfig>> HadConfig::from_config(const config::Config& c) {
  auto list = c.list("HAD_LIST");
  if (!list) return Error{list.error()};
  if (list->empty()) return std::optional<HadConfig>{};
  HadConfig h;
  for (const std::string& e : *list) {
    auto m = parse_member(e, "HAD_LIST");
    if (!m) return Error{m.error()};
    for (const HadMember& seen : h.members)
      if (to_lower(seen.host) == to_lower(m->host) && seen.port == m->port)
        return Error{"HAD_LIST: " + m->text() + " is listed twice"};
    h.members.push_back(*m);
  }
  auto rl = c.list("REPLICATION_LIST");
  if (!rl) return Error{rl.error()};
  if (!rl->empty() && rl->size() != h.members.size())
    return Error{"REPLICATION_LIST: " + std::to_string(rl->size()) + " entries, but HAD_LIST has " +
                 std::to_string(h.members.size()) + ": the lists name the same central managers"};
  for (const std::string& e : *rl)
    if (auto m = parse_member(e, "REPLICATION_LIST"); !m) return Error{m.error()};
  auto primary = c.boolean("HAD_USE_PRIMARY");
  if (!primary) return Error{primary.error()};
  h.use_primary = *primary;
  auto timeout = c.real("HAD_CONNECTION_TIMEOUT");
  if (!timeout) return Error{timeout.error()};
  if (!(*timeout > 0) || !std::isfinite(*timeout))
    return Error{"HAD_CONNECTION_TIMEOUT: a positive number of seconds expected"};
  h.connection_timeout_ms = std::max<std::int64_t>(1, std::llround(*timeout * 1000));
  auto controllee = c.string("HAD_CONTROLLEE", "NEGOTIATOR");
  if (!controllee) return Error{controllee.error()};
  if (to_lower(trimmed(*controllee)) != "negotiator")
    return Error{"HAD_CONTROLLEE: '" + *controllee +
                 "' is not supported; caracara's central managers make the NEGOTIATOR highly available"};
  for (auto [knob, into] : {std::pair{"HAD_USE_REPLICATION", &h.use_replication},
                            std::pair{"HAD_REPLICATION_SYNC", &h.sync_replication}}) {
    auto v = c.boolean(knob);
    if (!v) return Error{v.error()};
    *into = *v;
  }
  return std::optional<HadConfig>(std::move(h));
}

std::optional<std::size_t> HadConfig::self_index(const std::vector<std::string>& names,
                                                 std::uint16_t port) const {
  for (std::size_t i = 0; i < members.size(); ++i) {
    const HadMember& m = members[i];
    if (port != 0 && m.port_given && m.port != port) continue;
    for (const std::string& n : names)
      if (!n.empty() && to_lower(n) == to_lower(m.host)) return i;
  }
  return std::nullopt;
}

}  // namespace cara::ha
