#include "os/system_host.h"

#include <sys/statvfs.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "model/common/environment.h"

extern char** environ;

namespace cara::os {

using config::MachineFacts;

std::vector<std::pair<std::string, std::string>> process_environment() {
  std::vector<std::string> entries;
  for (char** e = environ; e && *e; ++e) entries.emplace_back(*e);
  return parse_environment(entries);
}

SystemHost::SystemHost() = default;

Result<std::string> SystemHost::read_file(const std::string& path) const {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": " + std::strerror(errno)};
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Error{path + ": read error"};
  return text.str();
}

Result<std::int64_t> SystemHost::file_size(const std::string& path) const {
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return Error{path + ": " + ec.message()};
  return static_cast<std::int64_t>(size);
}

bool SystemHost::exists(const std::string& path) const {
  std::error_code ec;
  return std::filesystem::exists(path, ec);
}

bool SystemHost::is_directory(const std::string& path) const {
  std::error_code ec;
  return std::filesystem::is_directory(path, ec);
}

Result<std::vector<std::string>> SystemHost::list_dir(const std::string& dir) const {
  std::error_code ec;
  std::vector<std::string> names;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec)) names.push_back(it->path().filename().string());
  }
  if (ec) return Error{dir + ": " + ec.message()};
  return names;
}

std::optional<std::string> SystemHost::env(const std::string& name) const {
  const char* v = std::getenv(name.c_str());
  if (!v) return std::nullopt;
  return std::string(v);
}

std::vector<std::pair<std::string, std::string>> SystemHost::environment() const {
  return process_environment();
}

std::int64_t SystemHost::random_integer(std::int64_t lo, std::int64_t hi) {
  if (!rng_) rng_.emplace(std::random_device{}());
  std::uniform_int_distribution<std::int64_t> d(lo, hi);
  return d(*rng_);
}

MachineFacts SystemHost::machine() const {
  MachineFacts f;
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0 && host[0]) {
    f.full_hostname = host;
    f.hostname = f.full_hostname.substr(0, f.full_hostname.find('.'));
  }
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  if (cpus > 0) f.detected_cpus = f.detected_physical_cpus = cpus;
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) f.detected_memory_mib = static_cast<std::int64_t>(pages) * page / (1024 * 1024);
  struct statvfs fs {};
  if (statvfs("/", &fs) == 0) {
    f.detected_disk_kib =
        static_cast<std::int64_t>(fs.f_bavail) * static_cast<std::int64_t>(fs.f_frsize) / 1024;
  }
  struct sysinfo si {};
  if (sysinfo(&si) == 0) f.detected_swap_kib = static_cast<std::int64_t>(si.totalswap) * si.mem_unit / 1024;
  utsname u{};
  if (uname(&u) == 0) {
    std::string machine = u.machine;
    f.arch = machine == "x86_64" ? "X86_64" : machine == "aarch64" ? "AARCH64" : machine;
    std::string sys = u.sysname;
    std::transform(sys.begin(), sys.end(), sys.begin(),
                   [](char c) { return c >= 'a' && c <= 'z' ? char(c - 32) : c; });
    f.opsys = sys;
  }
  if (const char* user = std::getenv("USER")) f.username = user;
  f.pid = static_cast<std::int64_t>(getpid());
  return f;
}

}  // namespace cara::os
