// caracara as Batsim's scheduler (issue 29): Batsim simulates the platform
// and runs the jobs; caracara decides, with its own negotiator, accountant,
// schedd and startds in virtual time (caracara::VirtualPool). The session
// speaks the JSON form of Batsim's protocol (batprotocol): it reads what
// happened and answers with decisions. Batsim's entry points
// (batsim_edc.cpp) hold one session.
//
// Batsim's hosts are the pool's machines (one slot each unless the
// `machine` configuration says otherwise), named as Batsim names them. A
// submitted job asking for one host is a vanilla job of the user its
// extra_data names ("user", else the workload), in the accounting group it
// names ("group"), if any; a job asking for more hosts is rejected (a
// vanilla job runs on one slot). A job caracara starts is executed on its
// slot's host; Batsim says when it completes. A job caracara kills (a
// preemption) is killed in Batsim and leaves the queue: Batsim does not
// run a job twice. Between Batsim's events the session asks to be called
// at the pool's next event while jobs wait, so that cycles run on time.
#pragma once

#include <caracara/virtual_pool.h>

#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/common/result.h"

namespace cara::batsim {

// The session's configuration, from the EDC's initialization string: a JSON
// object with "common", "central_manager", "access_point" and "machine"
// (configuration text), "submit" (lines every job's submit description
// gets) and "seed". Empty: the defaults.
struct SessionConfig {
  std::string common = "UID_DOMAIN = batsim\n";
  std::string central_manager, access_point;
  std::string machine = "NUM_CPUS = 1\n";
  std::string submit;
  std::uint64_t seed = 1;
};
Result<SessionConfig> parse_session_config(std::string_view init);

class Session {
 public:
  explicit Session(SessionConfig config) : config_(std::move(config)) {}

  // One call of batsim_edc_take_decisions: Batsim's message in, the
  // decisions out (a JSON message). An error names what was wrong.
  Result<std::string> take_decisions(std::string_view message);

  bool ended() const { return ended_; }

 private:
  Status begin(const nlohmann::json& event);
  Status submitted(const nlohmann::json& event, double now, nlohmann::json& out);
  void advance(double t);
  std::string host_of(const std::string& slot) const;

  SessionConfig config_;
  std::unique_ptr<caracara::VirtualPool> pool_;
  std::map<std::string, std::string> host_ids_;       // host name -> Batsim's id
  std::map<std::string, std::string> job_of_batsim_;  // w0!1 -> 1.0
  std::map<std::string, std::string> batsim_of_job_;  // 1.0 -> w0!1
  std::vector<caracara::Event> events_;               // the pool's, since the last look
  std::optional<std::int64_t> call_at_;               // the call asked of Batsim
  std::uint64_t calls_ = 0;
  bool ended_ = false;
};

}  // namespace cara::batsim
