// The commands of a running pool: `cara master` (a node), `cara keygen`
// (the pool CA and certificates), `cara userprio` (the negotiator's accountant, over TLS), `cara drain` and
// `cara reconfig`, `cara off`. Each lives in its own <name>_command.cpp;
// what they share is in tool_support.h.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace cara::apps {

int run_master(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int run_keygen(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
// The schedd commands with -name SCHEDD / -pool CM, over TLS (and
// cara q -better-analyze): pool_schedd_commands.cpp.
int run_pool_q(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int run_pool_history(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int run_pool_rm(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int run_pool_hold(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int run_pool_release(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int run_pool_submit(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
// cara q -better-analyze JOB: why an idle job does not run (analyze_command.cpp).
int run_analyze(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int run_userprio(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
// cara stats [--config FILE] [-lastday|-lastweek|-lastmonth|-lasthours N|
// -from S [-to S]] [-resourcequery M|-userquery U|-groupquery G|-resourcelist|
// -userlist|-grouplist] [-constraint EXPR] [-af A,B]: the collector's pool
// history (condor_stats; KEEP_POOL_HISTORY).
int run_stats(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
// cara status [options] [NAME...]: the collector's ads as condor_status
// shows them (apps/commands/status_view.h).
int run_status(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
// cara drain [--config FILE] [-graceful|-quick|-fast|-cancel] MACHINE: finds
// the machine's address in the collector and asks its startd (ADMINISTRATOR).
// cara vacate [-fast] MACHINE | SLOT@MACHINE ...: condor_vacate (ADMINISTRATOR).
int run_vacate(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
// cara ping [-table] [MACHINE] [LEVEL...]: condor_ping (what this identity may do there).
int run_ping(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int run_drain(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
// cara reconfig [--config FILE] [MACHINE]: the machine's master (this
// machine's by default, found by its Master ad) reads its configuration
// again and its daemons apply it (ADMINISTRATOR), like condor_reconfig.
int run_reconfig(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
// cara off [--config FILE] [-graceful|-fast] [MACHINE]: condor_off -master:
// the node stops, gracefully (default) or fast. Needs ADMINISTRATOR.
int run_off(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
// cara on -daemon NAME [MACHINE]; cara restart [-daemon NAME] [MACHINE]
// (condor_on, condor_restart; -daemon NAME with cara off too). ADMINISTRATOR.
int run_on(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int run_restart(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace cara::apps
