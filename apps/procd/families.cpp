#include "apps/procd/families.h"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "actors/procd_protocol.h"

namespace cara::procd {
namespace {

std::string mark_of(std::int64_t id) {
  return std::string(kFamilyVariable) + "=" + std::to_string(::getpid()) + "." + std::to_string(id);
}

// Children of this process, from the kernel's own list.
std::vector<pid_t> children() {
  std::ifstream in("/proc/self/task/" + std::to_string(::getpid()) + "/children");
  std::vector<pid_t> out;
  pid_t p = 0;
  while (in >> p) out.push_back(p);
  return out;
}

bool environment_has(pid_t pid, const std::set<std::string>& marks) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/environ", std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::size_t start = 0;
  while (start < all.size()) {
    const std::size_t end = all.find('\0', start);
    const std::string entry = all.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (marks.count(entry)) return true;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return false;
}

int make_writable(const char* path, const struct stat* st, int type, struct FTW*) {
  if (type == FTW_D) ::chmod(path, (st->st_mode & 07777) | S_IRWXU);
  return 0;
}

int remove_entry(const char* path, const struct stat*, int type, struct FTW* ftw) {
  if (ftw->level == 0) return 0;  // the directory itself is removed by the keeper
  (type == FTW_DP ? ::rmdir(path) : ::unlink(path));
  return 0;
}

// Empties `dir` as `uid`/`gid` in a child process: a job's files are
// removed with the job's rights, so a symbolic link it planted cannot
// make root remove anything else.
void empty_as(const std::string& dir, bool switch_user, std::uint32_t uid, std::uint32_t gid) {
  const pid_t pid = ::fork();
  if (pid < 0) return;
  if (pid == 0) {
    if (switch_user && (::setgroups(0, nullptr) != 0 || ::setgid(gid) != 0 || ::setuid(uid) != 0)) _exit(1);
    ::nftw(dir.c_str(), make_writable, 16, FTW_PHYS);
    ::nftw(dir.c_str(), remove_entry, 16, FTW_PHYS | FTW_DEPTH);
    _exit(0);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

}  // namespace

std::string Families::make_sandbox(std::int64_t id, bool switch_user, std::uint32_t uid, std::uint32_t gid,
                                   std::string& error) {
  if (execute_.empty()) return {};
  const std::string dir = execute_ + "/dir_" + std::to_string(::getpid()) + "_" + std::to_string(id);
  if (::mkdir(dir.c_str(), 0700) != 0) {
    error = "cannot create the job's sandbox " + dir + ": " + std::strerror(errno);
    return {};
  }
  if (switch_user && ::chown(dir.c_str(), uid, gid) != 0) {
    error = "cannot give the sandbox " + dir + " to uid " + std::to_string(uid) + ": " + std::strerror(errno);
    ::rmdir(dir.c_str());
    return {};
  }
  return dir;
}

void Families::clean_stale_sandboxes() {
  if (execute_.empty()) return;
  DIR* d = ::opendir(execute_.c_str());
  if (!d) return;
  std::vector<std::string> stale;
  while (dirent* e = ::readdir(d))
    if (std::strncmp(e->d_name, "dir_", 4) == 0) stale.push_back(execute_ + "/" + e->d_name);
  ::closedir(d);
  for (const std::string& dir : stale) {
    struct stat st {};
    if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) continue;
    empty_as(dir, st.st_uid != ::geteuid(), st.st_uid, st.st_gid);
    ::rmdir(dir.c_str());
  }
}

const Family* Families::by_pid(pid_t pid) const {
  auto it = running_.find(pid);
  return it == running_.end() ? nullptr : &it->second;
}

const Family* Families::by_id(std::int64_t id) const {
  for (const auto& [pid, f] : running_)
    if (f.id == id) return &f;
  return nullptr;
}

std::vector<pid_t> Families::strays(const std::set<std::string>& marks) const {
  std::vector<pid_t> out;
  for (pid_t p : children()) {
    if (running_.count(p)) continue;
    if (marks.empty() || environment_has(p, marks)) out.push_back(p);
  }
  return out;
}

void Families::ended(pid_t pid) {
  auto it = running_.find(pid);
  if (it == running_.end()) return;
  const Family f = std::move(it->second);
  running_.erase(it);
  ::kill(-f.pid, SIGKILL);  // the rest of its process group
  ended_marks_.insert(mark_of(f.id));
  sweep();
  remove_sandbox(f);
}

void Families::sweep() {
  if (ended_marks_.empty()) return;
  const std::vector<pid_t> found = strays(ended_marks_);
  for (pid_t p : found) ::kill(p, SIGKILL);
  // Nothing left to find: a killed stray's own children come back to the
  // keeper and are found by the sweep after it is reaped.
  if (found.empty()) ended_marks_.clear();
}

void Families::kill_all() {
  for (const auto& [pid, f] : running_) ::kill(-pid, SIGKILL);
  for (pid_t p : strays({})) ::kill(p, SIGKILL);
}

void Families::remove_sandbox(const Family& f) {
  if (f.sandbox.empty()) return;
  if (::rmdir(f.sandbox.c_str()) == 0 || errno == ENOENT) return;
  empty_as(f.sandbox, f.switch_user, f.uid, f.gid);
  ::rmdir(f.sandbox.c_str());
}

}  // namespace cara::procd
