// The schedd commands as cara-pool runs them: with -name SCHEDD or -pool
// CM (the `cara` binary hands those over), through a link over TLS to a
// schedd of the pool (remote_schedd.h); cara q -better-analyze too.
#include <unistd.h>

#include <ctime>
#include <filesystem>

#include "apps/commands/arguments.h"
#include "apps/commands/node_commands.h"
#include "apps/commands/remote_schedd.h"
#include "apps/commands/schedd_commands.h"
#include "apps/commands/submit_command.h"
#include "os/current_user.h"
#include "os/system_host.h"

namespace cara::apps {
namespace {

const RemoteSchedds kRemote = remote_schedd;

ToolContext context() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  return ToolContext{os::current_user(), static_cast<std::int64_t>(now),
                     static_cast<std::int32_t>(local.tm_gmtoff)};
}

}  // namespace

int run_pool_q(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  for (const std::string& a : args)
    if (is_flag(a, "better-analyze") || is_flag(a, "analyze")) return run_analyze(args, out, err);
  return run_q(args, out, err, context(), &kRemote);
}

int run_pool_history(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  return run_history(args, out, err, context(), &kRemote);
}

int run_pool_rm(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  return run_job_action(schedd::JobAction::Remove, args, out, err, context(), &kRemote);
}
int run_pool_hold(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  return run_job_action(schedd::JobAction::Hold, args, out, err, context(), &kRemote);
}
int run_pool_release(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  return run_job_action(schedd::JobAction::Release, args, out, err, context(), &kRemote);
}

int run_pool_submit(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  SubmitEnvironment env;
  env.user = os::current_user();
  std::error_code ec;
  env.cwd = std::filesystem::current_path(ec).string();
  env.now = static_cast<std::int64_t>(std::time(nullptr));
  env.environment = os::process_environment();
  return run_submit(args, out, err, std::make_shared<os::SystemHost>(), env, &kRemote);
}

}  // namespace cara::apps
