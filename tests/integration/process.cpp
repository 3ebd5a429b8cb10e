#include "integration/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>

namespace cara::test {

std::string write_temp_file(const std::string& content, const std::string& suffix) {
  static std::atomic<int> n{0};
  auto path = std::filesystem::temp_directory_path() /
              ("cara-test-" + std::to_string(::getpid()) + "-" + std::to_string(n++) + suffix);
  std::ofstream(path) << content;
  return path.string();
}

ProcessResult run_process(const std::vector<std::string>& argv, const std::string& input, int timeout_ms) {
  ProcessResult result;
  int in_pipe[2], out_pipe[2], err_pipe[2];
  if (pipe(in_pipe) || pipe(out_pipe) || pipe(err_pipe)) return result;
  pid_t pid = fork();
  if (pid < 0) return result;
  if (pid == 0) {
    dup2(in_pipe[0], 0);
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) close(fd);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  signal(SIGPIPE, SIG_IGN);
  std::size_t written = 0;
  if (input.empty()) close(in_pipe[1]);
  int in_fd = input.empty() ? -1 : in_pipe[1];
  fcntl(out_pipe[0], F_SETFL, O_NONBLOCK);
  fcntl(err_pipe[0], F_SETFL, O_NONBLOCK);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  struct Stream {
    int fd;
    std::string* sink;
  } streams[2] = {{out_pipe[0], &result.out}, {err_pipe[0], &result.err}};
  for (;;) {
    std::vector<pollfd> fds;
    std::vector<Stream*> owners;
    for (auto& st : streams) {
      if (st.fd >= 0) {
        fds.push_back({st.fd, POLLIN, 0});
        owners.push_back(&st);
      }
    }
    if (fds.empty()) break;
    if (in_fd >= 0) fds.push_back({in_fd, POLLOUT, 0});
    auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      kill(pid, SIGKILL);
      break;
    }
    if (poll(fds.data(), fds.size(), static_cast<int>(left.count())) < 0) continue;
    for (std::size_t k = 0; k < owners.size(); ++k) {
      if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[4096];
      ssize_t n = read(fds[k].fd, buf, sizeof buf);
      if (n > 0) {
        owners[k]->sink->append(buf, static_cast<std::size_t>(n));
      } else {
        close(owners[k]->fd);
        owners[k]->fd = -1;
      }
    }
    if (in_fd >= 0 && (fds.back().revents & (POLLOUT | POLLERR | POLLHUP))) {
      ssize_t n = write(in_fd, input.data() + written, input.size() - written);
      if (n > 0) written += static_cast<std::size_t>(n);
      if (n < 0 || written == input.size()) {
        close(in_fd);
        in_fd = -1;
      }
    }
  }
  if (in_fd >= 0) close(in_fd);
  for (auto& st : streams) {
    if (st.fd >= 0) close(st.fd);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (!result.timed_out && WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  return result;
}

}  // namespace cara::test
