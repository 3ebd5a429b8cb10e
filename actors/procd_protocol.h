// What the startd and its process keeper (cara-procd, apps/procd/) say to
// each other: one object per packet of a SOCK_SEQPACKET socket pair, in
// MessagePack (nlohmann::json's binary form: unlike JSON text it carries
// any bytes, and a job's arguments and paths need not be UTF-8).
// The socket is also the keeper's lifeline: when the startd's process ends
// (however: kill -9 included) the keeper reads end-of-file, kills every job
// it started and everything those started, and exits. No CAF here.
//
//   startd -> keeper  {"op":"start", JobSpec fields}   start a job
//                     {"op":"signal","id":N,"sig":S}   signal its process group
//   keeper -> startd  {"op":"ready","pid":P}           once, at start
//                     {"op":"fatal","error":E}         instead of ready: it cannot work
//                     {"op":"started","id":N,"pid":P}
//                     {"op":"failed","id":N,"error":E} the job could not be started
//                     {"op":"exited","id":N,"signaled":B,"code":C}
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cara::procd {

// One job to start.
struct JobSpec {
  std::int64_t id = 0;            // the startd's handle for it
  std::string cmd;                // absolute path of the executable
  std::vector<std::string> args;  // without argv[0]
  std::vector<std::string> env;   // NAME=value
  std::string iwd;                // working directory; empty: the sandbox
  std::string in, out, err;       // absolute paths (opened as the job's user)
  bool sandbox = true;            // a scratch directory under EXECUTE, owned by the user
  bool switch_user = false;       // false: the job runs as the keeper's own user
  std::uint32_t uid = 0, gid = 0;
  std::vector<std::uint32_t> groups;
  std::string user;  // the account's name, for messages
};

inline void to_json(nlohmann::json& j, const JobSpec& s) {
  j = nlohmann::json{{"op", "start"},
                     {"id", s.id},
                     {"cmd", s.cmd},
                     {"args", s.args},
                     {"env", s.env},
                     {"iwd", s.iwd},
                     {"in", s.in},
                     {"out", s.out},
                     {"err", s.err},
                     {"sandbox", s.sandbox},
                     {"switch_user", s.switch_user},
                     {"uid", s.uid},
                     {"gid", s.gid},
                     {"groups", s.groups},
                     {"user", s.user}};
}

inline void from_json(const nlohmann::json& j, JobSpec& s) {
  j.at("id").get_to(s.id);
  j.at("cmd").get_to(s.cmd);
  j.at("args").get_to(s.args);
  j.at("env").get_to(s.env);
  j.at("iwd").get_to(s.iwd);
  j.at("in").get_to(s.in);
  j.at("out").get_to(s.out);
  j.at("err").get_to(s.err);
  j.at("sandbox").get_to(s.sandbox);
  j.at("switch_user").get_to(s.switch_user);
  j.at("uid").get_to(s.uid);
  j.at("gid").get_to(s.gid);
  j.at("groups").get_to(s.groups);
  j.at("user").get_to(s.user);
}

// One message as a packet, and back (a packet that is not one is
// discarded: `is_discarded()`).
inline std::string encode(const nlohmann::json& message) {
  const std::vector<std::uint8_t> bytes = nlohmann::json::to_msgpack(message);
  return std::string(bytes.begin(), bytes.end());
}
template <class It>
nlohmann::json decode(It first, It last) {
  return nlohmann::json::from_msgpack(first, last, true, false);
}

// The largest packet either side sends (a job's environment and arguments
// fit well within it; the socket buffers are sized for it).
constexpr std::size_t kMaxPacket = 1 << 20;

// The variable that marks every process of a job's family, so that a
// process that left the job's process group is still found and killed.
constexpr const char* kFamilyVariable = "_CARA_FAMILY";

}  // namespace cara::procd
