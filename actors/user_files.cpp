#include "actors/user_files.h"

#include <fcntl.h>
#include <sys/fsuid.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace cara::actors {
namespace {

// The calling thread's file-system identity, as `as` until destroyed.
// setfsuid/setfsgid are per-thread system calls; so is the raw setgroups
// call (glibc's wrapper would change every thread of the process).
class ThreadIdentity {
 public:
  explicit ThreadIdentity(const Account& as) {
    saved_groups_.resize(static_cast<std::size_t>(::getgroups(0, nullptr)));
    ::getgroups(static_cast<int>(saved_groups_.size()), saved_groups_.data());
    std::vector<gid_t> groups(as.groups.begin(), as.groups.end());
    ok_ = ::syscall(SYS_setgroups, groups.size(), groups.data()) == 0;
    ::setfsgid(as.gid);
    ::setfsuid(as.uid);
    // setfsuid answers with the previous id: asking again tells whether
    // the change took.
    ok_ = ok_ && static_cast<std::uint32_t>(::setfsuid(as.uid)) == as.uid &&
          static_cast<std::uint32_t>(::setfsgid(as.gid)) == as.gid;
  }
  ~ThreadIdentity() {
    ::setfsuid(::geteuid());
    ::setfsgid(::getegid());
    ::syscall(SYS_setgroups, saved_groups_.size(), saved_groups_.data());
  }
  bool ok() const { return ok_; }

 private:
  std::vector<gid_t> saved_groups_;
  bool ok_ = false;
};

Status write_all(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return Error{"cannot open " + path + ": " + std::strerror(errno)};
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int e = errno;
      ::close(fd);
      return Error{"cannot write " + path + ": " + std::strerror(e)};
    }
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  return Ok{};
}

}  // namespace

Status append_as(const std::string& path, const std::string& text, const Account* as) {
  if (!as || ::geteuid() != 0) return write_all(path, text);
  ThreadIdentity user(*as);
  if (!user.ok()) return Error{"cannot take the identity of " + as->name + " to write " + path};
  return write_all(path, text);
}

}  // namespace cara::actors
